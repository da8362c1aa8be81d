import type { Kysely, Transaction } from 'kysely';
import pg from 'pg';

/** One write: its statements, on the transaction it is given. */
export type Work<DB, Result> = (trx: Transaction<DB>) => Promise<Result>;

/** Runs one write in a transaction (of its own, for a write run alone). */
export type RunInTransaction<DB> = <Result>(work: Work<DB, Result>) => Promise<Result>;

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
 * free runs at once, alone, as it would without groups.
 *
 * A group commits all or nothing. When one of its writes fails, or PostgreSQL refuses its COMMIT, none of it is
 * kept and its writes run again, in their order, in smaller groups until the write that failed runs alone: each
 * succeeds or fails by itself, a write never fails because another failed, and one failure costs its group a few
 * more transactions, not one for each of its writes. A COMMIT whose outcome is unknown (the connection lost before
 * PostgreSQL answered it) is not run again, as a write alone would not be: each write of the group gets its failure.
 */
export class GroupCommit<DB> {
  readonly #db: Kysely<DB>;
  readonly #inFlight: number;
  readonly #alone: RunInTransaction<DB>;
  #running = 0;
  #waiting: Member<DB>[] = [];

  constructor(db: Kysely<DB>, inFlight: number, alone: RunInTransaction<DB>) {
    this.#db = db;
    this.#inFlight = inFlight;
    this.#alone = alone;
  }

  /** Runs `work` in the next transaction free, with the writes waiting with it; answers once that commits. */
  readonly write: RunInTransaction<DB> = <Result>(work: Work<DB, Result>) =>
    new Promise<Result>((resolve, reject) => {
      this.#waiting.push({ work: work as Work<DB, unknown>, resolve: resolve as (result: unknown) => void, reject });
      this.#startGroups();
    });

  #startGroups(): void {
    while (this.#running < this.#inFlight && this.#waiting.length > 0) {
      const group = this.#waiting;
      this.#waiting = [];
      this.#running += 1;
      void this.#run(group).finally(() => {
        this.#running -= 1;
        this.#startGroups();
      });
    }
  }

  async #run(group: Member<DB>[]): Promise<void> {
    const [only] = group;
    if (group.length === 1 && only) return this.#alone(only.work).then(only.resolve, only.reject);
    let ran = 0;
    let committing = false;
    let results: unknown[];
    try {
      results = await this.#db.transaction().execute(async (trx) => {
        const each: unknown[] = [];
        for (const member of group) {
          each.push(await member.work(trx));
          ran += 1;
        }
        committing = true;
        return each;
      });
    } catch (error) {
      if (committing && !answeredByPostgres(error)) {
        for (const member of group) member.reject(error);
        return;
      }
      for (const part of committing ? halves(group) : around(group, ran)) {
        if (part.length > 0) await this.#run(part);
      }
      return;
    }
    group.forEach((member, index) => {
      member.resolve(results[index]);
    });
  }
}

/**
 * A group that failed before its COMMIT, run again in three parts, in order: the writes before the one that was
 * running (together: what failed may still be one of theirs, answered later), that one alone, and the writes
 * after it (together: they had not run).
 */
const around = <T>(group: T[], failed: number): T[][] => [
  group.slice(0, failed),
  group.slice(failed, failed + 1),
  group.slice(failed + 1),
];

/** A group whose COMMIT PostgreSQL refused, run again in halves, in order, until the write that failed is alone. */
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
