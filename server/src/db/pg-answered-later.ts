import type pg from 'pg';
import { socketOf } from './pg-socket.ts';

/**
 * Ends the SQL of a statement whose caller needs no answer from it: inside a transaction it is sent without waiting
 * for PostgreSQL, and its outcome is checked at the transaction's next statement (its COMMIT, say).
 */
export const ANSWERED_LATER = ' /* answered later */';

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/** What the caller of an unawaited statement receives at once: no rows, nothing counted. */
const NOT_YET = Object.freeze({ command: '', rowCount: null, rows: [], fields: [] });

/**
 * Makes a pooled connection (in pg's pipeline mode) send a transaction's `begin`, and the statements marked
 * `ANSWERED_LATER`, without waiting for their answers: they leave in the same write as the statement that follows
 * (the socket is corked until it), and PostgreSQL answers them all at one wake-up of its backend, which is what a
 * statement costs on this VM. A create was six writes (begin, the key's claim, the insert, the subscribers, the
 * key's completion, commit) and is two. Nothing is given up: the next statement of the transaction is answered
 * only once they are, and fails with the first failure among them, so a commit never reports success over a
 * statement that failed (PostgreSQL itself rolls a transaction back at COMMIT once a statement in it has failed);
 * a ROLLBACK answers for itself. Outside a transaction every statement is awaited, so an answer is never left for
 * the connection's next user.
 */
export function answerLater(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  const stream = socketOf(client);
  let inTransaction = false;
  let unanswered: Promise<unknown>[] = [];
  const pipelined: Query = (text, values, callback) => {
    if (typeof text !== 'string' || callback !== undefined) return query(text, values, callback);
    if (text === 'begin') inTransaction = true;
    const later = inTransaction && (text === 'begin' || text.endsWith(ANSWERED_LATER));
    if (later && stream.writableCorked === 0) stream.cork();
    const answer = query(text, values) as Promise<unknown>;
    if (!later && stream.writableCorked > 0) stream.uncork();
    if (text === 'commit' || text === 'rollback') inTransaction = false;
    if (later) {
      // Rejections are reported by the statement that follows; this keeps them from being unhandled meanwhile.
      answer.catch(() => undefined);
      unanswered.push(answer);
      return Promise.resolve(NOT_YET);
    }
    if (unanswered.length === 0) return answer;
    const earlier = unanswered;
    unanswered = [];
    // A rollback undoes whatever failed before it: it answers for itself once they are answered.
    if (text === 'rollback') return Promise.allSettled(earlier).then(() => answer);
    // PostgreSQL answers in order, so the first rejection is the earliest statement's.
    return Promise.all([...earlier, answer]).then(() => answer);
  };
  client.query = pipelined as typeof client.query;
}
