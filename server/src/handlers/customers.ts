import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/openapi.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { now } from '../domain/clock.ts';
import { duplicateEntry, notFound } from '../errors.ts';
import type { CustomerRecord, CustomersRepository } from '../repositories/customers-repository.ts';
import { paginationOf } from '../repositories/pagination.ts';
import { type Handlers, ok } from '../resources/operation.ts';
import { ruleError, ruleViolation } from '../rules.ts';

type Customer = components['schemas']['Customer'];

const DOCUMENT_DIGITS: Record<string, number> = { CPF: 11, CNPJ: 14 };

/** Why a document number does not fit its type (CPF 11 digits, CNPJ 14), or undefined when it does. */
export function documentProblem(documentType: string, documentNumber: string): string | undefined {
  const digits = DOCUMENT_DIGITS[documentType];
  if (digits === undefined) return 'deve ser CPF ou CNPJ';
  return new RegExp(`^[0-9]{${digits}}$`).test(documentNumber)
    ? undefined
    : `um ${documentType} tem ${digits} dígitos, sem pontuação`;
}

/** The stored pair must still match after an update that sends only one of them (the schema checks a sent pair). */
function checkDocument(customer: CustomerRecord): void {
  const problem = documentProblem(customer.documentType, customer.documentNumber);
  if (problem) throw ruleError(ruleViolation('customer-document-digits', 'documentNumber', problem));
}

/** Stores the customer; a document already used in the store is 409 DUPLICATE_ENTRY. */
async function save(customers: CustomersRepository, customer: CustomerRecord, existing: boolean): Promise<void> {
  try {
    await (existing ? customers.replace(customer) : customers.insert(customer));
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw duplicateEntry('documentNumber', `documento já utilizado: ${customer.documentNumber}`);
    }
    throw error;
  }
}

async function readShape(customers: CustomersRepository, customer: CustomerRecord): Promise<Customer> {
  const [withStats] = await customers.withStats(customer.storeId, [customer]);
  if (!withStats) throw notFound();
  return withStats;
}

export const customerHandlers: Pick<
  Handlers,
  'listCustomers' | 'createCustomer' | 'getCustomerById' | 'updateCustomer' | 'deleteCustomer'
> = {
  async listCustomers({ storeId, query }, { repositories }) {
    const { customers, page } = await repositories.customers.list(storeId, query, query);
    return { status: 200, body: ok({ customers, pagination: paginationOf(page) }) };
  },

  async createCustomer({ storeId, body }, { repositories, events }) {
    const at = now();
    const record: CustomerRecord = {
      id: randomUUID(),
      storeId,
      name: body.name,
      email: body.email,
      phone: body.phone ?? null,
      documentType: body.documentType,
      documentNumber: body.documentNumber,
      createdAt: at,
      updatedAt: at,
    };
    checkDocument(record);
    await save(repositories.customers, record, false);
    const customer = await readShape(repositories.customers, record);
    events.emit(storeId, 'CUSTOMER_CREATED', { customer });
    return { status: 201, body: ok({ customer }) };
  },

  async getCustomerById({ storeId, path }, { repositories }) {
    const record = await repositories.customers.find(storeId, path.customerId);
    if (!record) throw notFound();
    return { status: 200, body: ok({ customer: await readShape(repositories.customers, record) }) };
  },

  async updateCustomer({ storeId, path, body }, { repositories }) {
    const current = await repositories.customers.find(storeId, path.customerId);
    if (!current) throw notFound();
    const updated: CustomerRecord = { ...current, ...body, updatedAt: now() };
    checkDocument(updated);
    await save(repositories.customers, updated, true);
    return { status: 200, body: ok({ customer: await readShape(repositories.customers, updated) }) };
  },

  async deleteCustomer({ storeId, path }, { repositories }) {
    if (!(await repositories.customers.delete(storeId, path.customerId))) throw notFound();
    return { status: 204, body: undefined };
  },
};
