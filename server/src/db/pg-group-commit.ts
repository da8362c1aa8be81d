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
 * kept and its writes run again, alone, one after another in their order, so each succeeds or fails by itself:
 * a write never fails because another failed. A COMMIT whose outcome is unknown (the connection lost before
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
    if (group.length === 1) return this.#runEachAlone(group);
    let committing = false;
    let results: unknown[];
    try {
      results = await this.#db.transaction().execute(async (trx) => {
        const each: unknown[] = [];
        for (const member of group) each.push(await member.work(trx));
        committing = true;
        return each;
      });
    } catch (error) {
      if (committing && !answeredByPostgres(error)) {
        for (const member of group) member.reject(error);
        return;
      }
      return this.#runEachAlone(group);
    }
    group.forEach((member, index) => {
      member.resolve(results[index]);
    });
  }

  async #runEachAlone(group: Member<DB>[]): Promise<void> {
    for (const member of group) {
      await this.#alone(member.work).then(member.resolve, member.reject);
    }
  }
}

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
