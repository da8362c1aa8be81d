import type { Request } from 'express';
import { requireFromValidator } from './validator-internals.ts';

/** What express-openapi-validator's mutator reads of a parameter (dist/middlewares/parsers/req.parameter.mutator.js). */
interface Parameter {
  $ref?: string;
  in?: string;
  content?: unknown;
  schema?: { type?: unknown; $ref?: string };
}
interface MutatorClass {
  prototype: {
    modifyRequest(req: Request): void;
    _apiDocs: { components?: { parameters?: Record<string, Parameter> } };
  };
}

/**
 * Whether a request to this operation is left as it is by the mutator when its URL has no query string: the
 * mutator only reshapes query values (absent), and path or header values that are arrays, objects or `content`.
 */
function unchangedWithoutQuery(parameters: Parameter[], components: Record<string, Parameter>): boolean {
  return parameters.every((reference) => {
    const parameter = reference.$ref ? components[reference.$ref.split('/').pop() ?? ''] : reference;
    if (!parameter || parameter.content !== undefined) return false;
    if (parameter.in === 'query') return parameter.schema?.type !== 'object' && parameter.schema?.$ref === undefined;
    const type = parameter.schema?.type;
    return type === 'string' || type === 'integer' || type === 'number' || type === 'boolean';
  });
}

/**
 * express-openapi-validator builds a parameter mutator for every request and starts it by parsing the whole URL
 * with the legacy `url.parse`, then walks the operation's parameters (about a twentieth of a product GET's CPU).
 * For a URL without a query string and an operation whose other parameters are plain scalars that walk changes
 * nothing, so it is skipped; every other request goes through the validator's own mutator. What is decided per
 * operation is remembered by its schema. Call once, before the validator handles requests.
 */
export function skipIdleParameterMutation(): void {
  const { RequestParameterMutator } = requireFromValidator('./middlewares/parsers/req.parameter.mutator') as {
    RequestParameterMutator: MutatorClass;
  };
  const prototype = RequestParameterMutator.prototype as MutatorClass['prototype'] & { skipsIdle?: true };
  if (prototype.skipsIdle) return;
  prototype.skipsIdle = true;
  const modifyRequest = prototype.modifyRequest;
  const decided = new WeakMap<object, boolean>();
  prototype.modifyRequest = function modifyUnlessIdle(this: MutatorClass['prototype'], req: Request) {
    const schema = (req as Request & { openapi: { schema: { parameters?: Parameter[] } } }).openapi.schema;
    let idle = decided.get(schema);
    if (idle === undefined) {
      idle = unchangedWithoutQuery(schema.parameters ?? [], this._apiDocs.components?.parameters ?? {});
      decided.set(schema, idle);
    }
    if (idle && !req.originalUrl.includes('?')) return;
    modifyRequest.call(this, req);
  };
}
