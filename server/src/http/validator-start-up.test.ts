// The validator's start-up steps this server skips or does another way give the same answers for this contract.
import { describe, expect, it } from 'vitest';
import { ContractDocument, isObject, type Json } from '../../../lib/contract.ts';
import { loadContract } from '../contract.ts';
import { requireFromValidator } from './validator-internals.ts';
import { trimValidatorStartUp } from './validator-start-up.ts';

const { OpenAPISchemaValidator } = requireFromValidator('./framework/openapi.schema.validator') as {
  OpenAPISchemaValidator: new (options: object) => { validate(doc: unknown): { errors: unknown[] } };
};
const { createRequestAjv } = requireFromValidator('./framework/ajv/index') as {
  createRequestAjv(doc: unknown, options: object): { getSchema(ref: string): { schema: unknown } | undefined };
};
const RefParser = requireFromValidator('@apidevtools/json-schema-ref-parser') as {
  bundle(doc: unknown): Promise<unknown>;
};
const { SchemaPreprocessor } = requireFromValidator('./middlewares/parsers/schema.preprocessor') as {
  SchemaPreprocessor: new (
    doc: unknown,
    ajvOptions: object,
    responses: unknown,
  ) => {
    resolveSchema(schema: unknown): unknown;
  };
};

/** The Ajv options the validator gives its preprocessor (framework/ajv/options.js › baseOptions), as it runs here. */
const PREPROCESSOR_AJV = {
  strict: false,
  validateSchema: false,
  useDefaults: true,
  validateFormats: true,
  formats: {},
};

/** Every `$ref` in the document. */
function referencesIn(node: Json | undefined, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) referencesIn(item, found);
  else if (isObject(node)) {
    if (typeof node.$ref === 'string') found.add(node.$ref);
    for (const value of Object.values(node)) referencesIn(value, found);
  }
  return found;
}

describe('the validator started without its idle steps', () => {
  it('the contract passes the validator’s own check of an OpenAPI document, which the server no longer runs', () => {
    const { errors } = new OpenAPISchemaValidator({ version: '3.1.0', validateApiSpec: true }).validate(
      structuredClone(loadContract()),
    );
    expect(errors).toEqual([]);
  });

  it('bundling the contract’s references changes nothing, so it is taken as it is', async () => {
    const contract = structuredClone(loadContract());
    expect(await RefParser.bundle(structuredClone(contract))).toEqual(contract);
    expect([...referencesIn(contract)].filter((ref) => !ref.startsWith('#/'))).toEqual([]);
  });

  it('each reference resolves by JSON pointer to the object the validator’s compiled look-up gave', () => {
    trimValidatorStartUp();
    const contract = structuredClone(loadContract());
    const document = new ContractDocument(contract);
    const ajv = createRequestAjv(contract, PREPROCESSOR_AJV);
    const preprocessor = new SchemaPreprocessor(contract, PREPROCESSOR_AJV, false);
    const references = [...referencesIn(contract)];
    expect(references.length).toBeGreaterThan(100);
    for (const ref of references) {
      // The validator's way: the schema Ajv compiled under that key, else the value at the reference's path.
      const compiled = ajv.getSchema(ref)?.schema ?? document.pointer(ref);
      expect(preprocessor.resolveSchema({ $ref: ref }), ref).toBe(compiled);
      expect(compiled, ref).toBeDefined();
    }
  });
});
