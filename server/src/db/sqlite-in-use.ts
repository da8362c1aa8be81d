import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { isSqliteBusy } from './retry-when-busy.ts';

/**
 * Whether another connection has the embedded store at `file` open, as a running server does for as long as it
 * runs: in WAL mode each of its connections holds a shared lock on the file, so an exclusive lock asked for without
 * waiting is refused. No data changes (a log a killed process left is folded into the file, as the next start
 * would), and the lock ends with the connection; a process killed with its store open leaves no lock behind. A file
 * that is not a SQLite database is not in use as a store.
 */
export function storeInUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const database = new DatabaseSync(file, { timeout: 0 });
  try {
    database.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT');
    return false;
  } catch (error) {
    return isSqliteBusy(error);
  } finally {
    database.close();
  }
}
