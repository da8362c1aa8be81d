// contract:diff as CI runs it: fixture pairs prove which changes fail without a new major.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACT_SPEC, ROOT, runNode } from '../test-helpers/run.ts';
import { compareContracts, majorOf } from './compare-contracts.ts';

const CLI = path.join(ROOT, 'scripts/contract-diff/contract-diff.ts');
const fixture = (name: string) => path.join(ROOT, 'scripts/contract-diff/fixtures', name);

/** A copy of a fixture with another info.version. */
function withVersion(name: string, version: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'contract-diff-')), name);
  writeFileSync(file, readFileSync(fixture(name), 'utf8').replace(/^ {2}version: .*$/m, `  version: ${version}`));
  return file;
}

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
}

describe('contract:diff', () => {
  it('fails a removed response field released as a minor, naming the field and the version to set', () => {
    const result = runNode([CLI, '--before', fixture('base.yaml'), '--after', fixture('removed-response-field.yaml')]);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^BREAKING \(\d+\):$/m);
    expect(result.stdout).toContain('GET /products/{productId}: [Removed] property `name` in Response 200');
    expect(result.stdout).toContain("FAIL: 2 breaking changes but info.version's major did not move (1.0.0 → 1.1.0)");
    expect(result.stdout).toContain('set info.version to 2.0.0');
  });

  it('passes the same removal released as a new major, still listing it as breaking', () => {
    const result = runNode([
      CLI,
      '--before',
      fixture('base.yaml'),
      '--after',
      withVersion('removed-response-field.yaml', '2.0.0'),
    ]);
    expect(result.status, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/^BREAKING \(\d+\):$/m);
    expect(result.stdout).toContain('OK: info.version agrees with the changes.');
  });

  it('classifies a response header made required as compatible, and made optional as breaking', () => {
    // biome-ignore lint/suspicious/noExplicitAny: a YAML tree poked at by path
    const withHeader = (required: boolean): any => {
      const doc = parse(readFileSync(fixture('base.yaml'), 'utf8'));
      doc.paths['/products/{productId}'].get.responses['200'].headers = {
        'X-Request-Id': { required, schema: { type: 'string' } },
      };
      return doc;
    };
    const kinds = (before: boolean, after: boolean) =>
      compareContracts(withHeader(before), withHeader(after)).changes.map(({ kind, where }) => ({ kind, where }));
    expect(kinds(false, true)).toEqual([{ kind: 'non-breaking', where: 'GET /products/{productId}' }]);
    expect(kinds(true, false)).toEqual([{ kind: 'breaking', where: 'GET /products/{productId}' }]);
  });

  it('classifies a shared response reworded as an annotation, and a required property named description removed as breaking', () => {
    // biome-ignore lint/suspicious/noExplicitAny: a YAML tree poked at by path
    const withNotFound = (description: string, property: boolean): any => {
      const doc = parse(readFileSync(fixture('base.yaml'), 'utf8'));
      doc.components.responses = { NotFound: { description } };
      doc.paths['/products/{productId}'].get.responses['404'] = { $ref: '#/components/responses/NotFound' };
      if (property) {
        doc.components.schemas.Product.properties.description = { type: 'string' };
        doc.components.schemas.Product.required.push('description');
      }
      return doc;
    };
    const kinds = (before: ReturnType<typeof withNotFound>, after: ReturnType<typeof withNotFound>) =>
      [...new Set(compareContracts(before, after).changes.map(({ kind }) => kind))].sort();
    expect(
      kinds(withNotFound('Not in the store.', false), withNotFound('Not in the store, or nowhere.', false)),
    ).toEqual(['annotation']);
    expect(kinds(withNotFound('Not in the store.', true), withNotFound('Not in the store.', false))).toContain(
      'breaking',
    );
  });

  it('reads a default beside a $ref as a default added, and still sees the schema it names narrowed', () => {
    // A request body whose `status` names a schema of two values; `change` edits the parsed copy.
    // biome-ignore lint/suspicious/noExplicitAny: a YAML tree poked at by path
    const withStatus = (change: (doc: any) => void = () => {}): any => {
      const doc = parse(readFileSync(fixture('base.yaml'), 'utf8'));
      doc.components.schemas.Status = { type: 'string', enum: ['ACTIVE', 'DRAFT'] };
      doc.paths['/products/{productId}'].put = {
        operationId: 'updateProduct',
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { status: { $ref: '#/components/schemas/Status' } } },
            },
          },
        },
        responses: { '204': { description: 'Updated.' } },
      };
      change(doc);
      return doc;
    };
    const status = (doc: ReturnType<typeof withStatus>) =>
      doc.paths['/products/{productId}'].put.requestBody.content['application/json'].schema.properties.status;
    const kinds = (after: ReturnType<typeof withStatus>) =>
      [...new Set(compareContracts(withStatus(), after).changes.map(({ kind }) => kind))].sort();
    expect(kinds(withStatus((doc) => Object.assign(status(doc), { default: 'DRAFT' })))).toEqual(['non-breaking']);
    const narrowed = withStatus((doc) => {
      Object.assign(status(doc), { default: 'DRAFT' });
      doc.components.schemas.Status.enum = ['DRAFT'];
    });
    expect(kinds(narrowed)).toContain('breaking');
  });

  it('passes a compatible change (optional response field, new operation) with a minor bump', () => {
    const result = runNode([CLI, '--before', fixture('base.yaml'), '--after', fixture('compatible-change.yaml')]);
    expect(result.status, result.stdout).toBe(0);
    expect(result.stdout).not.toContain('BREAKING');
    expect(result.stdout).toContain('GET /products: [Added] operation GET /products');
    expect(result.stdout).toContain('GET /products/{productId}: [Added] property `sku` in Response 200');
  });

  it('fails a version that goes backwards, and one that is not semver', () => {
    const backwards = runNode([
      CLI,
      '--before',
      withVersion('base.yaml', '3.0.0'),
      '--after',
      fixture('compatible-change.yaml'),
    ]);
    expect(backwards.status).toBe(1);
    expect(backwards.stdout).toContain('FAIL: info.version went back from 3.0.0 to 1.1.0');
    const loose = runNode([
      CLI,
      '--before',
      fixture('base.yaml'),
      '--after',
      withVersion('compatible-change.yaml', 'v1.1'),
    ]);
    expect(loose.status).toBe(1);
    expect(loose.stdout).toContain('FAIL: info.version "v1.1" is not a semantic version');
  });

  it('--base reads the contract at a git ref and compares the working copy', () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'contract-diff-repo-'));
    const contract = path.join(repo, 'openapi.yaml');
    copyFileSync(fixture('base.yaml'), contract);
    git(repo, 'init', '--quiet');
    git(repo, 'add', 'openapi.yaml');
    git(repo, '-c', 'user.name=ci', '-c', 'user.email=ci@example.com', 'commit', '--quiet', '-m', 'base');
    copyFileSync(fixture('removed-response-field.yaml'), contract);

    const breaking = runNode([CLI, '--base', 'HEAD', '--after', contract]);
    expect(breaking.status, breaking.stderr).toBe(1);
    expect(breaking.stdout).toContain('Contract: openapi.yaml at HEAD (1.0.0) → ');

    const missing = runNode([CLI, '--base', 'HEAD~1', '--after', contract]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(
      'contract:diff: --base HEAD~1: no such commit in this clone (a shallow clone lacks history: `git fetch --deepen=1`, or fetch the ref)\n',
    );
  });

  it('rejects a call without a base, with exit 2 and the usage', () => {
    const result = runNode([CLI]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('give one of --base <git ref> or --before <file>');
  });

  it.each([
    ['1.0.0', 1],
    ['2.10.3-rc.1+build.5', 2],
    ['0.1.0', 0],
    ['1.0', undefined],
    ['v1.0.0', undefined],
    ['01.0.0', undefined],
  ])('majorOf(%s) is %s', (version, major) => {
    expect(majorOf(version)).toBe(major);
  });
});

describe('contract version and changelog', () => {
  const contract = parse(readFileSync(CONTRACT_SPEC, 'utf8')) as { info: { version: string } };
  const changelog = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');

  it("openapi.yaml's info.version is semver and is the newest release in CHANGELOG.md", () => {
    expect(majorOf(contract.info.version)).toBeDefined();
    const releases = [...changelog.matchAll(/^## \[(\d[^\]]*)\]/gm)].map((match) => match[1]);
    expect(releases[0]).toBe(contract.info.version);
  });
});
