import createClient, { type Client } from 'openapi-fetch';
import { test as base, describe } from 'vitest';
import type { components, paths } from '../../generated/openapi.ts';
import { type Engine, openStore } from '../src/db/database.ts';
import { createRepositories } from '../src/resources/index.ts';
import { adminHeaders, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

export type { Tenant, TestServer };
export { engines };

type ServerEnv = Record<string, string>;

/** An operation whose `X-Store-Id` header the client sends by default (the tenant's store). */
type StoreHeaderSent<Op> = Op extends { parameters: { header: infer Header } }
  ? Omit<Op, 'parameters'> & {
      parameters: Omit<Op['parameters'], 'header'> & { header?: Omit<Header, 'X-Store-Id'> };
    }
  : Op;
/** The contract's paths as a tenant's client calls them. */
type TenantPaths = {
  [Path in keyof paths]: { [Item in keyof paths[Path]]: StoreHeaderSent<paths[Path][Item]> };
};

/** A typed client of the contract acting as one tenant (its key and store). */
export type Api = Client<TenantPaths>;
export type ErrorBody = components['schemas']['ErrorResponse'];
export type AdminApi = Client<paths>;
type ScopeName = components['schemas']['ScopeName'];

export const clientOf = (server: TestServer, tenant: Tenant): Api =>
  createClient<TenantPaths>({ baseUrl: server.baseUrl, headers: tenant.headers });

/**
 * A request body the contract refuses, sent on purpose (validation tests): the typed client would not let it
 * through otherwise.
 */
export const malformed = (body: object): never => body as never;

/**
 * A request body that leaves out fields the contract gives a default: the validator fills them in, so the
 * generated types (written for the handlers' side) list them as required.
 */
export const withoutDefaults = <Body>(body: Partial<Body>): Body => body as Body;

/**
 * The server tests' context: a started app per engine (one per test file and engine, started on first use), a
 * fresh tenant per test, and typed clients: `api` as the tenant, `otherStore` as another tenant (`otherTenant`), `withScopes(...)`
 * for a key with only some scopes, `admin` with the admin token.
 */
export const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this destructuring
  .extend('servers', { scope: 'file' }, async ({}, { onCleanup }) => {
    const started = new Map<string, Promise<TestServer>>();
    onCleanup(async () => {
      for (const server of started.values()) await (await server).close();
    });
    return (engine: Engine, env: ServerEnv): Promise<TestServer> => {
      const key = JSON.stringify([engine, env]);
      const server = started.get(key) ?? startServer({ engine, env });
      started.set(key, server);
      return server;
    };
  })
  .extend('engine', engines[0] ?? 'sqlite')
  /** The environment the server starts with beyond the tests' own (see `describeEngines`). */
  .extend('serverEnv', {} as ServerEnv)
  .extend('server', async ({ servers, engine, serverEnv }) => servers(engine, serverEnv))
  .extend('tenant', async ({ server }) => createTenant(server))
  .extend('api', async ({ server, tenant }) => clientOf(server, tenant))
  .extend('otherTenant', async ({ server }) => createTenant(server))
  .extend('otherStore', async ({ server, otherTenant }) => clientOf(server, otherTenant))
  /** Another new tenant (a store and a key to it), its key with only the given scopes when given. */
  .extend(
    'newTenant',
    async ({ server }) =>
      (scopes?: ScopeName[]) =>
        createTenant(server, scopes),
  )
  /** A client of another new tenant whose key has only the given scopes. */
  .extend(
    'withScopes',
    async ({ server, newTenant }) =>
      async (scopes: ScopeName[]) =>
        clientOf(server, await newTenant(scopes)),
  )
  /** A client sending exactly the given headers (credentials, store id) on every request. */
  .extend(
    'clientWith',
    async ({ server }) =>
      (headers: Record<string, string>): Api =>
        createClient<TenantPaths>({ baseUrl: server.baseUrl, headers }),
  )
  .extend('admin', async ({ server }) =>
    createClient<paths>({ baseUrl: server.baseUrl, headers: adminHeaders(server) }),
  )
  /** The repositories on a second connection to the server's data, to read what the server wrote. */
  .extend('stored', async ({ server }, { onCleanup }) => {
    const store = openStore(server.location);
    onCleanup(() => store.close());
    return createRepositories(store.db, store.engine);
  });

/**
 * Runs the suite once per engine under test (SERVER_TEST_ENGINES), each on its own server; `env` is added to that
 * server's environment (a retry schedule, a faster automation minute, ...).
 */
export function describeEngines(title: string, suite: () => void, options: { env?: ServerEnv } = {}): void {
  describe.each(engines)(`${title} on %s`, (engine) => {
    test.override('engine', engine);
    if (options.env) test.override('serverEnv', options.env);
    suite();
  });
}
