import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { childLocation, engines } from '../../test/harness.ts';
import { openStore, type Store } from './database.ts';
import { migrate } from './migrate.ts';

describe.runIf(engines.includes('sqlite'))('committedVersion on the embedded store', () => {
  // Removed after the suite by childLocation.
  const { location } = childLocation('sqlite');
  let store: Store;
  let other: Store;

  beforeAll(async () => {
    store = openStore(location);
    await migrate(store, location.databaseSchema);
    await sql`CREATE TABLE version_probe (n integer)`.execute(store.db);
    other = openStore(location);
  });
  afterAll(async () => {
    await other.close();
    await store.close();
  });

  const version = () => (store.committedVersion as () => string)();
  const probe = (on: Store) => sql`INSERT INTO version_probe (n) VALUES (1)`.execute(on.db);

  test('holds while only reads run, and moves with each commit: another connection’s (the write thread’s, another process’s) and the reading connection’s own', async () => {
    const before = version();
    await sql`SELECT count(*) FROM version_probe`.execute(store.reads ?? store.db);
    expect(version()).toBe(before);

    await probe(other);
    const afterOther = version();
    expect(afterOther).not.toBe(before);
    expect(version()).toBe(afterOther);

    await probe(store);
    const afterOwn = version();
    expect(afterOwn).not.toBe(afterOther);
    expect(version()).toBe(afterOwn);
  });
});
