import type { components } from '../../../../generated/openapi.ts';

type Schemas = components['schemas'];

/** `automations`, as server/migrations/003_webhooks_automations.sql creates it. */
export interface AutomationsTable {
  id: string;
  store_id: string;
  name: string;
  trigger_event: string;
  active: number;
  steps: string;
  created_at: string;
  updated_at: string;
}

/**
 * `automation_runs` (003, 006): one execution of an automation, with its own copy of the steps. While
 * `running`, the worker picks it up at `resume_at` and goes on from `next_step`.
 */
export interface AutomationRunsTable {
  id: string;
  store_id: string;
  automation_id: string;
  event_id: string;
  event_name: string;
  order_id: string | null;
  steps: string;
  status: 'running' | 'completed' | 'failed';
  error: string | null;
  created_at: string;
  finished_at: string | null;
  next_step: number | null;
  sent: number;
  resume_at: string | null;
}

/** `automation_outbox`: the messages the runs "sent", one row per executed action. */
export interface AutomationOutboxTable {
  id: string;
  store_id: string;
  run_id: string;
  position: number;
  step_id: string;
  operation: Schemas['ActionStep']['name'];
  channel: Schemas['TemplateChannel'];
  template_id: string | null;
  subject: string | null;
  content: string;
  created_at: string;
}

export interface AutomationTables {
  automations: AutomationsTable;
  automation_runs: AutomationRunsTable;
  automation_outbox: AutomationOutboxTable;
}
