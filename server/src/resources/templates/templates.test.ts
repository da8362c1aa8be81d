import { expect } from 'vitest';
import { naming, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { describeEngines, malformed, test } from '../../../test/fixture.ts';
import type { TemplateCreate } from '../../../test/records.ts';
import { expectQueryInvalid, expectScopeDenied, outOfBounds } from '../../../test/store-scoped.ts';

const emailTemplate = {
  channel: 'email',
  name: 'Lembrete de PIX',
  subject: 'Seu PIX está esperando',
  remetente_nome: 'Loja Exemplo',
  remetente_email: 'contato@lojaexemplo.com.br',
  body: 'Olá {{customer.name}}, use o código {{order.pix_code}} para concluir a compra.',
} satisfies TemplateCreate;

describeEngines('message templates', () => {
  test('createTemplate makes an email template (201) with html and message null; getTemplateById and listTemplates read it back', async ({
    api,
    tenant,
  }) => {
    const created = await api.POST('/api/v1/automation/templates', { body: emailTemplate });
    expect(created.response.status).toBe(201);
    const template = created.data?.data.template;
    expect(created.data).toEqual({
      success: true,
      data: {
        template: {
          id: expect.any(String),
          storeId: tenant.storeId,
          ...emailTemplate,
          html: null,
          message: null,
          createdAt: expect.any(String),
          updatedAt: template?.createdAt,
        },
      },
    });
    const path = { templateId: template?.id ?? UNKNOWN };
    const read = await api.GET('/api/v1/automation/templates/{templateId}', { params: { path } });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual(created.data);
    const list = await api.GET('/api/v1/automation/templates', { params: { query: { channel: 'email', limit: 100 } } });
    expect(list.data?.data.templates).toContainEqual(template);
  });

  test('createTemplate defaults the name to the subject (email) or the first 60 characters of the message', async ({
    api,
    tenant,
  }) => {
    const { name: _name, ...unnamed } = emailTemplate;
    const email = await api.POST('/api/v1/automation/templates', { body: unnamed });
    expect(email.data?.data.template.name).toBe('Seu PIX está esperando');
    const text = `Oi {{customer.name}}! ${'a'.repeat(100)}`;
    const whatsapp = await api.POST('/api/v1/automation/templates', { body: { channel: 'whatsapp', message: text } });
    expect(whatsapp.response.status).toBe(201);
    expect(whatsapp.data?.data.template).toEqual({
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
    // Counted in code points: an emoji that straddles the 60th UTF-16 unit is kept whole, never half of it.
    const straddling = `a${'😀'.repeat(70)}`;
    const cut = await api.POST('/api/v1/automation/templates', { body: { channel: 'whatsapp', message: straddling } });
    expect(cut.response.status).toBe(201);
    const path = { templateId: cut.data?.data.template.id ?? UNKNOWN };
    const named = (await api.GET('/api/v1/automation/templates/{templateId}', { params: { path } })).data?.data.template
      .name;
    expect(named).toBe(`a${'😀'.repeat(59)}`);
    const sms = await api.POST('/api/v1/automation/templates', { body: { channel: 'sms', message: 'x'.repeat(160) } });
    expect(sms.response.status).toBe(201);
    expect(sms.data?.data.template.message).toHaveLength(160);
    // 160 characters, as JSON Schema counts them: code points, though each of these is two UTF-16 units.
    const emoji = '🙂'.repeat(160);
    const wide = await api.POST('/api/v1/automation/templates', { body: { channel: 'sms', message: emoji } });
    expect(wide.response.status).toBe(201);
    expect(wide.data?.data.template.message).toBe(emoji);
    // An update is checked by the server's own rule on the result (`template-sms-length`): counted the same way.
    const patch = (message: string) =>
      api.PATCH('/api/v1/automation/templates/{templateId}', {
        params: { path: { templateId: wide.data?.data.template.id ?? '' } },
        body: { message },
      });
    expect((await patch(`${emoji.slice(2)}!`)).data?.data.template.message).toBe(`${emoji.slice(2)}!`);
    const over = await patch(`${emoji}!`);
    expect(over.response.status).toBe(400);
    expect(over.error).toMatchObject({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        details: [
          {
            location: 'body',
            path: 'message',
            reason: 'SMS com no máximo 160 caracteres',
            rule: 'template-sms-length',
          },
        ],
      },
      meta: { status: 400 },
    });
  });

  test('createTemplate keeps only the fields of the channel: the others are null', async ({ api }) => {
    const sms = await api.POST('/api/v1/automation/templates', {
      body: { channel: 'sms', message: 'Seu PIX vence hoje', subject: 'ignorado' },
    });
    expect(sms.response.status).toBe(201);
    expect(sms.data?.data.template.subject).toBeNull();
    const email = await api.POST('/api/v1/automation/templates', {
      body: { ...emailTemplate, html: '<p>oi</p>', message: 'x' },
    });
    expect(email.data?.data.template).toMatchObject({ body: emailTemplate.body, html: '<p>oi</p>', message: null });
  });

  test.for([
    ['email without subject', { ...emailTemplate, subject: undefined }, 'subject'],
    ['email without remetente_nome', { ...emailTemplate, remetente_nome: undefined }, 'remetente_nome'],
    ['email without remetente_email', { ...emailTemplate, remetente_email: undefined }, 'remetente_email'],
    ['email with a bad remetente_email', { ...emailTemplate, remetente_email: 'not-an-email' }, 'remetente_email'],
    ['email without body nor html', { ...emailTemplate, body: undefined }, 'body'],
    ['sms without message', { channel: 'sms' }, 'message'],
    ['sms longer than 160', { channel: 'sms', message: 'x'.repeat(161) }, 'message'],
    ['sms of 161 characters of two UTF-16 units', { channel: 'sms', message: '🙂'.repeat(161) }, 'message'],
    ['whatsapp without message', { channel: 'whatsapp' }, 'message'],
    ['unknown channel', { channel: 'telegram', message: 'oi' }, 'channel'],
    ['missing channel', { message: 'oi' }, 'channel'],
    ['unknown field', { channel: 'sms', message: 'oi', colour: 'azul' }, 'colour'],
  ] as const)(
    'createTemplate rejects %s with 400 VALIDATION_ERROR naming the field',
    async ([, body, field], { api }) => {
      const { response, error } = await api.POST('/api/v1/automation/templates', { body: malformed(body) });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' }, meta: { status: 400 } });
      expect(error).toMatchObject(naming(field));
    },
  );

  test('updateTemplate changes only the sent fields and keeps the channel rules', async ({ api }) => {
    const sms = (
      await api.POST('/api/v1/automation/templates', { body: { channel: 'sms', name: 'PIX', message: 'Oi' } })
    ).data?.data.template;
    const path = { templateId: sms?.id ?? UNKNOWN };
    const message = 'Oi {{customer.name}}! Seu PIX vence hoje.';
    const updated = await api.PATCH('/api/v1/automation/templates/{templateId}', {
      params: { path },
      body: { message },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data.template).toEqual({ ...sms, message, updatedAt: expect.any(String) });
    const read = await api.GET('/api/v1/automation/templates/{templateId}', { params: { path } });
    expect(read.data?.data.template).toEqual(updated.data?.data.template);
    const tooLong = await api.PATCH('/api/v1/automation/templates/{templateId}', {
      params: { path },
      body: { message: 'x'.repeat(161) },
    });
    expect(tooLong.response.status).toBe(400);
    expect(tooLong.error).toMatchObject(naming('message'));

    const email = (await api.POST('/api/v1/automation/templates', { body: emailTemplate })).data?.data.template;
    const emailPath = { templateId: email?.id ?? UNKNOWN };
    const noBody = await api.PATCH('/api/v1/automation/templates/{templateId}', {
      params: { path: emailPath },
      body: { body: null },
    });
    expect(noBody.response.status).toBe(400);
    expect(noBody.error).toMatchObject(naming('body'));
    const toHtml = await api.PATCH('/api/v1/automation/templates/{templateId}', {
      params: { path: emailPath },
      body: { html: '<p>Oi</p>', body: null },
    });
    expect(toHtml.response.status).toBe(200);
    expect(toHtml.data?.data.template).toMatchObject({ body: null, html: '<p>Oi</p>', subject: emailTemplate.subject });
    const empty = await api.PATCH('/api/v1/automation/templates/{templateId}', {
      params: { path: emailPath },
      body: {},
    });
    expect(empty.response.status).toBe(400);
  });

  test('getTemplateById, updateTemplate and deleteTemplate answer 404 for unknown ids and another store’s template; deleteTemplate deletes', async ({
    api,
    otherStore,
  }) => {
    const template = (await api.POST('/api/v1/automation/templates', { body: emailTemplate })).data?.data.template;
    const path = { templateId: template?.id ?? UNKNOWN };
    const unknown = await api.GET('/api/v1/automation/templates/{templateId}', {
      params: { path: { templateId: UNKNOWN } },
    });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
    const statusOf = async (request: Promise<{ response: Response }>) => (await request).response.status;
    expect(await statusOf(otherStore.GET('/api/v1/automation/templates/{templateId}', { params: { path } }))).toBe(404);
    expect(
      await statusOf(
        otherStore.PATCH('/api/v1/automation/templates/{templateId}', { params: { path }, body: { name: 'x' } }),
      ),
    ).toBe(404);
    expect(await statusOf(otherStore.DELETE('/api/v1/automation/templates/{templateId}', { params: { path } }))).toBe(
      404,
    );
    expect(
      await statusOf(
        api.PATCH('/api/v1/automation/templates/{templateId}', {
          params: { path: { templateId: UNKNOWN } },
          body: { name: 'x' },
        }),
      ),
    ).toBe(404);
    expect(await deletion(api.DELETE('/api/v1/automation/templates/{templateId}', { params: { path } }))).toEqual(
      deletedAnswer(path.templateId),
    );
    expect(await statusOf(api.GET('/api/v1/automation/templates/{templateId}', { params: { path } }))).toBe(404);
    expect(await statusOf(api.DELETE('/api/v1/automation/templates/{templateId}', { params: { path } }))).toBe(404);
  });

  test('listTemplates filters by channel with pagination, only the store’s own', async ({
    api,
    tenant,
    otherStore,
  }) => {
    await otherStore.POST('/api/v1/automation/templates', { body: { channel: 'sms', message: 'alheio' } });
    for (const message of ['um', 'dois', 'três']) {
      await api.POST('/api/v1/automation/templates', { body: { channel: 'sms', message } });
    }
    await api.POST('/api/v1/automation/templates', { body: emailTemplate });
    const page = await api.GET('/api/v1/automation/templates', {
      params: { query: { channel: 'sms', limit: 2, page: 2 } },
    });
    expect(page.response.status).toBe(200);
    expect(page.data?.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(page.data?.data.templates.map((template) => template.message)).toEqual(['um']);
    const all = await api.GET('/api/v1/automation/templates');
    expect(all.data?.data.pagination.total).toBe(4);
    expect(all.data?.data.templates.every((template) => template.storeId === tenant.storeId)).toBe(true);
  });

  test.for([...outOfBounds, [{ channel: 'telegram' }, 'channel']] as const)(
    'listTemplates rejects the query %o with 400',
    async ([query, field], { api }) => {
      expectQueryInvalid(
        await api.GET('/api/v1/automation/templates', {
          params: { query: malformed(query) },
        }),
        field,
      );
    },
  );

  test('createTemplate and listTemplates need the automations scopes (403 AUTH_SCOPE_DENIED)', async ({
    withScopes,
  }) => {
    const readOnly = await withScopes(['automations:read']);
    expectScopeDenied([await readOnly.POST('/api/v1/automation/templates', { body: emailTemplate })]);
    expect((await readOnly.GET('/api/v1/automation/templates')).response.status).toBe(200);
    const unrelated = await withScopes(['products:read']);
    expectScopeDenied([await unrelated.GET('/api/v1/automation/templates')]);
  });
});
