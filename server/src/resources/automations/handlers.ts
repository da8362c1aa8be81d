import { reason } from '../../../../lib/reasons.ts';
import {
  checkAutomation,
  insertStep,
  newStepId,
  type Step,
  type TemplateLookup,
  withStepIds,
} from '../../domain/automation-chain.ts';
import { startAutomations } from '../../domain/automation-triggers.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { detail, found, referenceNotFound } from '../../errors.ts';
import { type RuleIssue, rejectRules, ruleError, ruleViolation } from '../../rules.ts';
import { plainHandlers } from '../crud-handlers.ts';
import type { Repositories } from '../index.ts';
import { type Handlers, ok } from '../operation.ts';
import { type AutomationRecord, automationOf } from './repository.ts';

/** The rule of a template the steps name that the store no longer has (deleted after the steps were stored). */
const TEMPLATE_GONE = 'automation-template-exists';

const templatesOf =
  (repositories: Repositories, storeId: string): TemplateLookup =>
  (ids) =>
    repositories.templates.findMany(storeId, ids);

export const automationHandlers = {
  ...plainHandlers('automations', 'automation', { deleteAutomation: 'delete' }),

  async listAutomations({ storeId, query }, { repositories }) {
    const { automations, pagination } = await repositories.automations.listAutomations(storeId, query);
    return { status: 200, body: ok({ automations: automations.map(automationOf), pagination }) };
  },

  async createAutomation({ storeId, body }, { repositories }) {
    rejectRules(await checkAutomation(body, templatesOf(repositories, storeId)));
    const at = now();
    const automation: AutomationRecord = {
      id: newId(),
      storeId,
      name: body.name,
      trigger_event: body.trigger_event,
      // Created inactive whatever the body says (sections 1 and 3); PATCH `active: true` switches it on.
      active: false,
      createdAt: at,
      steps: withStepIds(body.steps),
      updatedAt: at,
    };
    await repositories.automations.createAutomation(automation);
    return { status: 201, body: ok({ automation: automationOf(automation) }) };
  },

  async validateAutomation({ storeId, body }, { repositories }) {
    const errors = await checkAutomation(body, templatesOf(repositories, storeId));
    return {
      status: 200,
      body: ok({
        valid: errors.length === 0,
        automation: { name: body.name, trigger_event: body.trigger_event, steps: body.steps, active: false },
        errors: errors.map(({ path, reason }) => ({ path, reason })),
      }),
    };
  },

  async getAutomationById({ storeId, path }, { repositories }) {
    const automation = found(await repositories.automations.getAutomationById(storeId, path.automationId));
    return { status: 200, body: ok({ automation: automationOf(automation) }) };
  },

  async updateAutomation({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.automations.getAutomationById(storeId, path.automationId));
    const { steps, ...fields } = body;
    const updated: AutomationRecord = {
      ...current,
      ...fields,
      steps: steps ? withStepIds(steps) : current.steps,
      updatedAt: now(),
    };
    // The result is checked whole: switching on a flow whose template was deleted meanwhile is refused too, but
    // the stored steps' deleted templates do not keep a flow that stays off from being switched off or edited.
    const issues = await checkAutomation(updated, templatesOf(repositories, storeId));
    rejectRules(steps || updated.active ? issues : issues.filter((issue) => issue.rule !== TEMPLATE_GONE));
    await repositories.automations.updateAutomation(updated);
    return { status: 200, body: ok({ automation: automationOf(updated) }) };
  },

  async addAutomationStep({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.automations.getAutomationById(storeId, path.automationId));
    const taken = new Set(current.steps.flatMap((step) => (step.id === undefined ? [] : [step.id])));
    // A repeated id is reported alone: inserted, it would rewire the chain, and its consequences (a loop) would be
    // reported at paths of the stored steps that the request never sent.
    if (body.step.id !== undefined && taken.has(body.step.id)) {
      throw ruleError(ruleViolation('automation-step-id-unique', 'step.id', { id: body.step.id }));
    }
    const step: Step & { id: string } = { ...body.step, id: body.step.id ?? newStepId(taken) };
    const inserted = insertStep(current.steps, step, body.after);
    if (!inserted) throw ruleError(ruleViolation('automation-step-after-exists', 'after', { id: String(body.after) }));
    const issues = await checkAutomation(
      { trigger_event: current.trigger_event, steps: inserted.steps },
      templatesOf(repositories, storeId),
    );
    // Problems of the new step are reported on the request's `step`; the others keep their `steps.N` path, but a
    // stored step's deleted template does not keep a flow that is off from growing.
    const own = `steps.${inserted.index}`;
    const ofStep = (issue: RuleIssue) => issue.path === own || issue.path.startsWith(`${own}.`);
    rejectRules(
      issues
        .filter((issue) => current.active || ofStep(issue) || issue.rule !== TEMPLATE_GONE)
        .map((issue) => ({ ...issue, path: ofStep(issue) ? `step${issue.path.slice(own.length)}` : issue.path })),
    );
    const updated: AutomationRecord = { ...current, steps: inserted.steps, updatedAt: now() };
    await repositories.automations.updateAutomation(updated);
    return { status: 200, body: ok({ automation: automationOf(updated) }) };
  },

  async raiseStoreEvent({ path, body }, { repositories }) {
    const store = found(await repositories.stores.find(path.storeId));
    // Another store's order is no order of this store: a run must never read it.
    if (body.orderId && !(await repositories.orders.getOrderById(store.id, body.orderId))) {
      throw referenceNotFound([detail('body', 'orderId', reason('order-not-found', { id: body.orderId }))]);
    }
    const event = { id: newId(), name: body.name, orderId: body.orderId ?? null, acceptedAt: now() };
    const automationRunIds = await startAutomations(repositories, store.id, event);
    return { status: 202, body: ok({ event: { ...event, automationRunIds } }) };
  },
} satisfies Partial<Handlers>;
