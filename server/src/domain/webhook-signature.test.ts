import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret } from './secrets.ts';
import { attemptHeaders, webhookMessage } from './webhook-message.ts';

interface Sent {
  headers: Record<string, string>;
  body: string;
}

/** One attempt's headers and body exactly as the delivery worker sends them. */
function deliverOnce(secret: string): Sent {
  const body = webhookMessage(
    'msg_1',
    'ORDER_PAID',
    '2026-01-01T00:00:00.000Z',
    '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    {
      order: { id: 'o1', total: 10 },
    },
  );
  const headers = attemptHeaders({ headers: null, secret }, 'msg_1', Math.floor(Date.now() / 1000), body);
  return { headers: Object.fromEntries(headers), body };
}

describe('webhook signatures (Standard Webhooks)', () => {
  it('a delivery verifies with the standardwebhooks library on default settings and yields the payload', () => {
    const secret = newWebhookSecret();
    const { headers, body } = deliverOnce(secret);
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
  ])('a delivery with %s does not verify', (_name, tamper) => {
    const secret = newWebhookSecret();
    const { headers, body } = tamper(deliverOnce(secret));
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('No matching signature found');
  });

  it('a delivery does not verify with another secret', () => {
    const { headers, body } = deliverOnce(newWebhookSecret());
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow('No matching signature found');
  });

  it('a secret stored before the whsec_ form was required still signs with its UTF-8 bytes', () => {
    const legacy = 'a-secret-set-before-the-rule';
    const { headers, body } = deliverOnce(legacy);
    expect(new Webhook(legacy, { format: 'raw' }).verify(body, headers)).toMatchObject({ type: 'ORDER_PAID' });
  });
});
