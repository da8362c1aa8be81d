import { expect } from 'vitest';
import type { components } from '../../../../generated/openapi.ts';
import { action, detailPaths, detailsOf, emailTemplate, flow, newTemplate, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { type Api, describeEngines, malformed, test } from '../../../test/fixture.ts';
import type { AutomationValidate, TriggerEvent } from '../../../test/records.ts';
import { atAutomationId as at } from '../../../test/records.ts';
import { expectQueryInvalid, expectScopeDenied, outOfBoundsQueries } from '../../../test/store-scoped.ts';

/** The store's templates of each channel. */
async function templatesOf(api: Api) {
  return {
    email: await newTemplate(api, emailTemplate),
    sms: await newTemplate(api, { channel: 'sms', message: 'PIX do pedido {{order.id}} vence hoje' }),
    whatsapp: await newTemplate(api, { channel: 'whatsapp', message: 'Oi! Seu PIX vence hoje' }),
  };
}
type Templates = Awaited<ReturnType<typeof templatesOf>>;

/** createAutomation; the automation it answers. */
async function newAutomation(api: Api, body: components['schemas']['AutomationCreate']) {
  const created = (await api.POST('/api/v1/automations', { body })).data?.data.automation;
  if (!created) throw new Error('createAutomation failed');
  return created;
}

describeEngines('automations', () => {
  test('createAutomation creates it inactive even when active: true is sent, keeps step ids; getAutomationById reads it back', async ({
    api,
    tenant,
  }) => {
    const { email } = await templatesOf(api);
    const sms = action('send_sms', { message: 'Seu PIX vence hoje' });
    const body = { ...flow(email), active: true, steps: [...flow(email).steps, sms] };
    const created = await api.POST('/api/v1/automations', { body });
    expect(created.response.status).toBe(201);
    const automation = created.data?.data.automation;
    expect(created.data).toEqual({
      success: true,
      data: {
        automation: {
          id: expect.any(String),
          storeId: tenant.storeId,
          name: 'Lembrete de PIX',
          trigger_event: 'pix.generated',
          active: false,
          createdAt: expect.any(String),
          steps: [...flow(email).steps, { ...sms, id: expect.stringMatching(/^step_[0-9a-z]{8}$/) }],
        },
      },
    });
    const read = await api.GET('/api/v1/automations/{automationId}', at(automation?.id ?? UNKNOWN));
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual(created.data);
    const list = await api.GET('/api/v1/automations', { params: { query: { limit: 100 } } });
    expect(list.data?.data.automations).toContainEqual(automation);
  });

  test('validateAutomation stores nothing: the echo has the steps as sent and active false', async ({ api }) => {
    const { email } = await templatesOf(api);
    const total = async () => (await api.GET('/api/v1/automations')).data?.data.pagination.total;
    const before = await total();
    const [, send] = flow(email).steps;
    const body: AutomationValidate = {
      ...flow(email),
      active: true,
      steps: [{ type: 'delay', minutes: 30, nextId: 'email-lembrete' }, send],
    };
    const validated = await api.POST('/api/v1/automations/validate', { body });
    expect(validated.response.status).toBe(200);
    expect(validated.data).toEqual({
      success: true,
      data: {
        valid: true,
        automation: { name: body.name, trigger_event: body.trigger_event, steps: body.steps, active: false },
        errors: [],
      },
    });
    expect(await total()).toBe(before);
  });

  test('createAutomation accepts SMS and WhatsApp actions by template of their channel or by message', async ({
    api,
  }) => {
    const { email, sms, whatsapp } = await templatesOf(api);
    const steps = [
      action('send_sms', { template_id: sms }),
      action('send_whatsapp', { template_id: whatsapp }),
      action('send_sms', { message: 'x'.repeat(160) }),
      action('send_whatsapp', { message: 'Oi {{customer.name}}', extra: 'kept' }),
      action('send_sms', { message: '🙂'.repeat(160) }),
    ];
    const validated = await api.POST('/api/v1/automations/validate', { body: { ...flow(email), steps } });
    expect(validated.data?.data).toMatchObject({ valid: true, errors: [] });
    const created = await api.POST('/api/v1/automations', { body: { ...flow(email), steps } });
    expect(created.response.status).toBe(201);
    expect(created.data?.data.automation.steps[3]).toEqual({
      id: expect.stringMatching(/^step_[0-9a-z]{8}$/),
      ...action('send_whatsapp', { message: 'Oi {{customer.name}}', extra: 'kept' }),
    });
  });

  test.for<[string, (templates: Templates) => Partial<AutomationValidate>, string]>([
    ['an unknown trigger', () => ({ trigger_event: 'pix.expired' }), 'trigger_event'],
    [
      'send_email with a template of another store',
      () => ({ steps: [action('send_email', { template_id: UNKNOWN })] }),
      'steps.0.data.template_id',
    ],
    [
      'send_email with an SMS template',
      ({ email, sms }) => ({
        steps: [flow(email).steps[0], action('send_email', { template_id: sms }, { id: 'email-lembrete' })],
      }),
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
    [
      'send_sms over 160 characters of two UTF-16 units',
      () => ({ steps: [action('send_sms', { message: '🙂'.repeat(161) })] }),
      'steps.0.data.message',
    ],
    ['send_sms without message nor template', () => ({ steps: [action('send_sms', {})] }), 'steps.0.data.message'],
    [
      'send_sms with an email template',
      ({ email }) => ({ steps: [action('send_sms', { template_id: email })] }),
      'steps.0.data.template_id',
    ],
    [
      'send_whatsapp with an SMS template',
      ({ sms }) => ({ steps: [action('send_whatsapp', { template_id: sms })] }),
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
    async ([, change, path], { api }) => {
      const templates = await templatesOf(api);
      const body = { ...flow(templates.email), ...change(templates) };
      const validated = await api.POST('/api/v1/automations/validate', { body });
      expect(validated.response.status).toBe(200);
      expect(validated.data?.data.valid).toBe(false);
      expect(validated.data?.data.automation.active).toBe(false);
      expect(validated.data?.data.errors.map((issue) => issue.path)).toContain(path);

      if (path !== 'trigger_event') {
        const created = await api.POST('/api/v1/automations', { body: malformed(body) });
        expect(created.response.status).toBe(400);
        expect(created.error).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
        expect(detailsOf(created.error)).toContainEqual({
          location: 'body',
          path,
          reason: expect.any(String),
          rule: expect.stringMatching(/^automation-/),
        });
        const automation = await newAutomation(api, flow(templates.email));
        const updated = await api.PATCH('/api/v1/automations/{automationId}', {
          ...at(automation.id),
          body: { steps: body.steps },
        });
        expect(updated.response.status).toBe(400);
        expect(detailPaths(updated.error)).toContain(path);
      }
    },
  );

  test.for([
    ['a delay with fractional minutes', { type: 'delay', minutes: 1.5 }],
    ['an unknown step type', { type: 'branch', minutes: 1 }],
    ['an unknown operation', { type: 'action', name: 'send_fax', data: {} }],
  ] as const)('validateAutomation and createAutomation reject %s with 400 (the schema)', async ([, step], { api }) => {
    const body = malformed({ ...flow(UNKNOWN), steps: [step] });
    for (const response of [
      await api.POST('/api/v1/automations/validate', { body }),
      await api.POST('/api/v1/automations', { body }),
    ]) {
      expect(response.response.status).toBe(400);
      expect(response.error).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    }
    const unknownTrigger = await api.POST('/api/v1/automations', {
      body: malformed({ ...flow(UNKNOWN), trigger_event: 'pix.expired' }),
    });
    expect(unknownTrigger.response.status).toBe(400);
    expect(unknownTrigger.error).toMatchObject({ error: { details: [{ location: 'body', path: 'trigger_event' }] } });
  });

  test('updateAutomation changes only the sent fields; active: true switches the flow on', async ({ api }) => {
    const { email } = await templatesOf(api);
    const automation = await newAutomation(api, flow(email));
    const update = (body: components['schemas']['AutomationUpdate']) =>
      api.PATCH('/api/v1/automations/{automationId}', { ...at(automation.id), body });
    const on = await update({ active: true });
    expect(on.response.status).toBe(200);
    expect(on.data?.data.automation).toEqual({ ...automation, active: true });
    const renamed = await update({ name: 'Lembrete de boleto', trigger_event: 'boleto.generated' });
    expect(renamed.data?.data.automation).toEqual({
      ...automation,
      active: true,
      name: 'Lembrete de boleto',
      trigger_event: 'boleto.generated',
    });
    const resteps = await update({ steps: [action('send_whatsapp', { message: 'Oi' })] });
    expect(resteps.data?.data.automation.steps).toEqual([
      { id: expect.stringMatching(/^step_[0-9a-z]{8}$/), ...action('send_whatsapp', { message: 'Oi' }) },
    ]);
    expect((await api.GET('/api/v1/automations/{automationId}', at(automation.id))).data).toEqual(resteps.data);
    expect((await update({})).response.status).toBe(400);
  });

  test.for([
    [
      'an action step',
      { type: 'action', name: 'send_whatsapp', data: { message: 'x'.repeat(1001) } },
      { path: 'steps.0.data.message', reason: 'texto longo demais (must NOT have more than 1000 characters)' },
    ],
    [
      'a delay step',
      { type: 'delay', minutes: 'x' },
      { path: 'steps.0.minutes', reason: 'tipo inválido (must be integer)' },
    ],
    [
      'a step of an unknown type',
      { type: 'wait', minutes: 5 },
      { path: 'steps.0.type', reason: 'tipo de passo inválido (value of tag "type" must be in oneOf)' },
    ],
  ] as const)(
    "createAutomation judges %s by its type alone: one detail, not the other step type's",
    async ([, step, detail], { api }) => {
      const refused = await api.POST('/api/v1/automations', {
        body: malformed({ name: 'Fluxo', trigger_event: 'pix.generated', steps: [step] }),
      });
      expect({ status: refused.response.status, details: detailsOf(refused.error) }).toEqual({
        status: 400,
        details: [{ location: 'body', ...detail }],
      });
    },
  );

  test('a template deleted under an active flow: the flow can be switched off, edited and extended while off, not switched on again', async ({
    api,
  }) => {
    const { email } = await templatesOf(api);
    const automation = await newAutomation(api, flow(email));
    const update = (body: components['schemas']['AutomationUpdate']) =>
      api.PATCH('/api/v1/automations/{automationId}', { ...at(automation.id), body });
    expect((await update({ active: true })).response.status).toBe(200);
    await api.DELETE('/api/v1/automation/templates/{templateId}', { params: { path: { templateId: email } } });
    const templateGone = ['steps.1.data.template_id'];
    const renamedOn = await update({ name: 'Lembrete de boleto' });
    expect({ status: renamedOn.response.status, paths: detailPaths(renamedOn.error) }).toEqual({
      status: 400,
      paths: templateGone,
    });
    const off = await update({ active: false });
    expect(off.data?.data.automation).toEqual(automation);
    const renamed = await update({ name: 'Lembrete de boleto' });
    expect(renamed.data?.data.automation).toMatchObject({ name: 'Lembrete de boleto', active: false });
    const grown = await api.POST('/api/v1/automations/{automationId}/steps', {
      ...at(automation.id),
      body: { step: action('send_sms', { message: 'Seu PIX vence hoje' }, { id: 'sms' }) },
    });
    expect(grown.data?.data.automation.steps.map((step) => step.id)).toEqual(['wait-30', 'email-lembrete', 'sms']);
    const on = await update({ active: true });
    expect({ status: on.response.status, paths: detailPaths(on.error) }).toEqual({ status: 400, paths: templateGone });
    expect((await api.GET('/api/v1/automations/{automationId}', at(automation.id))).data).toEqual(grown.data);
  });

  test('addAutomationStep adds a step at the end of the main chain or after a named step, keeping nextId consistent', async ({
    api,
  }) => {
    const { email } = await templatesOf(api);
    const [wait30, send] = flow(email).steps;
    const automation = await newAutomation(api, flow(email));
    const addStep = (body: components['schemas']['AutomationStepAdd']) =>
      api.POST('/api/v1/automations/{automationId}/steps', { ...at(automation.id), body });
    const sms = action('send_sms', { message: 'Olá, seu PIX vence hoje.' }, { id: 'sms-lembrete' });
    const appended = await addStep({ step: sms });
    expect(appended.response.status).toBe(200);
    expect(appended.data).toEqual({
      success: true,
      data: { automation: { ...automation, steps: [wait30, { ...send, nextId: 'sms-lembrete' }, sms] } },
    });

    const wait = { type: 'delay', minutes: 60 } as const;
    // The insertion links the step: a nextId sent with it (here one that would skip the e-mail) is not kept.
    const inserted = await addStep({ after: 'wait-30', step: { ...wait, nextId: 'sms-lembrete' } });
    expect(inserted.response.status).toBe(200);
    const steps = inserted.data?.data.automation.steps;
    const newId = steps?.[1]?.id;
    expect(newId).toMatch(/^step_[0-9a-z]{8}$/);
    expect(steps).toEqual([
      { ...wait30, nextId: newId },
      { ...wait, id: newId, nextId: 'email-lembrete' },
      { ...send, nextId: 'sms-lembrete' },
      sms,
    ]);
    const read = async () => (await api.GET('/api/v1/automations/{automationId}', at(automation.id))).data;
    expect(await read()).toEqual(inserted.data);

    const unknownAfter = await addStep({ after: 'nope', step: wait });
    expect(unknownAfter.response.status).toBe(400);
    expect(detailsOf(unknownAfter.error)).toEqual([
      { location: 'body', path: 'after', reason: expect.any(String), rule: 'automation-step-after-exists' },
    ]);
    const badStep = await addStep({ step: action('send_sms', { message: 'x'.repeat(161) }) });
    expect(badStep.response.status).toBe(400);
    expect(detailPaths(badStep.error)).toEqual(['step.data.message']);
    // Reported alone: not also the loop the repeated id would make of the stored chain (at `steps.N.nextId`).
    for (const id of ['wait-30', 'sms-lembrete']) {
      const repeated = await addStep({ after: 'wait-30', step: { ...wait, id } });
      expect(repeated.response.status).toBe(400);
      expect(detailsOf(repeated.error)).toEqual([
        { location: 'body', path: 'step.id', reason: `id de passo repetido: ${id}`, rule: 'automation-step-id-unique' },
      ]);
    }
    expect(await read()).toEqual(inserted.data);
  });

  test('a step id that looks like an upper-case uuid is free text, kept as sent; a template id in upper case is a uuid, stored in lower case', async ({
    api,
  }) => {
    const { email } = await templatesOf(api);
    const stepId = '6F1C2D3E-4A5B-4C6D-8E7F-9A0B1C2D3E4F';
    const send = action('send_email', { template_id: email.toUpperCase() }, { id: stepId });
    const automation = await newAutomation(api, { ...flow(email), steps: [send] });
    expect(automation.steps).toEqual([{ ...send, data: { template_id: email } }]);
    const wait = { type: 'delay', minutes: 10, id: 'espera' } as const;
    const added = await api.POST('/api/v1/automations/{automationId}/steps', {
      ...at(automation.id),
      body: { after: stepId, step: wait },
    });
    expect(added.response.status).toBe(200);
    expect(added.data?.data.automation.steps).toEqual([
      { ...send, data: { template_id: email }, nextId: 'espera' },
      wait,
    ]);
  });

  test('addAutomationStep adds the first step of an empty automation', async ({ api }) => {
    const automation = await newAutomation(api, { ...flow(UNKNOWN), steps: [] });
    const added = await api.POST('/api/v1/automations/{automationId}/steps', {
      ...at(automation.id),
      body: { step: { type: 'delay', minutes: 1 } },
    });
    expect(added.data?.data.automation.steps).toEqual([{ id: expect.any(String), type: 'delay', minutes: 1 }]);
  });

  test('getAutomationById, updateAutomation and deleteAutomation answer 404 for unknown ids and another store’s automation; deleteAutomation deletes', async ({
    api,
    otherStore,
  }) => {
    const { email } = await templatesOf(api);
    const automation = await newAutomation(api, flow(email));
    const unknown = await api.GET('/api/v1/automations/{automationId}', at(UNKNOWN));
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
    const path = at(automation.id);
    const step = { step: { type: 'delay', minutes: 1 } } as const;
    for (const { response } of [
      await otherStore.GET('/api/v1/automations/{automationId}', path),
      await otherStore.PATCH('/api/v1/automations/{automationId}', { ...path, body: { active: true } }),
      await otherStore.POST('/api/v1/automations/{automationId}/steps', { ...path, body: step }),
      await api.POST('/api/v1/automations/{automationId}/steps', { ...at(UNKNOWN), body: step }),
      await otherStore.DELETE('/api/v1/automations/{automationId}', path),
    ]) {
      expect(response.status, response.url).toBe(404);
    }
    // Another store cannot use this store's templates either.
    const foreign = await otherStore.POST('/api/v1/automations/validate', { body: flow(email) });
    expect(foreign.data?.data.errors).toEqual([{ path: 'steps.1.data.template_id', reason: expect.any(String) }]);
    expect(await deletion(api.DELETE('/api/v1/automations/{automationId}', path))).toEqual(
      deletedAnswer(automation.id),
    );
    expect((await api.GET('/api/v1/automations/{automationId}', path)).response.status).toBe(404);
  });

  test('listAutomations filters by active and trigger_event, with pagination', async ({ api }) => {
    const create = (name: string, trigger_event: TriggerEvent) =>
      newAutomation(api, { name, trigger_event, steps: [] });
    const a = await create('a', 'pix.generated');
    await create('b', 'order.paid');
    await create('c', 'pix.generated');
    await api.PATCH('/api/v1/automations/{automationId}', { ...at(a.id), body: { active: true } });
    const names = async (query: { active?: boolean; trigger_event?: TriggerEvent }) =>
      (await api.GET('/api/v1/automations', { params: { query } })).data?.data.automations.map((x) => x.name).sort();
    expect(await names({ active: true })).toEqual(['a']);
    expect(await names({ trigger_event: 'pix.generated' })).toEqual(['a', 'c']);
    expect(await names({ active: false, trigger_event: 'pix.generated' })).toEqual(['c']);
    const page = await api.GET('/api/v1/automations', { params: { query: { limit: 2, page: 2 } } });
    expect(page.data?.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
  });

  test.for([...outOfBoundsQueries, ['trigger_event=pix.expired', 'trigger_event']] as const)(
    'listAutomations rejects the query %s with 400',
    async ([query, field], { api }) => {
      expectQueryInvalid(await api.GET('/api/v1/automations', { querySerializer: () => query }), field);
    },
  );

  test('validateAutomation needs automations:read and createAutomation automations:write (403 AUTH_SCOPE_DENIED)', async ({
    withScopes,
  }) => {
    const reader = await withScopes(['automations:read']);
    const body = { ...flow(UNKNOWN), steps: [action('send_sms', { message: 'oi' })] };
    expect((await reader.POST('/api/v1/automations/validate', { body })).response.status).toBe(200);
    for (const denied of [
      await reader.POST('/api/v1/automations', { body }),
      await reader.PATCH('/api/v1/automations/{automationId}', { ...at(UNKNOWN), body: { active: true } }),
      await reader.POST('/api/v1/automations/{automationId}/steps', {
        ...at(UNKNOWN),
        body: { step: { type: 'delay', minutes: 1 } },
      }),
      await reader.DELETE('/api/v1/automations/{automationId}', at(UNKNOWN)),
    ]) {
      expect(denied.response.status).toBe(403);
      expect(denied.error).toMatchObject({ error: { code: 'AUTH_SCOPE_DENIED' } });
    }
    const unrelated = await withScopes(['products:read']);
    expectScopeDenied([await unrelated.POST('/api/v1/automations/validate', { body })]);
  });
});
