import type { Kysely, Transaction } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { money } from '../../db/column-codecs.ts';
import { ANSWERED_LATER_SQL } from '../../db/pg-answered-later.ts';
import { filtered, storeTable } from '../../db/store-table.ts';
import { fromCents, toCents } from '../../domain/pricing.ts';
import type { Database } from '../index.ts';

export type Customer = components['schemas']['Customer'];
/** A customer as stored: the read shape without the figures computed from the orders. */
export type CustomerRecord = Omit<Customer, 'ordersCount' | 'totalSpent'>;
type ListCustomersQuery = NonNullable<operations['listCustomers']['parameters']['query']>;
type Stats = Pick<Customer, 'ordersCount' | 'totalSpent'>;

/**
 * Inserts the customer, or — when the store already has one with this document — updates its contact data
 * (customers are grouped by document). Runs inside the caller's transaction (createOrder); true when a customer
 * was created.
 */
export async function upsertCustomer(trx: Transaction<Database>, customer: CustomerRecord): Promise<boolean> {
  const row = {
    id: customer.id,
    store_id: customer.storeId,
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    document_type: customer.documentType,
    document_number: customer.documentNumber,
    created_at: customer.createdAt,
    updated_at: customer.updatedAt,
  };
  await trx
    .insertInto('customers')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['store_id', 'document_number']).doUpdateSet({
        name: row.name,
        email: row.email,
        phone: row.phone,
        document_type: row.document_type,
        updated_at: row.updated_at,
      }),
    )
    // The read that follows answers for it (pg-answered-later.ts).
    .modifyEnd(ANSWERED_LATER_SQL)
    .execute();
  const stored = await trx
    .selectFrom('customers')
    .select('id')
    .where('store_id', '=', customer.storeId)
    .where('document_number', '=', customer.documentNumber)
    .executeTakeFirst();
  return stored?.id === customer.id;
}

export function customersRepository(db: Kysely<Database>) {
  const customers = storeTable(db, 'customers', {});

  /** ordersCount and totalSpent of each document, from the store's orders. */
  async function statsOf(storeId: string, documents: readonly string[]): Promise<Map<string, Stats>> {
    const stats = new Map<string, { ordersCount: number; cents: number }>();
    if (documents.length > 0) {
      const rows = await db
        .selectFrom('orders')
        .select(['customer_document_number', 'total'])
        .where('store_id', '=', storeId)
        .where('customer_document_number', 'in', [...new Set(documents)])
        .execute();
      for (const row of rows) {
        const entry = stats.get(row.customer_document_number) ?? { ordersCount: 0, cents: 0 };
        entry.ordersCount += 1;
        entry.cents += toCents(money.fromColumn(row.total));
        stats.set(row.customer_document_number, entry);
      }
    }
    return new Map(
      documents.map((document) => {
        const entry = stats.get(document);
        return [document, { ordersCount: entry?.ordersCount ?? 0, totalSpent: fromCents(entry?.cents ?? 0) }];
      }),
    );
  }

  /** The read shape: each customer with the figures of its document's orders. */
  async function withStats(storeId: string, records: CustomerRecord[]): Promise<Customer[]> {
    const stats = await statsOf(
      storeId,
      records.map((record) => record.documentNumber),
    );
    return records.map((record) => ({
      ...record,
      ...(stats.get(record.documentNumber) ?? { ordersCount: 0, totalSpent: 0 }),
    }));
  }

  return {
    withStats,
    /** createCustomer and updateCustomer throw `DuplicateRecord` for a document already used in the store. */
    ...customers.operations('createCustomer', 'getCustomerById', 'updateCustomer', 'deleteCustomer'),

    async listCustomers(storeId: string, query: ListCustomersQuery) {
      const { records, pagination } = await customers.page(
        storeId,
        query,
        (rows) =>
          filtered(
            rows,
            { document_number: query.documentNumber },
            { text: query.search, searchIn: ['name', 'email'] },
          ),
        'asc',
      );
      return { customers: await withStats(storeId, records), pagination };
    },
  };
}
