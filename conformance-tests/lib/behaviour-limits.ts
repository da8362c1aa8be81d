// info, Text and nesting: what a refusal costs stays within the contract's bounds. An array longer than its
// `maxItems` is judged no further than one item past the bound, and an error names at most `x-max-error-details`
// details, the first found: a target that judged every item, or named every field, would answer a small body with
// megabytes of details (and spend seconds finding them).
import { maxErrorDetails } from '../../lib/contract.ts';
import { assert, type BehaviourTest } from './behaviour-kit.ts';
import { errorDetails } from './checks.ts';
import { isObject, type JsonObject } from './contract.ts';
import { expectResponse } from './expect.ts';
import type { Session } from './session.ts';

/** createAutomation's body with `count` empty steps, each refused for what it lacks. */
async function withEmptySteps(s: Session, count: number) {
  const create = s.operation('createAutomation');
  const { body } = await s.validRequest(create);
  const steps = Array.from({ length: count }, () => ({}));
  const call = { headers: await s.authHeaders(create), body: { ...(body as JsonObject), steps } };
  return expectResponse(s, create, `${count} empty steps`, call, { status: 400, codes: ['VALIDATION_ERROR'] });
}

export const limitBehaviour: BehaviourTest[] = [
  {
    operationId: 'createAutomation',
    rule: 'steps far past their maxItems are answered as one step past it (info: Text and nesting)',
    needs: ['details'],
    async run(s) {
      const steps = s.contract.deref(s.contract.pointer('/components/schemas/Steps'));
      const max = isObject(steps) && typeof steps.maxItems === 'number' ? steps.maxItems : undefined;
      assert(max !== undefined, 'the contract states no maxItems for Steps');
      const onePast = errorDetails(await withEmptySteps(s, max + 1));
      const farPast = await withEmptySteps(s, 5_000);
      const details = errorDetails(farPast);
      assert(
        JSON.stringify(details) === JSON.stringify(onePast),
        `5,000 empty steps named ${details.length} details, not the ${onePast.length} of ${max + 1} steps`,
        farPast,
      );
    },
  },
  {
    operationId: 'createProduct',
    rule: 'a body wrong in more places than x-max-error-details is named for the first of them (info)',
    needs: ['details'],
    async run(s) {
      const max = maxErrorDetails(s.contract);
      assert(max !== undefined, 'the contract states no x-max-error-details in info');
      const create = s.operation('createProduct');
      const { body } = await s.validRequest(create);
      const unknown = Object.fromEntries(Array.from({ length: max + 50 }, (_, index) => [`unknown${index}`, 1]));
      const call = { headers: await s.authHeaders(create), body: { ...(body as JsonObject), ...unknown } };
      const refused = await expectResponse(s, create, 'unknown fields', call, { status: 400 });
      const paths = errorDetails(refused).map((detail) => detail.path);
      const first = Object.keys(unknown).slice(0, max);
      assert(
        JSON.stringify(paths) === JSON.stringify(first),
        `expected the first ${max} unknown fields named in order, got ${paths.length}: ${paths.slice(0, 3).join(', ')}…`,
        refused,
      );
    },
  },
];
