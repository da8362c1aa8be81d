import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AdminToken, banner, resolveAdminToken } from '../src/bootstrap.ts';
import { ConfigError } from '../src/config.ts';

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'kit-bootstrap-'));

describe('resolveAdminToken', () => {
  it('generates the token into DATA_DIR/admin-token (0600) once, then reads it back', () => {
    const dataDir = path.join(freshDir(), 'nested', 'data');
    const created = resolveAdminToken(undefined, dataDir);
    const file = path.join(dataDir, 'admin-token');
    expect(created).toEqual({ value: expect.stringMatching(/^sf_admin_[A-Za-z0-9_-]{43}$/), source: 'created', file });
    expect(readFileSync(file, 'utf8')).toBe(`${created.value}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveAdminToken(undefined, dataDir)).toEqual({ value: created.value, source: 'file', file });
  });

  it('takes ADMIN_TOKEN as it is and writes no file', () => {
    const dataDir = freshDir();
    expect(resolveAdminToken('a'.repeat(16), dataDir)).toEqual({ value: 'a'.repeat(16), source: 'env' });
    expect(existsSync(path.join(dataDir, 'admin-token'))).toBe(false);
  });

  it('makes a token file others could read private again', () => {
    const dataDir = freshDir();
    const file = path.join(dataDir, 'admin-token');
    writeFileSync(file, 'sf_admin_kept-by-hand-0123456789\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    expect(resolveAdminToken(undefined, dataDir).value).toBe('sf_admin_kept-by-hand-0123456789');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses an emptied token file, naming it and the way out', () => {
    const dataDir = freshDir();
    writeFileSync(path.join(dataDir, 'admin-token'), '\n', { mode: 0o600 });
    expect(() => resolveAdminToken(undefined, dataDir)).toThrow(
      new ConfigError(
        `${path.join(dataDir, 'admin-token')} holds no admin token (fewer than 16 characters): delete it to have a new one generated, or set ADMIN_TOKEN`,
      ),
    );
  });
});

describe('banner', () => {
  const fromFile = (file: string): AdminToken => ({ value: 'sf_admin_secret-never-shown-again', source: 'file', file });

  it('PostgreSQL on every interface, ADMIN_TOKEN from the environment, no store yet', () => {
    const text = banner({
      address: { address: '0.0.0.0', family: 'IPv4', port: 3000 },
      adminToken: { value: 'env-token-0123456789', source: 'env' },
      engine: 'postgres',
      demo: undefined,
      storeId: undefined,
      dataDir: path.resolve('.data'),
    });
    expect(text).toBe(
      [
        'Storefront reference server listening on http://0.0.0.0:3000 (every interface: reachable from the network; from here http://127.0.0.1:3000)',
        '',
        'Admin token: the ADMIN_TOKEN you set (export it in the shell you run the commands below from).',
        '',
        'No store yet. Create one, then mint an API key for it (data.store.id of the first answer):',
        `  curl -s -X POST http://127.0.0.1:3000/admin/stores -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d '{"name":"Minha Loja"}'`,
        `  curl -s -X POST http://127.0.0.1:3000/admin/api-keys -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d '{"storeIds":["<store id>"]}'`,
        '',
        'Reset: `npm run reset` clears the embedded store only; on PostgreSQL drop the schema or database yourself.',
        '',
      ].join('\n'),
    );
  });

  it('an IPv6 address in brackets, and a token file that is read, not printed', () => {
    const text = banner({
      address: { address: '::1', family: 'IPv6', port: 8080 },
      adminToken: fromFile('/srv/data/admin-token'),
      engine: 'sqlite',
      demo: undefined,
      storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      dataDir: '/srv/data',
    });
    expect(text).toContain('listening on http://[::1]:8080\n');
    // Not the default DATA_DIR: the reset command names it, or it would reset ./.data instead.
    expect(text).toContain(
      "Reset the sandbox (every store, key and record; the admin token stays): stop the server, then `DATA_DIR='/srv/data' npm run reset`\n",
    );
    expect(text).toContain('Admin token: kept in /srv/data/admin-token\n');
    expect(text).toContain(
      `curl -s -X POST http://[::1]:8080/admin/api-keys -H "Authorization: Bearer $(cat '/srv/data/admin-token')"`,
    );
    expect(text).not.toContain('sf_admin_secret-never-shown-again');
  });

  it("quotes the token file's path so the shell reads it whatever its characters", () => {
    const dir = path.join(freshDir(), `it's $HOME "here"`);
    mkdirSync(dir);
    const file = path.join(dir, 'admin-token');
    writeFileSync(file, 'sf_admin_from-an-odd-path-0123\n');
    const text = banner({
      address: { address: '127.0.0.1', family: 'IPv4', port: 3000 },
      adminToken: fromFile(file),
      engine: 'sqlite',
      demo: undefined,
      storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      dataDir: path.resolve('.data'),
    });
    expect(text).toContain('stop the server, then `npm run reset`\n');
    const substitution = /Bearer (\$\(cat .*\))"/.exec(text)?.[1] as string;
    const shell = spawnSync('sh', ['-c', `printf %s "${substitution}"`], { encoding: 'utf8' });
    expect(shell.stdout).toBe('sf_admin_from-an-odd-path-0123');
  });
});
