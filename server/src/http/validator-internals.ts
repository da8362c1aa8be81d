import { createRequire } from 'node:module';

/**
 * `require` as express-openapi-validator's entry file has it: its internal modules by relative path, and the
 * packages it depends on. The steps that replace parts of it (operation-lookup.ts, parameter-mutation.ts,
 * validator-start-up.ts) patch those modules; package.json pins the validator's exact version, whose layout they
 * were written against.
 */
export const requireFromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
