import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const emailTemplate = {
  channel: 'email',
  name: 'Lembrete de PIX',
  subject: 'Seu PIX está esperando',
  remetente_nome: 'Loja Exemplo',
  remetente_email: 'contato@lojaexemplo.com.br',
  body: 'Olá {{customer.name}}, use o código {{order.pix_code}} para concluir a compra.',
};

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe.each(engines)('message templates on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });
  const paths = (response: { body: { error: { details: { path: string }[] } } }) =>
    response.body.error.details.map((d) => d.path);

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
  });
  afterAll(() => server.close());

  it('creates an email template (201) with html and message null, and reads it back', async () => {
    const created = await v1('POST', '/api/v1/automation/templates', emailTemplate);
    expect(created.status).toBe(201);
    const template = created.body.data.template;
    expect(created.body).toEqual({
      success: true,
      data: {
        template: {
          id: expect.any(String),
          storeId: tenant.storeId,
          ...emailTemplate,
          html: null,
          message: null,
          createdAt: expect.any(String),
          updatedAt: template.createdAt,
        },
      },
    });
    const read = await v1('GET', `/api/v1/automation/templates/${template.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const list = await v1('GET', '/api/v1/automation/templates?channel=email&limit=100');
    expect(list.body.data.templates).toContainEqual(template);
  });

  it('defaults the name to the subject (email) or the first 60 characters of the message', async () => {
    const { name: _name, ...unnamed } = emailTemplate;
    const email = await v1('POST', '/api/v1/automation/templates', unnamed);
    expect(email.body.data.template.name).toBe('Seu PIX está esperando');
    const text = `Oi {{customer.name}}! ${'a'.repeat(100)}`;
    const whatsapp = await v1('POST', '/api/v1/automation/templates', { channel: 'whatsapp', message: text });
    expect(whatsapp.status).toBe(201);
    expect(whatsapp.body.data.template).toEqual({
      id: expect.any(String),
      storeId: tenant.storeId,
      channel: 'whatsapp',
      name: text.slice(0, 60),
      subject: null,
      remetente_nome: null,
      remetente_email: null,
      body: null,
      html: null,
      message: text,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const sms = await v1('POST', '/api/v1/automation/templates', { channel: 'sms', message: 'x'.repeat(160) });
    expect(sms.status).toBe(201);
    expect(sms.body.data.template.message).toHaveLength(160);
  });

  it('keeps only the fields of the channel: the others are null', async () => {
    const sms = await v1('POST', '/api/v1/automation/templates', {
      channel: 'sms',
      message: 'Seu PIX vence hoje',
      subject: 'ignorado',
    });
    expect(sms.status).toBe(201);
    expect(sms.body.data.template.subject).toBeNull();
    const email = await v1('POST', '/api/v1/automation/templates', {
      ...emailTemplate,
      html: '<p>oi</p>',
      message: 'x',
    });
    expect(email.body.data.template).toMatchObject({ body: emailTemplate.body, html: '<p>oi</p>', message: null });
  });

  it.each([
    ['email without subject', { ...emailTemplate, subject: undefined }, 'subject'],
    ['email without remetente_nome', { ...emailTemplate, remetente_nome: undefined }, 'remetente_nome'],
    ['email without remetente_email', { ...emailTemplate, remetente_email: undefined }, 'remetente_email'],
    ['email with a bad remetente_email', { ...emailTemplate, remetente_email: 'not-an-email' }, 'remetente_email'],
    ['email without body nor html', { ...emailTemplate, body: undefined }, 'body'],
    ['sms without message', { channel: 'sms' }, 'message'],
    ['sms longer than 160', { channel: 'sms', message: 'x'.repeat(161) }, 'message'],
    ['whatsapp without message', { channel: 'whatsapp' }, 'message'],
    ['unknown channel', { channel: 'telegram', message: 'oi' }, 'channel'],
    ['missing channel', { message: 'oi' }, 'channel'],
    ['unknown field', { channel: 'sms', message: 'oi', colour: 'azul' }, 'colour'],
  ])('rejects %s with 400 VALIDATION_ERROR naming the field', async (_name, body, field) => {
    const response = await v1('POST', '/api/v1/automation/templates', JSON.parse(JSON.stringify(body)));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' }, meta: { status: 400 } });
    expect(paths(response)).toContain(field);
  });

  it('updates only the sent fields and keeps the channel rules', async () => {
    const sms = (await v1('POST', '/api/v1/automation/templates', { channel: 'sms', name: 'PIX', message: 'Oi' })).body
      .data.template;
    const updated = await v1('PATCH', `/api/v1/automation/templates/${sms.id}`, {
      message: 'Oi {{customer.name}}! Seu PIX vence hoje.',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.template).toEqual({
      ...sms,
      message: 'Oi {{customer.name}}! Seu PIX vence hoje.',
      updatedAt: expect.any(String),
    });
    expect((await v1('GET', `/api/v1/automation/templates/${sms.id}`)).body.data.template).toEqual(
      updated.body.data.template,
    );
    const tooLong = await v1('PATCH', `/api/v1/automation/templates/${sms.id}`, { message: 'x'.repeat(161) });
    expect(tooLong.status).toBe(400);
    expect(paths(tooLong)).toContain('message');

    const email = (await v1('POST', '/api/v1/automation/templates', emailTemplate)).body.data.template;
    const noBody = await v1('PATCH', `/api/v1/automation/templates/${email.id}`, { body: null });
    expect(noBody.status).toBe(400);
    expect(paths(noBody)).toContain('body');
    const toHtml = await v1('PATCH', `/api/v1/automation/templates/${email.id}`, { html: '<p>Oi</p>', body: null });
    expect(toHtml.status).toBe(200);
    expect(toHtml.body.data.template).toMatchObject({ body: null, html: '<p>Oi</p>', subject: emailTemplate.subject });
    expect((await v1('PATCH', `/api/v1/automation/templates/${email.id}`, {})).status).toBe(400);
  });

  it('answers 404 for unknown ids and for another store’s template, and deletes', async () => {
    const template = (await v1('POST', '/api/v1/automation/templates', emailTemplate)).body.data.template;
    const unknown = await v1('GET', `/api/v1/automation/templates/${UNKNOWN}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await v1('GET', `/api/v1/automation/templates/${template.id}`, undefined, other)).status).toBe(404);
    expect((await v1('PATCH', `/api/v1/automation/templates/${template.id}`, { name: 'x' }, other)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/automation/templates/${template.id}`, undefined, other)).status).toBe(404);
    expect((await v1('PATCH', `/api/v1/automation/templates/${UNKNOWN}`, { name: 'x' })).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/automation/templates/${template.id}`)).status).toBe(204);
    expect((await v1('GET', `/api/v1/automation/templates/${template.id}`)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/automation/templates/${template.id}`)).status).toBe(404);
  });

  it('lists by channel with pagination, only the store’s own', async () => {
    const fresh = await createTenant(server);
    for (const message of ['um', 'dois', 'três']) {
      await v1('POST', '/api/v1/automation/templates', { channel: 'sms', message }, fresh);
    }
    await v1('POST', '/api/v1/automation/templates', emailTemplate, fresh);
    const page = await v1('GET', '/api/v1/automation/templates?channel=sms&limit=2&page=2', undefined, fresh);
    expect(page.status).toBe(200);
    expect(page.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(page.body.data.templates.map((t: { message: string }) => t.message)).toEqual(['um']);
    const all = await v1('GET', '/api/v1/automation/templates', undefined, fresh);
    expect(all.body.data.pagination.total).toBe(4);
    expect(all.body.data.templates.every((t: { storeId: string }) => t.storeId === fresh.storeId)).toBe(true);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['channel=telegram', 'channel'],
  ])('rejects the list query %s with 400', async (query, field) => {
    const response = await v1('GET', `/api/v1/automation/templates?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0]).toMatchObject({ location: 'query', path: field });
  });

  it('denies keys without the automations scopes (403 AUTH_SCOPE_DENIED)', async () => {
    const readOnly = await createTenant(server, ['automations:read']);
    const denied = await v1('POST', '/api/v1/automation/templates', emailTemplate, readOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('AUTH_SCOPE_DENIED');
    expect((await v1('GET', '/api/v1/automation/templates', undefined, readOnly)).status).toBe(200);
    const unrelated = await createTenant(server, ['products:read']);
    const list = await v1('GET', '/api/v1/automation/templates', undefined, unrelated);
    expect(list.status).toBe(403);
    expect(list.body.error.code).toBe('AUTH_SCOPE_DENIED');
  });
});
