import { sql } from 'kysely';
import type pg from 'pg';
import { currentWrite, failureOfWrite } from './pg-failed-write.ts';
import { socketOf } from './pg-socket.ts';

/**
 * Ends the SQL of a statement whose caller needs no answer from it: inside a transaction it is sent without waiting
 * for PostgreSQL, and its outcome is checked at the transaction's next statement (its COMMIT, say).
 */
export const ANSWERED_LATER = ' /* answered later */';

/** `ANSWERED_LATER` as a Kysely fragment: a builder's `.modifyEnd(ANSWERED_LATER_SQL)`, or the end of a `sql` template. */
export const ANSWERED_LATER_SQL = sql.raw(ANSWERED_LATER);

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * A statement sent without waiting, as its caller holds it: its failure, reported by the transaction's next
 * statement, is reported as what the caller says it means (a unique constraint's refusal as 409, say).
 */
export class AnsweredLater {
  readonly #translations: ((error: unknown) => unknown)[] = [];

  /** The statement's failure, should it fail, is reported as `translate(failure)`, after earlier translations. */
  failsAs(translate: (error: unknown) => unknown): void {
    this.#translations.push(translate);
  }

  /** The failure the transaction's next statement reports for this one. */
  reported(error: unknown): unknown {
    return this.#translations.reduce((failure, translate) => translate(failure), error);
  }
}

const STATEMENT = Symbol('statement answered later');

/** The statement behind rows a statement answered later gave its caller (none for a statement answered now). */
export function answeredLaterOf(rows: readonly unknown[]): AnsweredLater | undefined {
  return (rows as { [STATEMENT]?: AnsweredLater })[STATEMENT];
}

/** What the caller of an unawaited statement receives at once: no rows (they name the statement), nothing counted. */
const notYet = (statement: AnsweredLater) => ({
  command: '',
  rowCount: null,
  rows: Object.defineProperty([], STATEMENT, { value: statement }),
  fields: [],
});

interface Unanswered {
  answer: Promise<unknown>;
  statement: AnsweredLater;
  /** The write of a group that sent it (pg-failed-write.ts). */
  write: object | undefined;
  /** Set once it has failed (before anyone awaiting `answer` hears of it). */
  failure?: { error: unknown };
}

/**
 * Makes a pooled connection (in pg's pipeline mode) send a transaction's `begin`, and the statements marked
 * `ANSWERED_LATER`, without waiting for their answers: they leave in the same write as the statement that follows
 * (the socket is corked until it), and PostgreSQL answers them all at one wake-up of its backend, which is what a
 * statement costs on this VM. A create was six writes (begin, the key's claim, the insert, the subscribers, the
 * key's completion, commit) and is one. Nothing is given up: the next statement of the transaction is answered
 * only once they are, and fails with the first failure among them, so a commit never reports success over a
 * statement that failed (PostgreSQL itself rolls a transaction back at COMMIT once a statement in it has failed);
 * a ROLLBACK answers for itself. Outside a transaction every statement is awaited, so an answer is never left for
 * the connection's next user.
 */
export function answerLater(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  const stream = socketOf(client);
  let inTransaction = false;
  let unanswered: Unanswered[] = [];
  const pipelined: Query = (text, values, callback) => {
    if (typeof text !== 'string' || callback !== undefined) return query(text, values, callback);
    if (text === 'begin') inTransaction = true;
    const later = inTransaction && (text === 'begin' || text.endsWith(ANSWERED_LATER));
    if (later && stream.writableCorked === 0) stream.cork();
    const answer = query(text, values) as Promise<unknown>;
    if (!later && stream.writableCorked > 0) stream.uncork();
    if (text === 'commit' || text === 'rollback') inTransaction = false;
    if (later) {
      const unanswer: Unanswered = { answer, statement: new AnsweredLater(), write: currentWrite() };
      // Rejections are reported by the statement that follows; this notes them, and keeps them from being
      // unhandled meanwhile.
      answer.catch((error: unknown) => {
        unanswer.failure = { error };
      });
      unanswered.push(unanswer);
      return Promise.resolve(notYet(unanswer.statement));
    }
    if (unanswered.length === 0) return answer;
    const earlier = unanswered;
    unanswered = [];
    const earlierAnswers = earlier.map(({ answer }) => answer);
    // A rollback undoes whatever failed before it: it answers for itself once they are answered.
    if (text === 'rollback') return Promise.allSettled(earlierAnswers).then(() => answer);
    // PostgreSQL answers in order, so the first rejection is the earliest statement's; it is reported as that
    // statement's caller said.
    return Promise.all([...earlierAnswers, answer]).then(
      () => answer,
      (error: unknown) => {
        const failed = earlier.find(({ failure }) => failure?.error === error);
        throw failed ? failureOfWrite(failed.statement.reported(error), failed.write) : error;
      },
    );
  };
  client.query = pipelined as typeof client.query;
}
