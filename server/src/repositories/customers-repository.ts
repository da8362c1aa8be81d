import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { CustomersTable, Database } from '../db/schema.ts';
import { fromCents, toCents } from '../domain/orders.ts';
import { money } from './columns.ts';
import { containsPattern, newestFirstPage, type PageRequest } from './pagination.ts';

type Schemas = components['schemas'];
export type Customer = Schemas['Customer'];
/** A customer as stored: the read shape without the figures computed from the orders. */
export type CustomerRecord = Omit<Customer, 'ordersCount' | 'totalSpent'>;

export interface CustomerFilters {
  search?: string | undefined;
  documentNumber?: string | undefined;
}

type Stats = Pick<Customer, 'ordersCount' | 'totalSpent'>;

function toRow(customer: CustomerRecord): Selectable<CustomersTable> {
  return {
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
}

function toRecord(row: Selectable<CustomersTable>): CustomerRecord {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    documentType: row.document_type as Customer['documentType'],
    documentNumber: row.document_number,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Inserts the customer, or — when the store already has one with this document — updates its contact data
 * (customers are grouped by document). Runs inside the caller's transaction; true when a customer was created.
 */
export async function upsertCustomer(trx: Transaction<Database>, customer: CustomerRecord): Promise<boolean> {
  const row = toRow(customer);
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
        entry.cents += toCents(money(row.total));
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

    async insert(customer: CustomerRecord): Promise<void> {
      await db.insertInto('customers').values(toRow(customer)).execute();
    },

    async find(storeId: string, id: string): Promise<CustomerRecord | undefined> {
      const row = await db
        .selectFrom('customers')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toRecord(row);
    },

    async replace(customer: CustomerRecord): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(customer);
      await db.updateTable('customers').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('customers')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list(storeId: string, filters: CustomerFilters, request: PageRequest) {
      let query = db.selectFrom('customers').where('store_id', '=', storeId);
      if (filters.documentNumber) query = query.where('document_number', '=', filters.documentNumber);
      if (filters.search) {
        const pattern = containsPattern(filters.search);
        query = query.where((eb) =>
          eb.or([eb(sql`lower(name)`, 'like', pattern), eb(sql`lower(email)`, 'like', pattern)]),
        );
      }
      const { rows, pagination: page } = await newestFirstPage(query, request, 'asc');
      return { customers: await withStats(storeId, rows.map(toRecord)), page };
    },
  };
}

export type CustomersRepository = ReturnType<typeof customersRepository>;
