import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, DEFAULT_DATA_DIR } from './config.ts';
import { shellQuote } from './shell-quote.ts';

/** Where the demo store's key is kept, in DATA_DIR, readable by its owner only; `npm run reset` deletes it. */
export const DEMO_API_KEY_FILE = 'demo-api-key';

/** `npm run reset` for the store in `dataDir`: it names DATA_DIR unless it is the default, which reset finds alone. */
export function resetCommand(dataDir: string): string {
  return dataDir === path.resolve(DEFAULT_DATA_DIR) ? 'npm run reset' : `DATA_DIR=${shellQuote(dataDir)} npm run reset`;
}

/**
 * Makes DATA_DIR exist and proves it writable, or throws a ConfigError naming DATA_DIR. The directories are
 * made one level at a time: `mkdirSync(..., { recursive: true })` loops forever under /proc instead of failing.
 */
export function ensureDataDir(dataDir: string): void {
  try {
    const missing: string[] = [];
    for (let dir = dataDir; !existsSync(dir); dir = path.dirname(dir)) {
      missing.unshift(dir);
      if (path.dirname(dir) === dir) break;
    }
    for (const dir of missing) mkdirSync(dir);
    const probe = path.join(dataDir, `.write-probe-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    throw dataDirError(dataDir, error);
  }
}

/** The ConfigError for a DATA_DIR the server cannot use (the code says why: ENOENT, EACCES, EROFS...). */
export function dataDirError(dataDir: string, error: unknown): ConfigError {
  const code = (error as { code?: unknown }).code;
  const reason = typeof code === 'string' ? code : (error as Error).message;
  return new ConfigError(
    `DATA_DIR=${dataDir} is not a writable directory (${reason}): point DATA_DIR at one this user can write, or leave it unset for ./.data`,
  );
}
