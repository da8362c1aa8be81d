import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  adminHeaders,
  call,
  createTenant,
  engines,
  startServer,
  type Tenant,
  type TestServer,
} from '../../../test/harness.ts';
import { loadConfig } from '../../config.ts';
import { openStore, type Store } from '../../db/database.ts';
import { createRepositories, type Repositories } from '../../resources/index.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const emailTemplate = {
  channel: 'email',
  name: 'Lembrete de PIX',
  subject: 'Seu PIX está esperando',
  remetente_nome: 'Loja Exemplo',
  remetente_email: 'contato@lojaexemplo.com.br',
  body: 'Olá, use o PIX do pedido {{order.id}}.',
};

type Issue = { path: string; reason: string };

describe.each(engines)('automations on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  let emailId: string;
  let smsId: string;
  let whatsappId: string;
  /** A second connection to the server's data, to read what the runner wrote. */
  let store: Store;
  let repositories: Repositories;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });
  const raise = (storeId: string, body: unknown, headers = adminHeaders(server)) =>
    call(server.baseUrl, 'POST', `/admin/stores/${storeId}/events`, { headers, body });
  const template = async (body: unknown, who: Tenant = tenant): Promise<string> =>
    (await v1('POST', '/api/v1/automation/templates', body, who)).body.data.template.id;
  const flow = () => ({
    name: 'Lembrete de PIX',
    trigger_event: 'pix.generated',
    steps: [
      { id: 'wait-30', type: 'delay', minutes: 30, nextId: 'email-lembrete' },
      { id: 'email-lembrete', type: 'action', name: 'send_email', data: { template_id: emailId } },
    ],
  });

  beforeAll(async () => {
    server = await startServer({ engine, env: { AUTOMATION_MINUTE_MS: '1' } });
    tenant = await createTenant(server);
    other = await createTenant(server);
    emailId = await template(emailTemplate);
    smsId = await template({ channel: 'sms', message: 'PIX do pedido {{order.id}} vence hoje' });
    whatsappId = await template({ channel: 'whatsapp', message: 'Oi! Seu PIX vence hoje' });
    const { location } = server;
    const config = loadConfig({
      DATA_DIR: location.dataDir,
      ...(location.databaseUrl
        ? { DATABASE_URL: location.databaseUrl, DATABASE_SCHEMA: location.databaseSchema ?? '' }
        : {}),
    });
    store = openStore(config);
    repositories = createRepositories(store.db, store.engine);
  }, 30_000);
  afterAll(async () => {
    await store.close();
    await server.close();
  });

  it('createAutomation creates it inactive even when active: true is sent, keeps step ids; getAutomationById reads it back', async () => {
    const body = { ...flow(), active: true };
    body.steps.push({ type: 'action', name: 'send_sms', data: { message: 'Seu PIX vence hoje' } } as never);
    const created = await v1('POST', '/api/v1/automations', body);
    expect(created.status).toBe(201);
    const automation = created.body.data.automation;
    expect(created.body).toEqual({
      success: true,
      data: {
        automation: {
          id: expect.any(String),
          storeId: tenant.storeId,
          name: 'Lembrete de PIX',
          trigger_event: 'pix.generated',
          active: false,
          createdAt: expect.any(String),
          steps: [
            ...flow().steps,
            {
              id: expect.stringMatching(/^step_[0-9a-z]{8}$/),
              type: 'action',
              name: 'send_sms',
              data: body.steps[2]?.data,
            },
          ],
        },
      },
    });
    const read = await v1('GET', `/api/v1/automations/${automation.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const list = await v1('GET', '/api/v1/automations?limit=100');
    expect(list.body.data.automations).toContainEqual(automation);
  });

  it('validateAutomation stores nothing: the echo has the steps as sent and active false', async () => {
    const before = (await v1('GET', '/api/v1/automations')).body.data.pagination.total;
    const body = {
      ...flow(),
      active: true,
      steps: [{ type: 'delay', minutes: 30, nextId: 'email-lembrete' }, flow().steps[1]],
    };
    const validated = await v1('POST', '/api/v1/automations/validate', body);
    expect(validated.status).toBe(200);
    expect(validated.body).toEqual({
      success: true,
      data: {
        valid: true,
        automation: { name: body.name, trigger_event: body.trigger_event, steps: body.steps, active: false },
        errors: [],
      },
    });
    expect((await v1('GET', '/api/v1/automations')).body.data.pagination.total).toBe(before);
  });

  it('createAutomation accepts SMS and WhatsApp actions by template of their channel or by message', async () => {
    const steps = [
      { type: 'action', name: 'send_sms', data: { template_id: smsId } },
      { type: 'action', name: 'send_whatsapp', data: { template_id: whatsappId } },
      { type: 'action', name: 'send_sms', data: { message: 'x'.repeat(160) } },
      { type: 'action', name: 'send_whatsapp', data: { message: 'Oi {{customer.name}}', extra: 'kept' } },
    ];
    const validated = await v1('POST', '/api/v1/automations/validate', { ...flow(), steps });
    expect(validated.body.data).toMatchObject({ valid: true, errors: [] });
    const created = await v1('POST', '/api/v1/automations', { ...flow(), steps });
    expect(created.status).toBe(201);
    expect(created.body.data.automation.steps[3].data).toEqual({ message: 'Oi {{customer.name}}', extra: 'kept' });
  });

  const action = (name: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'action',
    name,
    data,
    ...extra,
  });

  it.each([
    ['an unknown trigger', () => ({ trigger_event: 'pix.expired' }), 'trigger_event'],
    [
      'send_email with a template of another store',
      () => ({ steps: [action('send_email', { template_id: UNKNOWN })] }),
      'steps.0.data.template_id',
    ],
    [
      'send_email with an SMS template',
      () => ({ steps: [flow().steps[0], action('send_email', { template_id: smsId }, { id: 'email-lembrete' })] }),
      'steps.1.data.template_id',
    ],
    [
      'send_email without template_id',
      () => ({ steps: [action('send_email', { message: 'oi' })] }),
      'steps.0.data.template_id',
    ],
    [
      'send_sms over 160 characters',
      () => ({ steps: [action('send_sms', { message: 'x'.repeat(161) })] }),
      'steps.0.data.message',
    ],
    ['send_sms without message nor template', () => ({ steps: [action('send_sms', {})] }), 'steps.0.data.message'],
    [
      'send_sms with an email template',
      () => ({ steps: [action('send_sms', { template_id: emailId })] }),
      'steps.0.data.template_id',
    ],
    [
      'send_whatsapp with an SMS template',
      () => ({ steps: [action('send_whatsapp', { template_id: smsId })] }),
      'steps.0.data.template_id',
    ],
    [
      'send_whatsapp without message nor template',
      () => ({ steps: [action('send_whatsapp', {})] }),
      'steps.0.data.message',
    ],
    [
      'a nextId naming no step',
      () => ({ steps: [{ id: 'a', type: 'delay', minutes: 5, nextId: 'nowhere' }] }),
      'steps.0.nextId',
    ],
    [
      'repeated step ids',
      () => ({
        steps: [
          { id: 'a', type: 'delay', minutes: 5 },
          { id: 'a', type: 'delay', minutes: 6 },
        ],
      }),
      'steps.1.id',
    ],
    [
      'a cycle',
      () => ({
        steps: [
          { id: 'a', type: 'delay', minutes: 5, nextId: 'b' },
          { id: 'b', type: 'delay', minutes: 5, nextId: 'a' },
        ],
      }),
      'steps.1.nextId',
    ],
    [
      'a step pointing at itself',
      () => ({ steps: [{ id: 'a', type: 'delay', minutes: 5, nextId: 'a' }] }),
      'steps.0.nextId',
    ],
  ])(
    'validateAutomation finds %s and says why; createAutomation and updateAutomation answer 400 with the same path',
    async (_name, change, path) => {
      const body = { ...flow(), ...change() };
      const validated = await v1('POST', '/api/v1/automations/validate', body);
      expect(validated.status).toBe(200);
      expect(validated.body.data.valid).toBe(false);
      expect(validated.body.data.automation.active).toBe(false);
      expect(validated.body.data.errors.map((issue: Issue) => issue.path)).toContain(path);

      if (path !== 'trigger_event') {
        const created = await v1('POST', '/api/v1/automations', body);
        expect(created.status).toBe(400);
        expect(created.body.error.code).toBe('VALIDATION_ERROR');
        expect(created.body.error.details).toContainEqual({
          location: 'body',
          path,
          reason: expect.any(String),
          rule: expect.stringMatching(/^automation-/),
        });
        const automation = (await v1('POST', '/api/v1/automations', flow())).body.data.automation;
        const updated = await v1('PATCH', `/api/v1/automations/${automation.id}`, { steps: body.steps });
        expect(updated.status).toBe(400);
        expect(updated.body.error.details.map((d: Issue) => d.path)).toContain(path);
      }
    },
  );

  it.each([
    ['a delay with fractional minutes', { type: 'delay', minutes: 1.5 }],
    ['an unknown step type', { type: 'branch', minutes: 1 }],
    ['an unknown operation', { type: 'action', name: 'send_fax', data: {} }],
  ])('validateAutomation and createAutomation reject %s with 400 (the schema)', async (_name, step) => {
    for (const path of ['/api/v1/automations/validate', '/api/v1/automations']) {
      const response = await v1('POST', path, { ...flow(), steps: [step] });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    }
    const unknownTrigger = await v1('POST', '/api/v1/automations', { ...flow(), trigger_event: 'pix.expired' });
    expect(unknownTrigger.status).toBe(400);
    expect(unknownTrigger.body.error.details[0]).toMatchObject({ location: 'body', path: 'trigger_event' });
  });

  it('updateAutomation changes only the sent fields; active: true switches the flow on', async () => {
    const automation = (await v1('POST', '/api/v1/automations', flow())).body.data.automation;
    const on = await v1('PATCH', `/api/v1/automations/${automation.id}`, { active: true });
    expect(on.status).toBe(200);
    expect(on.body.data.automation).toEqual({ ...automation, active: true });
    const renamed = await v1('PATCH', `/api/v1/automations/${automation.id}`, {
      name: 'Lembrete de boleto',
      trigger_event: 'boleto.generated',
    });
    expect(renamed.body.data.automation).toEqual({
      ...automation,
      active: true,
      name: 'Lembrete de boleto',
      trigger_event: 'boleto.generated',
    });
    const resteps = await v1('PATCH', `/api/v1/automations/${automation.id}`, {
      steps: [action('send_whatsapp', { message: 'Oi' })],
    });
    expect(resteps.body.data.automation.steps).toEqual([
      { id: expect.stringMatching(/^step_[0-9a-z]{8}$/), ...action('send_whatsapp', { message: 'Oi' }) },
    ]);
    expect((await v1('GET', `/api/v1/automations/${automation.id}`)).body).toEqual(resteps.body);
    expect((await v1('PATCH', `/api/v1/automations/${automation.id}`, {})).status).toBe(400);
  });

  it('addAutomationStep adds a step at the end of the main chain or after a named step, keeping nextId consistent', async () => {
    const automation = (await v1('POST', '/api/v1/automations', flow())).body.data.automation;
    const sms = action('send_sms', { message: 'Olá, seu PIX vence hoje.' }, { id: 'sms-lembrete' });
    const appended = await v1('POST', `/api/v1/automations/${automation.id}/steps`, { step: sms });
    expect(appended.status).toBe(200);
    expect(appended.body).toEqual({
      success: true,
      data: {
        automation: {
          ...automation,
          steps: [flow().steps[0], { ...flow().steps[1], nextId: 'sms-lembrete' }, sms],
        },
      },
    });

    const wait = { type: 'delay', minutes: 60 };
    const inserted = await v1('POST', `/api/v1/automations/${automation.id}/steps`, { after: 'wait-30', step: wait });
    expect(inserted.status).toBe(200);
    const steps = inserted.body.data.automation.steps;
    const newId = steps[1].id;
    expect(newId).toMatch(/^step_[0-9a-z]{8}$/);
    expect(steps).toEqual([
      { ...flow().steps[0], nextId: newId },
      { ...wait, id: newId, nextId: 'email-lembrete' },
      { ...flow().steps[1], nextId: 'sms-lembrete' },
      sms,
    ]);
    expect((await v1('GET', `/api/v1/automations/${automation.id}`)).body).toEqual(inserted.body);

    const unknownAfter = await v1('POST', `/api/v1/automations/${automation.id}/steps`, { after: 'nope', step: wait });
    expect(unknownAfter.status).toBe(400);
    expect(unknownAfter.body.error.details).toEqual([
      { location: 'body', path: 'after', reason: expect.any(String), rule: 'automation-step-after-exists' },
    ]);
    const badStep = await v1('POST', `/api/v1/automations/${automation.id}/steps`, {
      step: action('send_sms', { message: 'x'.repeat(161) }),
    });
    expect(badStep.status).toBe(400);
    expect(badStep.body.error.details.map((d: Issue) => d.path)).toEqual(['step.data.message']);
    const repeated = await v1('POST', `/api/v1/automations/${automation.id}/steps`, {
      step: { ...wait, id: 'wait-30' },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.details.map((d: Issue) => d.path)).toContain('step.id');
    expect((await v1('GET', `/api/v1/automations/${automation.id}`)).body).toEqual(inserted.body);
  });

  it('addAutomationStep adds the first step of an empty automation', async () => {
    const automation = (await v1('POST', '/api/v1/automations', { ...flow(), steps: [] })).body.data.automation;
    const added = await v1('POST', `/api/v1/automations/${automation.id}/steps`, {
      step: { type: 'delay', minutes: 1 },
    });
    expect(added.body.data.automation.steps).toEqual([{ id: expect.any(String), type: 'delay', minutes: 1 }]);
  });

  it('getAutomationById, updateAutomation and deleteAutomation answer 404 for unknown ids and another store’s automation; deleteAutomation deletes', async () => {
    const automation = (await v1('POST', '/api/v1/automations', flow())).body.data.automation;
    const unknown = await v1('GET', `/api/v1/automations/${UNKNOWN}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
    const id = automation.id;
    expect((await v1('GET', `/api/v1/automations/${id}`, undefined, other)).status).toBe(404);
    expect((await v1('PATCH', `/api/v1/automations/${id}`, { active: true }, other)).status).toBe(404);
    const step = { step: { type: 'delay', minutes: 1 } };
    expect((await v1('POST', `/api/v1/automations/${id}/steps`, step, other)).status).toBe(404);
    expect((await v1('POST', `/api/v1/automations/${UNKNOWN}/steps`, step)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/automations/${id}`, undefined, other)).status).toBe(404);
    // Another store cannot use this store's templates either.
    const foreign = await v1('POST', '/api/v1/automations/validate', flow(), other);
    expect(foreign.body.data.errors).toEqual([{ path: 'steps.1.data.template_id', reason: expect.any(String) }]);
    expect((await v1('DELETE', `/api/v1/automations/${id}`)).status).toBe(204);
    expect((await v1('GET', `/api/v1/automations/${id}`)).status).toBe(404);
  });

  it('listAutomations filters by active and trigger_event, with pagination', async () => {
    const fresh = await createTenant(server);
    const create = async (name: string, trigger_event: string) =>
      (await v1('POST', '/api/v1/automations', { name, trigger_event, steps: [] }, fresh)).body.data.automation;
    const a = await create('a', 'pix.generated');
    await create('b', 'order.paid');
    await create('c', 'pix.generated');
    await v1('PATCH', `/api/v1/automations/${a.id}`, { active: true }, fresh);
    const names = async (query: string) =>
      (await v1('GET', `/api/v1/automations?${query}`, undefined, fresh)).body.data.automations
        .map((x: { name: string }) => x.name)
        .sort();
    expect(await names('active=true')).toEqual(['a']);
    expect(await names('trigger_event=pix.generated')).toEqual(['a', 'c']);
    expect(await names('active=false&trigger_event=pix.generated')).toEqual(['c']);
    const page = await v1('GET', '/api/v1/automations?limit=2&page=2', undefined, fresh);
    expect(page.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['trigger_event=pix.expired', 'trigger_event'],
  ])('listAutomations rejects the query %s with 400', async (query, field) => {
    const response = await v1('GET', `/api/v1/automations?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0]).toMatchObject({ location: 'query', path: field });
  });

  it('validateAutomation needs automations:read and createAutomation automations:write (403 AUTH_SCOPE_DENIED)', async () => {
    const reader = await createTenant(server, ['automations:read']);
    const body = { ...flow(), steps: [action('send_sms', { message: 'oi' })] };
    expect((await v1('POST', '/api/v1/automations/validate', body, reader)).status).toBe(200);
    for (const [method, path, payload] of [
      ['POST', '/api/v1/automations', body],
      ['PATCH', `/api/v1/automations/${UNKNOWN}`, { active: true }],
      ['POST', `/api/v1/automations/${UNKNOWN}/steps`, { step: { type: 'delay', minutes: 1 } }],
      ['DELETE', `/api/v1/automations/${UNKNOWN}`, undefined],
    ] as const) {
      const denied = await v1(method, path, payload, reader);
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('AUTH_SCOPE_DENIED');
    }
    const unrelated = await createTenant(server, ['products:read']);
    const denied = await v1('POST', '/api/v1/automations/validate', body, unrelated);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('AUTH_SCOPE_DENIED');
  });

  it('raiseStoreEvent runs the active automations of the event: delays, then actions write the outbox', async () => {
    const shop = await createTenant(server);
    const email = await template(emailTemplate, shop);
    const steps = [
      { id: 'espera', type: 'delay', minutes: 1, nextId: 'email' },
      { id: 'email', type: 'action', name: 'send_email', data: { template_id: email }, nextId: 'sms' },
      { id: 'sms', type: 'action', name: 'send_sms', data: { message: 'PIX {{order.id}} vence hoje' } },
      { id: 'fora-da-cadeia', type: 'action', name: 'send_whatsapp', data: { message: 'nunca enviada' } },
    ];
    const active = (await v1('POST', '/api/v1/automations', { ...flow(), steps }, shop)).body.data.automation;
    await v1('PATCH', `/api/v1/automations/${active.id}`, { active: true }, shop);
    await v1('POST', '/api/v1/automations', { ...flow(), steps }, shop); // inactive: not started
    const paid = (await v1('POST', '/api/v1/automations', { ...flow(), trigger_event: 'order.paid', steps }, shop)).body
      .data.automation;
    await v1('PATCH', `/api/v1/automations/${paid.id}`, { active: true }, shop); // other trigger: not started

    const orderId = '8d7c6b5a-4e3f-4a2b-9c1d-0e9f8a7b6c5d';
    const raised = await raise(shop.storeId, { name: 'pix.generated', orderId });
    expect(raised.status).toBe(202);
    expect(raised.body).toEqual({
      success: true,
      data: {
        event: {
          id: expect.any(String),
          name: 'pix.generated',
          orderId,
          automationRunIds: [expect.any(String)],
          acceptedAt: expect.any(String),
        },
      },
    });
    const [runId] = raised.body.data.event.automationRunIds as string[];
    if (!runId) throw new Error('no run');
    await vi.waitFor(
      async () => expect((await repositories.automationRuns.findRun(shop.storeId, runId))?.status).toBe('completed'),
      { timeout: 5000, interval: 20 },
    );
    const run = await repositories.automationRuns.findRun(shop.storeId, runId);
    expect(run).toMatchObject({ automationId: active.id, eventName: 'pix.generated', orderId, error: null });
    expect(await repositories.automationRuns.runOutbox(shop.storeId, runId)).toEqual([
      expect.objectContaining({
        position: 0,
        stepId: 'email',
        operation: 'send_email',
        channel: 'email',
        templateId: email,
        subject: emailTemplate.subject,
        content: `Olá, use o PIX do pedido ${orderId}.`,
      }),
      expect.objectContaining({
        position: 1,
        stepId: 'sms',
        operation: 'send_sms',
        channel: 'sms',
        templateId: null,
        subject: null,
        content: `PIX ${orderId} vence hoje`,
      }),
    ]);
    expect(await repositories.automationRuns.runOutbox(other.storeId, runId)).toEqual([]);
  });

  it('changeOrderStatus to PAID starts order.paid automations, and nothing for events no automation listens to', async () => {
    const shop = await createTenant(server);
    const steps = [{ id: 'sms', type: 'action', name: 'send_sms', data: { message: 'Pedido {{order.id}} pago' } }];
    const onPaid = (await v1('POST', '/api/v1/automations', { ...flow(), trigger_event: 'order.paid', steps }, shop))
      .body.data.automation;
    await v1('PATCH', `/api/v1/automations/${onPaid.id}`, { active: true }, shop);
    const order = await call(server.baseUrl, 'POST', `/admin/stores/${shop.storeId}/orders`, {
      headers: adminHeaders(server),
      body: { status: 'PENDING' },
    });
    expect(order.status).toBe(201);
    expect(await repositories.automationRuns.runsOfAutomation(shop.storeId, onPaid.id)).toEqual([]);
    const orderId: string = order.body.data.order.id;
    const paid = await v1('POST', `/api/v1/orders/${orderId}/status`, { status: 'PAID' }, shop);
    expect(paid.status).toBe(200);
    await vi.waitFor(
      async () => {
        const runs = await repositories.automationRuns.runsOfAutomation(shop.storeId, onPaid.id);
        expect(runs).toEqual([expect.objectContaining({ eventName: 'order.paid', orderId, status: 'completed' })]);
      },
      { timeout: 5000, interval: 20 },
    );
    const [run] = await repositories.automationRuns.runsOfAutomation(shop.storeId, onPaid.id);
    expect((await repositories.automationRuns.runOutbox(shop.storeId, run?.id ?? '')).map((m) => m.content)).toEqual([
      `Pedido ${orderId} pago`,
    ]);
  });

  it('raiseStoreEvent: a run ends failed when its template was deleted after activation; earlier messages stay sent', async () => {
    const shop = await createTenant(server);
    const whatsapp = await template({ channel: 'whatsapp', message: 'Oi!' }, shop);
    const steps = [
      { id: 'sms', type: 'action', name: 'send_sms', data: { message: 'Primeira' }, nextId: 'zap' },
      { id: 'zap', type: 'action', name: 'send_whatsapp', data: { template_id: whatsapp } },
    ];
    const automation = (await v1('POST', '/api/v1/automations', { ...flow(), steps }, shop)).body.data.automation;
    await v1('PATCH', `/api/v1/automations/${automation.id}`, { active: true }, shop);
    await v1('DELETE', `/api/v1/automation/templates/${whatsapp}`, undefined, shop);
    const raised = await raise(shop.storeId, { name: 'pix.generated' });
    expect(raised.body.data.event.orderId).toBeNull();
    const [runId] = raised.body.data.event.automationRunIds as string[];
    if (!runId) throw new Error('no run');
    await vi.waitFor(
      async () => expect((await repositories.automationRuns.findRun(shop.storeId, runId))?.status).toBe('failed'),
      { timeout: 5000, interval: 20 },
    );
    expect((await repositories.automationRuns.findRun(shop.storeId, runId))?.error).toEqual(expect.any(String));
    expect((await repositories.automationRuns.runOutbox(shop.storeId, runId)).map((m) => m.content)).toEqual([
      'Primeira',
    ]);
    // Now that the template is gone the flow no longer validates.
    const switched = await v1('PATCH', `/api/v1/automations/${automation.id}`, { name: 'Outro' }, shop);
    expect(switched.status).toBe(400);
    expect(switched.body.error.details.map((d: Issue) => d.path)).toEqual(['steps.1.data.template_id']);
  });

  it('raiseStoreEvent with no matching automation (202, no runs), 404 for an unknown store, 401 without the admin token', async () => {
    const shop = await createTenant(server);
    const none = await raise(shop.storeId, { name: 'lead.created' });
    expect(none.status).toBe(202);
    expect(none.body.data.event.automationRunIds).toEqual([]);
    const unknown = await raise(UNKNOWN, { name: 'pix.generated' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
    const badEvent = await raise(shop.storeId, { name: 'pix.expired' });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.error.details[0]).toMatchObject({ location: 'body', path: 'name' });
    const anonymous = await raise(shop.storeId, { name: 'pix.generated' }, { authorization: `Bearer ${shop.apiKey}` });
    expect(anonymous.status).toBe(401);
  });
});
