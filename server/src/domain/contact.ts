// Contact rules shared by customers, leads, abandoned carts and orders.
import { detail, type ErrorDetail } from '../errors.ts';

const DOCUMENT_DIGITS: Record<string, number> = { CPF: 11, CNPJ: 14 };

/** Why a document number does not fit its type (CPF 11 digits, CNPJ 14), or undefined when it does. */
export function documentProblem(documentType: string, documentNumber: string): string | undefined {
  const digits = DOCUMENT_DIGITS[documentType];
  if (digits === undefined) return 'deve ser CPF ou CNPJ';
  return new RegExp(`^[0-9]{${digits}}$`).test(documentNumber)
    ? undefined
    : `um ${documentType} tem ${digits} dígitos, sem pontuação`;
}

// The e-mail syntax the contract's `format: email` accepts (ajv-formats, full mode).
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/**
 * Contact data coming from an admin body must fit the stricter read shape it is stored into (Customer, Lead,
 * AbandonedCart.customer): e-mail at most 254 characters, phone at most 20. Returns the problems, by body path.
 */
export function contactProblems(
  contact: { email?: string | undefined; phone?: string | null | undefined },
  prefix = '',
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (contact.email !== undefined && (contact.email.length > 254 || !EMAIL.test(contact.email))) {
    problems.push(detail('body', `${prefix}email`, 'deve ser um e-mail válido de até 254 caracteres'));
  }
  if (contact.phone !== undefined && contact.phone !== null && contact.phone.length > 20) {
    problems.push(detail('body', `${prefix}phone`, 'deve ter no máximo 20 caracteres'));
  }
  return problems;
}
