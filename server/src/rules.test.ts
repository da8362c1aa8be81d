// Every rule the server checks is stated in the contract: the id given to ruleViolation('<id>', ...) appears as an
// `x-rule` (or in an `x-rules` list) on the schema that states it or on the Rule… example of the operation whose
// description states it. Found by that marker wherever the checks live under server/src.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allScopes, loadContract } from './contract.ts';

const contract = loadContract();
const SRC = import.meta.dirname;
const sources = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => ({ file, text: readFileSync(path.join(SRC, file), 'utf8') }));

/** The rule ids the server checks, with the files that check them. */
function serverRules(): Map<string, string[]> {
  const rules = new Map<string, string[]>();
  for (const { file, text } of sources) {
    for (const [, id] of text.matchAll(/ruleViolation\(\s*'([^']+)'/g)) {
      if (id) rules.set(id, [...(rules.get(id) ?? []), file]);
    }
  }
  return rules;
}

/** Every `x-rule` / `x-rules` of the contract, by where it sits (`schema` or `example`). */
function contractRules(): { schema: Set<string>; example: Set<string> } {
  const found = { schema: new Set<string>(), example: new Set<string>() };
  const walk = (node: unknown, where: 'schema' | 'example') => {
    if (Array.isArray(node)) for (const item of node) walk(item, where);
    if (node === null || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    const ids = [object['x-rule'], ...(Array.isArray(object['x-rules']) ? object['x-rules'] : [])];
    for (const id of ids) if (typeof id === 'string') found[where].add(id);
    for (const value of Object.values(object)) walk(value, where);
  };
  const { examples, ...rest } = (contract as unknown as { components: Record<string, unknown> }).components;
  walk(examples, 'example');
  walk(rest, 'schema');
  walk((contract as unknown as { paths: unknown }).paths, 'schema');
  return found;
}

describe('rules: the server checks none the contract does not state', () => {
  const server = serverRules();
  const stated = contractRules();

  it('finds the rule checks by their marker', () => {
    expect(server.size).toBeGreaterThan(20);
    // A rule id that is not a literal could not be checked against the contract.
    const computed = sources.filter(({ text }) => /ruleViolation\(\s*[^'\s]/.test(text)).map(({ file }) => file);
    expect(computed).toEqual([]);
  });

  it('states every rule id the server checks', () => {
    const missing = [...server.keys()].filter((id) => !stated.schema.has(id) && !stated.example.has(id));
    expect(missing.map((id) => `${id} (${server.get(id)?.join(', ')})`)).toEqual([]);
  });

  it('has no Rule… example for a rule the server does not check', () => {
    expect([...stated.example].filter((id) => !server.has(id))).toEqual([]);
  });

  it('raises 400 VALIDATION_ERROR outside http/ only through a rule', () => {
    const direct = sources
      .filter(({ file }) => !file.startsWith('http') && !['errors.ts', 'rules.ts'].includes(file))
      .filter(({ text }) => /validationError\(|'VALIDATION_ERROR'|ApiError\(\s*400/.test(text))
      .map(({ file }) => file);
    expect(direct).toEqual([]);
  });

  it('lists in ScopeName exactly the scopes the operations require (createApiKey refuses others by schema)', () => {
    const scopeName = (contract as unknown as { components: { schemas: { ScopeName: { enum: string[] } } } }).components
      .schemas.ScopeName;
    expect([...scopeName.enum].sort()).toEqual(allScopes);
  });
});
