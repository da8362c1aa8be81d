import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { WebhookRecord } from '../repositories/webhooks-repository.ts';
import { newWebhookSecret } from './secrets.ts';
import { webhookDelivery } from './webhook-delivery.ts';

interface Sent {
  headers: Record<string, string>;
  body: string;
}

/** One delivery exactly as the server sends it (the delivery code, its fetch captured). */
async function deliverOnce(secret: string): Promise<Sent> {
  const sent: Sent[] = [];
  const webhook: WebhookRecord = {
    id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
    storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    name: 'ERP',
    description: null,
    url: 'https://erp.example.com/hook',
    events: ['ORDER_PAID'],
    active: true,
    retryAttempts: 0,
    timeout: 1000,
    secret,
    headers: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
    sent.push({ headers: Object.fromEntries(new Headers(init?.headers)), body: String(init?.body) });
    return new Response(null, { status: 204 });
  }) as typeof globalThis.fetch;
  const delivery = webhookDelivery({
    webhooks: { subscribers: async () => [webhook] },
    retryBaseMs: 1,
    log: { info: () => undefined, warn: () => undefined },
    fetch,
  });
  await delivery.listener(webhook.storeId, 'ORDER_PAID', { order: { id: 'o1', total: 10 } });
  const [first] = sent;
  if (!first) throw new Error('nothing was delivered');
  return first;
}

describe('webhook signatures (Standard Webhooks)', () => {
  it('a delivery verifies with the standardwebhooks library on default settings and yields the payload', async () => {
    const secret = newWebhookSecret();
    const { headers, body } = await deliverOnce(secret);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual({
      id: headers['webhook-id'],
      type: 'ORDER_PAID',
      createdAt: expect.any(String),
      storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      data: { order: { id: 'o1', total: 10 } },
    });
  });

  it.each([
    ['a changed body', (s: Sent) => ({ ...s, body: s.body.replace('"total":10', '"total":1') })],
    ['a changed webhook-id', (s: Sent) => ({ ...s, headers: { ...s.headers, 'webhook-id': 'msg_forged' } })],
    [
      'a changed webhook-timestamp',
      (s: Sent) => ({
        ...s,
        headers: { ...s.headers, 'webhook-timestamp': String(Number(s.headers['webhook-timestamp']) - 1) },
      }),
    ],
  ])('a delivery with %s does not verify', async (_name, tamper) => {
    const secret = newWebhookSecret();
    const { headers, body } = tamper(await deliverOnce(secret));
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('No matching signature found');
  });

  it('a delivery does not verify with another secret', async () => {
    const { headers, body } = await deliverOnce(newWebhookSecret());
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow('No matching signature found');
  });

  it('a secret stored before the whsec_ form was required still signs with its UTF-8 bytes', async () => {
    const legacy = 'a-secret-set-before-the-rule';
    const { headers, body } = await deliverOnce(legacy);
    expect(new Webhook(legacy, { format: 'raw' }).verify(body, headers)).toMatchObject({ type: 'ORDER_PAID' });
  });
});
