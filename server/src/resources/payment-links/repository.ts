import type { Kysely } from 'kysely';
import type { components } from '../../../../generated/openapi.ts';
import { json, money, nullableJson } from '../../db/column-codecs.ts';
import { type StoredOf, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

type Schemas = components['schemas'];
export type PaymentLink = Schemas['PaymentLink'];

const columns = {
  items: json<PaymentLink['items']>(),
  subtotal: money,
  discount: money,
  total: money,
  customer: nullableJson<Schemas['CustomerCreate']>(),
};

/** A payment link as stored: the read shape (minus the derived `url`) plus what the payment page needs. */
export type PaymentLinkRecord = StoredOf<'payment_links', typeof columns>;

export function paymentLinksRepository(db: Kysely<Database>) {
  const links = storeTable(db, 'payment_links', columns);
  return {
    ...links.operations('createPaymentLink', 'getPaymentLinkById'),
  };
}
