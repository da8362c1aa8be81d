import type { Kysely, Selectable } from 'kysely';
import type { AutomationOutboxTable, AutomationRunsTable, Database } from '../db/schema.ts';
import type { Step } from './automations-repository.ts';
import { json, jsonColumn } from './columns.ts';

export type RunStatus = 'running' | 'completed' | 'failed';

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
}

/** A message an action "sent": the runner's output, one row per executed action. */
export interface OutboxMessage {
  id: string;
  storeId: string;
  runId: string;
  /** 0 for the run's first message, then 1, 2, ... */
  position: number;
  stepId: string;
  operation: string;
  channel: string;
  templateId: string | null;
  subject: string | null;
  content: string;
  createdAt: string;
}

function toRun(row: Selectable<AutomationRunsTable>): AutomationRun {
  return {
    id: row.id,
    storeId: row.store_id,
    automationId: row.automation_id,
    eventId: row.event_id,
    eventName: row.event_name,
    orderId: row.order_id,
    steps: json<Step[]>(row.steps),
    status: row.status as RunStatus,
    error: row.error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

function toMessage(row: Selectable<AutomationOutboxTable>): OutboxMessage {
  return {
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
  };
}

export function automationRunsRepository(db: Kysely<Database>) {
  return {
    /** Records the runs an event starts, all or none. */
    async start(runs: readonly AutomationRun[]): Promise<void> {
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
            steps: jsonColumn(run.steps),
            status: run.status,
            error: run.error,
            created_at: run.createdAt,
            finished_at: run.finishedAt,
          })),
        )
        .execute();
    },

    async find(storeId: string, id: string): Promise<AutomationRun | undefined> {
      const row = await db
        .selectFrom('automation_runs')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toRun(row);
    },

    /** The runs an automation has started, oldest first. */
    async ofAutomation(storeId: string, automationId: string): Promise<AutomationRun[]> {
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

    async finish(storeId: string, id: string, status: Exclude<RunStatus, 'running'>, error: string | null, at: string) {
      await db
        .updateTable('automation_runs')
        .set({ status, error, finished_at: at })
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .execute();
    },

    async send(message: OutboxMessage): Promise<void> {
      await db
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
    },

    /** The messages a run sent, in the order it sent them. */
    async outbox(storeId: string, runId: string): Promise<OutboxMessage[]> {
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

export type AutomationRunsRepository = ReturnType<typeof automationRunsRepository>;
