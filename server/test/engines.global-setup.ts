// Which storage engines the server tests run on, decided once per `vitest run`: both, unless PostgreSQL is not
// there. On a workstation that says so in one line and runs the SQLite half; in CI (CI set) it is an error.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { Engine } from '../src/db/database.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Engines the server tests run on (SERVER_TEST_ENGINES, minus PostgreSQL when unreachable off CI). */
    serverTestEngines: Engine[];
  }
}

/** Why PostgreSQL cannot be used, or undefined when it can. */
async function unreachable(connectionString: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return ((error as Error).message || String(error)).split('\n')[0];
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Host, port and database of the URL, never its password. */
function where(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'TEST_DATABASE_URL';
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const requested = (process.env.SERVER_TEST_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
  let engines = requested;
  if (requested.includes('postgres')) {
    const reason = await unreachable(TEST_DATABASE_URL);
    if (reason !== undefined) {
      const problem = `PostgreSQL at ${where(TEST_DATABASE_URL)} is unreachable (${reason})`;
      if (process.env.CI) {
        throw new Error(`${problem}: CI runs the server tests on PostgreSQL too; start it or set TEST_DATABASE_URL`);
      }
      process.stderr.write(
        `${problem}: running the server tests on SQLite only (set TEST_DATABASE_URL=postgres://... to include PostgreSQL)\n`,
      );
      engines = requested.filter((engine) => engine !== 'postgres');
    }
  }
  project.provide('serverTestEngines', engines);
}
