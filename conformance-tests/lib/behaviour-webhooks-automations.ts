import { assert, type BehaviourTest, data } from './behaviour-kit.ts';
import type { JsonObject } from './contract.ts';
import { expectResponse } from './expect.ts';
import { randomText } from './values.ts';

export const webhookAndAutomationBehaviour: BehaviourTest[] = [
  {
    operationId: 'createWebhook',
    rule: 'the webhook secret is never returned (create, read, list, update), hasSecret says it is set',
    needs: ['state'],
    async run(s) {
      const op = s.operation('createWebhook');
      const request = await s.validRequest(op);
      const secret = `whsec_${randomText(32)}`; // the contract's form: whsec_ and the base64 of 24 bytes
      const created = await expectResponse(
        s,
        op,
        'create with a secret',
        { ...request, body: { ...(request.body as JsonObject), secret } },
        { status: 201 },
      );
      const webhook = data(created.response.json).webhook as JsonObject;
      const leaks = (text: string) => text.includes(secret) || /"secret"\s*:/.test(text);
      assert(!leaks(created.response.body), 'createWebhook — the response returns the secret', created);
      assert(webhook.hasSecret === true, 'createWebhook — hasSecret is not true after setting a secret', created);
      const reads: [string, JsonObject | undefined, Record<string, string> | undefined][] = [
        ['getWebhookById', { webhookId: String(webhook.id) }, undefined],
        ['listWebhooks', undefined, undefined],
        ['updateWebhook', { webhookId: String(webhook.id) }, undefined],
      ];
      for (const [operationId, pathParams] of reads) {
        const read = s.operation(operationId);
        const body = read.method === 'patch' ? { name: `Conformance ${randomText(6)}` } : undefined;
        const exchange = await expectResponse(
          s,
          read,
          'the secret is never returned',
          {
            headers: await s.authHeaders(read),
            pathParams: (pathParams ?? {}) as Record<string, string>,
            ...(body ? { body } : {}),
          },
          { success: true },
        );
        assert(!leaks(exchange.response.body), `${operationId} — the response returns the webhook secret`, exchange);
      }
    },
  },
  {
    operationId: 'createAutomation',
    rule: 'automations are created inactive, and PATCH active: true switches them on',
    needs: ['state'],
    async run(s) {
      const op = s.operation('createAutomation');
      const request = await s.validRequest(op);
      const created = await expectResponse(s, op, 'created inactive', request, { status: 201 });
      const automation = data(created.response.json).automation as JsonObject;
      assert(
        automation.active === false,
        `createAutomation — a new automation has active: ${JSON.stringify(automation.active)}`,
        created,
      );
      const get = s.operation('getAutomationById');
      const read = await expectResponse(
        s,
        get,
        'read back inactive',
        { headers: await s.authHeaders(get), pathParams: { automationId: String(automation.id) } },
        { status: 200 },
      );
      assert(
        (data(read.response.json).automation as JsonObject).active === false,
        'getAutomationById — the automation read back is active',
        read,
      );
      const update = s.operation('updateAutomation');
      const patched = await expectResponse(
        s,
        update,
        'switch on',
        {
          headers: await s.authHeaders(update),
          pathParams: { automationId: String(automation.id) },
          body: { active: true },
        },
        { status: 200 },
      );
      assert(
        (data(patched.response.json).automation as JsonObject).active === true,
        'updateAutomation — active: true did not switch the flow on',
        patched,
      );
    },
  },
  {
    operationId: 'validateAutomation',
    rule: 'validating an automation stores nothing and echoes active: false',
    needs: ['state'],
    async run(s) {
      const list = s.operation('listAutomations');
      const total = async () => {
        const exchange = await expectResponse(
          s,
          list,
          'count',
          { headers: await s.authHeaders(list) },
          { status: 200 },
        );
        return Number((data(exchange.response.json).pagination as JsonObject | undefined)?.total ?? Number.NaN);
      };
      const before = await total();
      const op = s.operation('validateAutomation');
      const request = await s.validRequest(op);
      const name = `Conformance ${randomText(8)}`;
      const validated = await expectResponse(
        s,
        op,
        'validate',
        { ...request, body: { ...(request.body as JsonObject), name } },
        { status: 200 },
      );
      assert(
        (data(validated.response.json).automation as JsonObject | undefined)?.active === false,
        'validateAutomation — the echoed automation is not active: false',
        validated,
      );
      const after = await total();
      assert(
        before === after,
        `listAutomations — validate stored an automation (total ${before} → ${after})`,
        s.http.last,
      );
    },
  },
];
