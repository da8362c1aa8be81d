import { type Kysely, sql } from 'kysely';
import { claimIfDue } from '../../db/claim-if-due.ts';
import type { Engine } from '../../db/database.ts';
import { FILTER_ONLY_EQUALS } from '../../db/filter-only-equals.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database } from '../index.ts';
import type { Step } from './repository.ts';
import type { AutomationOutboxTable, AutomationRunsTable } from './table.ts';

export type RunStatus = AutomationRunsTable['status'];

/** One execution of an automation, started by a store event; it keeps the steps it started with. */
export interface AutomationRun {
  id: string;
  storeId: string;
  automationId: string;
  eventId: string;
  eventName: string;
  orderId: string | null;
  steps: Step[];
  status: RunStatus;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Index of the step the run executes next; null once finished. */
  nextStep: number | null;
  /** Messages sent so far (the position of the next one). */
  sent: number;
  /** When the worker picks the run up next; null once finished. */
  resumeAt: string | null;
}

/** A message an action "sent": the runner's output, one row per executed action. */
export interface OutboxMessage {
  id: string;
  storeId: string;
  runId: string;
  /** 0 for the run's first message, then 1, 2, ... */
  position: number;
  stepId: string;
  operation: AutomationOutboxTable['operation'];
  channel: AutomationOutboxTable['channel'];
  templateId: string | null;
  subject: string | null;
  content: string;
  createdAt: string;
}

const toRun = (row: AutomationRunsTable): AutomationRun => ({
  id: row.id,
  storeId: row.store_id,
  automationId: row.automation_id,
  eventId: row.event_id,
  eventName: row.event_name,
  orderId: row.order_id,
  steps: JSON.parse(row.steps) as Step[],
  status: row.status,
  error: row.error,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
  nextStep: row.next_step,
  sent: Number(row.sent),
  resumeAt: row.resume_at,
});

const toMessage = (row: AutomationOutboxTable): OutboxMessage => ({
  id: row.id,
  storeId: row.store_id,
  runId: row.run_id,
  position: row.position,
  stepId: row.step_id,
  operation: row.operation,
  channel: row.channel,
  templateId: row.template_id,
  subject: row.subject,
  content: row.content,
  createdAt: row.created_at,
});

/** The runs an event starts, and the runs and the messages they sent read back by store. */
function runLog(db: Kysely<Database>) {
  return {
    /** Records the runs an event starts, due now (in the transaction of the change that raised the event). */
    async startRuns(runs: readonly AutomationRun[]): Promise<void> {
      if (runs.length === 0) return;
      await db
        .insertInto('automation_runs')
        .values(
          runs.map((run) => ({
            id: run.id,
            store_id: run.storeId,
            automation_id: run.automationId,
            event_id: run.eventId,
            event_name: run.eventName,
            order_id: run.orderId,
            steps: JSON.stringify(run.steps),
            status: run.status,
            error: run.error,
            created_at: run.createdAt,
            finished_at: run.finishedAt,
            next_step: run.nextStep,
            sent: run.sent,
            resume_at: run.resumeAt,
          })),
        )
        .execute();
    },

    async findRun(storeId: string, id: string): Promise<AutomationRun | undefined> {
      const row = await db
        .selectFrom('automation_runs')
        .selectAll()
        .where('store_id', FILTER_ONLY_EQUALS, storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toRun(row);
    },

    /** The runs an automation has started, oldest first. */
    async runsOfAutomation(storeId: string, automationId: string): Promise<AutomationRun[]> {
      const rows = await db
        .selectFrom('automation_runs')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('automation_id', '=', automationId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toRun);
    },

    /** The messages a run sent, in the order it sent them. */
    async runOutbox(storeId: string, runId: string): Promise<OutboxMessage[]> {
      const rows = await db
        .selectFrom('automation_outbox')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('run_id', '=', runId)
        .orderBy('position')
        .execute();
      return rows.map(toMessage);
    },
  };
}

/** Running runs due at `at`, the longest due first. */
function dueRuns(db: Kysely<Database>, at: string) {
  return db
    .selectFrom('automation_runs')
    .where('status', '=', 'running')
    .where('resume_at', '<=', at)
    .orderBy('resume_at');
}

/** The queue the worker claims due runs from, and the steps it records as it executes them. */
function runQueue(db: Kysely<Database>, engine: Engine) {
  return {
    /**
     * Claims up to `limit` running runs due at `at` and moves their `resume_at` to `leaseUntil`, so that no other
     * instance takes them meanwhile and a run cut off by a crash is picked up again then.
     */
    claimDueRuns: (at: string, leaseUntil: string, limit: number): Promise<AutomationRun[]> =>
      claimIfDue(dueRuns(db, at), () =>
        inTransaction(db, async (trx) => {
          let due = dueRuns(trx, at).select('id').limit(limit);
          if (engine === 'postgres') due = due.forUpdate().skipLocked();
          const ids = (await due.execute()).map((row) => row.id);
          if (ids.length === 0) return [];
          const rows = await trx
            .updateTable('automation_runs')
            .set({ resume_at: leaseUntil })
            .where('id', 'in', ids)
            .returningAll()
            .execute();
          return rows.map(toRun);
        }),
      ),

    /** Records a sent message and where the run goes on from, together: a resumed run never sends it twice. */
    sendMessage: (message: OutboxMessage, nextStep: number | null) =>
      inTransaction(db, async (trx) => {
        await trx
          .insertInto('automation_outbox')
          .values({
            id: message.id,
            store_id: message.storeId,
            run_id: message.runId,
            position: message.position,
            step_id: message.stepId,
            operation: message.operation,
            channel: message.channel,
            template_id: message.templateId,
            subject: message.subject,
            content: message.content,
            created_at: message.createdAt,
          })
          .execute();
        await trx
          .updateTable('automation_runs')
          .set({ next_step: nextStep, sent: sql<number>`sent + 1` })
          .where('id', '=', message.runId)
          .execute();
      }),

    /** A delay: the run goes on from `nextStep` at `resumeAt`. */
    async suspendRun(id: string, nextStep: number | null, resumeAt: string): Promise<void> {
      await db
        .updateTable('automation_runs')
        .set({ next_step: nextStep, resume_at: resumeAt })
        .where('id', '=', id)
        .execute();
    },

    async finishRun(id: string, status: Exclude<RunStatus, 'running'>, error: string | null, at: string) {
      await db
        .updateTable('automation_runs')
        .set({ status, error, finished_at: at, next_step: null, resume_at: null })
        .where('id', '=', id)
        .execute();
    },
  };
}

export function automationRunsRepository(db: Kysely<Database>, engine: Engine) {
  return { ...runLog(db), ...runQueue(db, engine) };
}
