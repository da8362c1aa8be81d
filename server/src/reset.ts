// npm run reset [-- --yes]: deletes the embedded store in DATA_DIR (every store, key and record), so the next
// `npm start` begins like the first one, with a new demo store and key. The admin token file stays. Asks first
// on a terminal; elsewhere it needs --yes. Refuses while a server has the store open. Exit 0 when done or nothing
// was there, 1 when not confirmed, refused or on a configuration problem, 2 on a usage error.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { DEMO_API_KEY_FILE, resetCommand } from './data-dir.ts';
import { SQLITE_FILE } from './db/database.ts';
import { storeInUse } from './db/sqlite-in-use.ts';

/**
 * The store file and SQLite's companions (write-ahead log, shared memory, rollback journal), and the demo store's
 * key, which names a key of that store.
 */
const STORE_FILES = [
  SQLITE_FILE,
  `${SQLITE_FILE}-wal`,
  `${SQLITE_FILE}-shm`,
  `${SQLITE_FILE}-journal`,
  DEMO_API_KEY_FILE,
];

async function confirmed(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

async function main(): Promise<number> {
  let yes: boolean;
  try {
    yes = parseArgs({ options: { yes: { type: 'boolean', short: 'y' } } }).values.yes === true;
  } catch (error) {
    process.stderr.write(`reset: ${(error as Error).message}; usage: npm run reset [-- --yes]\n`);
    return 2;
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new ConfigError(
      'reset clears the embedded store only, and DATABASE_URL is set: drop the PostgreSQL schema or database yourself',
    );
  }
  const present = STORE_FILES.map((name) => path.join(config.dataDir, name)).filter((file) => existsSync(file));
  if (present.length === 0) {
    process.stdout.write(`Nothing to reset: no embedded store in ${config.dataDir}.\n`);
    return 0;
  }
  // A server still running would go on answering, and acknowledging writes, into files no longer there.
  if (storeInUse(path.join(config.dataDir, SQLITE_FILE))) {
    process.stderr.write(
      `The embedded store in ${config.dataDir} is open in another process (a server still running?): stop it, then run \`${resetCommand(config.dataDir)}\` again. Nothing deleted.\n`,
    );
    return 1;
  }
  const question = `Delete the embedded store in ${config.dataDir} (every store, key and record)? [y/N] `;
  if (!yes) {
    if (!process.stdin.isTTY) {
      process.stderr.write(
        `Not confirmed: run \`${resetCommand(config.dataDir)} -- --yes\` to delete the embedded store in ${config.dataDir}.\n`,
      );
      return 1;
    }
    if (!(await confirmed(question))) {
      process.stdout.write('Nothing deleted.\n');
      return 1;
    }
  }
  for (const file of present) rmSync(file, { force: true });
  process.stdout.write(
    `Deleted the embedded store in ${config.dataDir}. The next \`npm start\` creates a new demo store and key; the admin token is unchanged.\n`,
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
