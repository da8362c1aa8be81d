import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { placedErrors } from './ajv-errors.ts';
import { type ContractDocument, isObject, type Json } from './contract.ts';
import { contractAjv } from './contract-ajv.ts';
import { childPath, holdingPaths } from './dotted-paths.ts';
import { validationReason } from './validation-reasons.ts';

/** A detail of a refused request, as the server and the mock give it. */
interface Detail {
  location: string;
  path: string;
  reason: string;
}

/** A detail of the body this judgement gives (a type, not an interface: it fits a JSON object's index signature). */
type BodyDetail = { location: 'body'; path: string; reason: string };

/** A `oneOf` with a `discriminator` that a body holds: where, the branch its tag selects (none: an unknown tag). */
interface Choice {
  path: string;
  tag: string;
  branch: string | undefined;
  value: Json;
}

/** The discriminated `oneOf`s of `schema` that `value` holds, along its properties and items. */
function choicesOf(contract: ContractDocument, schema: Json | undefined, value: Json, path: string): Choice[] {
  const resolved = contract.deref(schema);
  if (!isObject(resolved)) return [];
  const { discriminator } = resolved;
  if (Array.isArray(resolved.oneOf) && isObject(discriminator) && typeof discriminator.propertyName === 'string') {
    if (!isObject(value)) return [];
    const tag = discriminator.propertyName;
    const branch = isObject(discriminator.mapping) ? discriminator.mapping[String(value[tag])] : undefined;
    return [{ path, tag, branch: typeof branch === 'string' ? branch : undefined, value }];
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => choicesOf(contract, resolved.items, item, childPath(path, String(index))));
  }
  if (!isObject(value) || !isObject(resolved.properties)) return [];
  const properties = resolved.properties;
  return Object.entries(value).flatMap(([name, item]) =>
    Object.hasOwn(properties, name) ? choicesOf(contract, properties[name], item, childPath(path, name)) : [],
  );
}

/**
 * Judges each discriminated `oneOf` of a refused body (an automation step) by the branch its tag selects alone, as
 * the `discriminator` says to read it: ajv tries every branch and reports the others' refusals too (a delay step's
 * `minutes` required for an action step). `details` at and under such a place are replaced by the selected branch's
 * own, where the first of them stood; an unknown tag is one detail naming it. Returns the details as they are
 * when the body holds no such `oneOf`.
 */
export function selectedBranches(contract: ContractDocument, ajvOf: () => Ajv2020 = () => contractAjv(contract)) {
  // Made (or taken from the caller, who may have one) at the first refusal that needs it: most processes never do.
  let ajv: Ajv2020 | undefined;
  const validators = new Map<string, ValidateFunction>();
  const branchErrors = (branch: string, value: Json) => {
    let validate = validators.get(branch);
    if (!validate) {
      ajv ??= ajvOf();
      validate = ajv.compile({ $ref: `contract${branch}` });
      validators.set(branch, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []);
  };
  const ownDetails = ({ path, tag, branch, value }: Choice): BodyDetail[] =>
    branch === undefined
      ? [
          {
            location: 'body',
            path: childPath(path, tag),
            reason: validationReason('discriminator', `value of tag "${tag}" must be in oneOf`),
          },
        ]
      : placedErrors(branchErrors(branch, value)).map((placed) => ({
          location: 'body',
          path: placed.path === '' ? path : childPath(path, placed.path),
          reason: validationReason(placed.keyword, placed.error.message),
        }));
  return <Given extends Detail>(bodySchema: Json | undefined, body: unknown, details: Given[]) => {
    const choices = new Map(choicesOf(contract, bodySchema, body as Json, '').map((choice) => [choice.path, choice]));
    if (choices.size === 0) return details;
    // The outermost choice a detail lies in, found by its path's prefixes: linear in the details, however many
    // steps a body holds.
    const choiceOf = (detail: Detail): Choice | undefined => {
      if (detail.location !== 'body') return undefined;
      for (const holding of holdingPaths(detail.path)) {
        const choice = choices.get(holding);
        if (choice) return choice;
      }
      return undefined;
    };
    const judged = new Set<Choice>();
    return details.flatMap((detail): (Given | BodyDetail)[] => {
      const choice = choiceOf(detail);
      if (!choice) return [detail];
      if (judged.has(choice)) return [];
      judged.add(choice);
      return ownDetails(choice);
    });
  };
}
