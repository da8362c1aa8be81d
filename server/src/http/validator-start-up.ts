import { ContractDocument, isObject, type JsonObject } from '../../../lib/contract.ts';
import { requireFromValidator } from './validator-internals.ts';

/** What this step replaces of express-openapi-validator's start-up (framework/index.js, schema.preprocessor.js). */
interface FrameworkClass {
  prototype: { loadSpec(doc: unknown, refParser?: { mode?: string }): Promise<unknown> };
}
interface SchemaValidatorClass {
  new (options: object): { validate(doc: unknown): { errors: unknown[] } };
}
interface PreprocessorClass {
  prototype: { apiDoc: JsonObject; resolvedSchemaCache: Map<string, unknown>; resolveSchema(schema: unknown): unknown };
}

/** Whether every `$ref` in the document points inside it (`#/...`): then bundling it would change nothing. */
function onlyLocalReferences(doc: unknown): boolean {
  const pending: unknown[] = [doc];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (Array.isArray(node)) pending.push(...node);
    else if (isObject(node)) {
      const ref = node.$ref;
      if (typeof ref === 'string' && !ref.startsWith('#')) return false;
      pending.push(...Object.values(node));
    }
  }
  return true;
}

/**
 * express-openapi-validator spent about 0.8 s of a server's start (measured: 2.1 → 1.3 s to the first answer) on
 * three steps that do nothing for this server: it compiles the OpenAPI schema of OpenAPI documents even when told
 * not to check the document with it (`validateApiSpec: false`; `npm test` checks the contract); it bundles the
 * document's references with json-schema-ref-parser (a walk of the whole document that rewrites each local `$ref`
 * to itself); and its schema preprocessor finds the schema behind each `$ref` of a request body or response by
 * compiling it with an Ajv instance it then throws away. This compiles the OpenAPI schema when a document is
 * checked, takes the document as it is when every reference is local, and finds a referenced schema by its JSON
 * pointer: the same objects either way (`validator-start-up.test.ts` compares them with the validator's own
 * answers). Any other document, or reference, goes the validator's own way. Call once, before the validator is
 * created.
 */
export function trimValidatorStartUp(): void {
  const { OpenAPIFramework } = requireFromValidator('./framework/index') as { OpenAPIFramework: FrameworkClass };
  const { SchemaPreprocessor } = requireFromValidator('./middlewares/parsers/schema.preprocessor') as {
    SchemaPreprocessor: PreprocessorClass;
  };
  const schemaValidatorModule = requireFromValidator('./framework/openapi.schema.validator') as {
    OpenAPISchemaValidator: SchemaValidatorClass;
  };
  const framework = OpenAPIFramework.prototype as FrameworkClass['prototype'] & { trimmed?: true };
  if (framework.trimmed) return;
  framework.trimmed = true;
  const Compiled = schemaValidatorModule.OpenAPISchemaValidator;
  schemaValidatorModule.OpenAPISchemaValidator = class CompiledWhenUsed {
    readonly #options: object;
    #compiled: InstanceType<SchemaValidatorClass> | undefined;
    constructor(options: object) {
      this.#options = options;
    }
    validate(doc: unknown) {
      this.#compiled ??= new Compiled(this.#options);
      return this.#compiled.validate(doc);
    }
  };
  const loadSpec = framework.loadSpec;
  framework.loadSpec = function loadLocalSpecAsItIs(this: unknown, doc, refParser) {
    if (isObject(doc) && refParser?.mode !== 'dereference' && onlyLocalReferences(doc)) return Promise.resolve(doc);
    return loadSpec.call(this, doc, refParser);
  };
  const preprocessor = SchemaPreprocessor.prototype;
  const resolveSchema = preprocessor.resolveSchema;
  preprocessor.resolveSchema = function resolveByPointer(this: PreprocessorClass['prototype'], schema) {
    const ref = isObject(schema) ? schema.$ref : undefined;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return resolveSchema.call(this, schema);
    if (!this.resolvedSchemaCache.has(ref)) {
      this.resolvedSchemaCache.set(ref, new ContractDocument(this.apiDoc).pointer(ref));
    }
    return this.resolvedSchemaCache.get(ref);
  };
}
