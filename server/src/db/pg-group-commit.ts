import type { Kysely } from 'kysely';
import pg from 'pg';
import type { RunInTransaction, Work } from './in-transaction.ts';
import { asWrite, failedWrite } from './pg-failed-write.ts';

/** Writes one transaction takes at most: enough for every connection of a loaded server, a bound on the rest. */
const LARGEST_GROUP = 64;

interface Member<DB> {
  work: Work<DB, unknown>;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * A process's writes to PostgreSQL, committed in groups. At most `inFlight` transactions run at once; a write
 * that arrives while they all run waits, and the writes waiting when one of them ends run together in the next
 * transaction, one after another in the order they arrived (each sees what the ones before it wrote, as if it ran
 * right after them), and commit together. Under load one COMMIT then serves several writes: one flush of
 * PostgreSQL's WAL, one write to the connection and one answer for all of them. A write that finds a transaction
 * free waits only for the end of the event loop's turn: the writes of the requests read in that turn go together
 * (at 10 connections, half the groups were a lone write when each started at once), and a write alone runs alone,
 * as it would without groups.
 *
 * A group commits all or nothing. When one of its writes fails, or PostgreSQL refuses its COMMIT, none of it is
 * kept and its writes run again: the others together and the write that failed alone when it is known (its
 * statement's failure names it), else in smaller groups until it runs alone. Each succeeds or fails by itself, a
 * write never fails because another failed, and one failure costs its group one or a few more transactions, not
 * one for each of its writes. A COMMIT whose outcome is unknown (the connection lost before
 * PostgreSQL answered it) is not run again, as a write alone would not be: each write of the group gets its failure.
 */
export class GroupCommit<DB> {
  readonly #db: Kysely<DB>;
  readonly #inFlight: number;
  readonly #alone: RunInTransaction<DB>;
  #running = 0;
  /** Set while a start of groups waits for the end of the event loop's turn. */
  #starting = false;
  #waiting: Member<DB>[] = [];
  /**
   * The most writes a group takes: halved when a group fails (a failure runs the others again, handlers and all,
   * so where many writes fail smaller groups cost less), one more after a group that large commits (not a part of
   * a failed one, run again), up to `LARGEST_GROUP`.
   */
  #largest = LARGEST_GROUP;

  constructor(db: Kysely<DB>, inFlight: number, alone: RunInTransaction<DB>) {
    this.#db = db;
    this.#inFlight = inFlight;
    this.#alone = alone;
  }

  /** Runs `work` in the next transaction free, with the writes waiting with it; answers once that commits. */
  readonly write: RunInTransaction<DB> = <Result>(work: Work<DB, Result>) =>
    new Promise<Result>((resolve, reject) => {
      this.#waiting.push({ work: work as Work<DB, unknown>, resolve: resolve as (result: unknown) => void, reject });
      this.#startAfterThisTurn();
    });

  /** `setImmediate` runs once every socket read in this turn has been handled, and their writes are waiting. */
  #startAfterThisTurn(): void {
    if (this.#starting) return;
    this.#starting = true;
    setImmediate(() => {
      this.#starting = false;
      this.#startGroups();
    });
  }

  #startGroups(): void {
    while (this.#running < this.#inFlight && this.#waiting.length > 0) {
      const group = this.#waiting.splice(0, this.#largest);
      this.#running += 1;
      void this.#run(group).finally(() => {
        this.#running -= 1;
        this.#startGroups();
      });
    }
  }

  /** A group as large as groups may be committed whole: the next may take one more write. */
  #committed(size: number): void {
    if (size >= this.#largest) this.#largest = Math.min(LARGEST_GROUP, size + 1);
  }

  /** Runs a group taken from the waiting writes (`fresh`), or a part of one that failed. */
  async #run(group: Member<DB>[], fresh = true): Promise<void> {
    const [only] = group;
    if (group.length === 1 && only) {
      return this.#alone(only.work).then((result) => {
        if (fresh) this.#committed(1);
        only.resolve(result);
      }, only.reject);
    }
    let ran = 0;
    let committing = false;
    let results: unknown[];
    try {
      results = await this.#db.transaction().execute(async (trx) => {
        const each: unknown[] = [];
        for (const member of group) {
          each.push(await asWrite(member, () => member.work(trx)));
          ran += 1;
        }
        committing = true;
        return each;
      });
    } catch (error) {
      this.#largest = Math.max(1, Math.floor(group.length / 2));
      if (committing && !answeredByPostgres(error)) {
        for (const member of group) member.reject(error);
        return;
      }
      const failed = group.indexOf(failedWrite(error) as Member<DB>);
      const parts = failed >= 0 ? without(group, failed) : committing ? halves(group) : around(group, ran);
      for (const part of parts) {
        if (part.length > 0) await this.#run(part, false);
      }
      return;
    }
    if (fresh) this.#committed(group.length);
    group.forEach((member, index) => {
      member.resolve(results[index]);
    });
  }
}

/**
 * A group one of whose writes is known to have failed (a statement it sent answered later: pg-failed-write.ts),
 * run again as the others together, then that write alone.
 */
const without = <T>(group: T[], failed: number): T[][] => [
  [...group.slice(0, failed), ...group.slice(failed + 1)],
  group.slice(failed, failed + 1),
];

/**
 * A group that failed before its COMMIT, the write that failed not known, run again in three parts, in order:
 * the writes before the one that was running (together: what failed may still be one of theirs, answered later),
 * that one alone, and the writes after it (together: they had not run).
 */
const around = <T>(group: T[], failed: number): T[][] => [
  group.slice(0, failed),
  group.slice(failed, failed + 1),
  group.slice(failed + 1),
];

/**
 * A group whose COMMIT PostgreSQL refused, the write that failed not known, run again in halves, in order, until
 * the write that failed is alone.
 */
const halves = <T>(group: T[]): T[][] => [
  group.slice(0, Math.ceil(group.length / 2)),
  group.slice(Math.ceil(group.length / 2)),
];

/**
 * A COMMIT that PostgreSQL answered with a failure, its own or that of a statement before it (as its caller
 * translated it, keeping PostgreSQL's error as the `cause`): the transaction was rolled back, nothing of it was
 * kept. Anything else (the connection lost, a timeout) leaves the outcome unknown.
 */
function answeredByPostgres(error: unknown): boolean {
  for (let failure = error; failure instanceof Error; failure = failure.cause) {
    if (failure instanceof pg.DatabaseError) return true;
  }
  return false;
}
