import { reason } from '../../../../lib/reasons.ts';
import { now } from '../../domain/clock.ts';
import { documentProblem } from '../../domain/contact.ts';
import { newId } from '../../domain/new-id.ts';
import { duplicateAs, found, notFound } from '../../errors.ts';
import { ruleError, ruleViolation } from '../../rules.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Deps, type Handlers, ok } from '../operation.ts';
import type { Customer, CustomerRecord } from './repository.ts';

/** The stored pair must still match after an update that sends only one of them (the schema checks a sent pair). */
function checkDocument(customer: CustomerRecord): void {
  const problem = documentProblem(customer.documentType, customer.documentNumber);
  if (problem) throw ruleError(ruleViolation('customer-document-digits', 'documentNumber', problem));
}

const documentTaken = (customer: CustomerRecord) =>
  ['documentNumber', reason('document-taken', { document: customer.documentNumber })] as const;

async function readShape({ repositories }: Deps, customer: CustomerRecord): Promise<Customer> {
  const [withStats] = await repositories.customers.withStats(customer.storeId, [customer]);
  if (!withStats) throw notFound();
  return withStats;
}

export const customerHandlers = {
  ...plainHandlers('customers', 'customer', { deleteCustomer: 'delete' }),

  async listCustomers({ storeId, query }, { repositories }) {
    const { customers, pagination } = await repositories.customers.listCustomers(storeId, query);
    return { status: 200, body: ok({ customers, pagination }) };
  },

  async createCustomer({ storeId, body }, deps) {
    const at = now();
    const record: CustomerRecord = {
      id: newId(),
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
    await duplicateAs(deps.repositories.customers.createCustomer(record), ...documentTaken(record));
    const customer = await readShape(deps, record);
    await deps.events.emit(storeId, 'CUSTOMER_CREATED', { customer });
    return { status: 201, body: ok({ customer }) };
  },

  async getCustomerById({ storeId, path }, deps) {
    const record = found(await deps.repositories.customers.getCustomerById(storeId, path.customerId));
    return { status: 200, body: ok({ customer: await readShape(deps, record) }) };
  },

  async updateCustomer({ storeId, path, body }, deps) {
    const current = found(await deps.repositories.customers.getCustomerById(storeId, path.customerId));
    const updated: CustomerRecord = { ...current, ...body, updatedAt: now() };
    checkDocument(updated);
    await duplicateAs(deps.repositories.customers.updateCustomer(updated), ...documentTaken(updated));
    return { status: 200, body: ok({ customer: await readShape(deps, updated) }) };
  },
} satisfies Partial<Handlers>;
