// The document rule of a customer (CPF 11 digits, CNPJ 14), checked again on an update's result: the contract's
// `customer-document-digits` rule, one branch per document type.

import { type Reason, reason } from '../../../lib/reasons.ts';
import { ruleSchemas, valueAt } from '../contract.ts';

/** Each document type's pattern, from the rule's branches (`if` the type, `then` the number's pattern). */
const DOCUMENT_PATTERNS = new Map<string, string>();
for (const branch of ruleSchemas('customer-document-digits')) {
  const type = valueAt(branch, ['if', 'properties', 'documentType', 'const']);
  const pattern = valueAt(branch, ['then', 'properties', 'documentNumber', 'pattern']);
  if (typeof type !== 'string' || typeof pattern !== 'string') {
    throw new Error("the contract's rule customer-document-digits has a branch without a document type and pattern");
  }
  if ((DOCUMENT_PATTERNS.get(type) ?? pattern) !== pattern) {
    throw new Error(`the contract's rule customer-document-digits gives ${type} two patterns`);
  }
  DOCUMENT_PATTERNS.set(type, pattern);
}

/** Why a document number does not fit its type (CPF 11 digits, CNPJ 14), or undefined when it does. */
export function documentProblem(documentType: string, documentNumber: string): Reason | undefined {
  const pattern = DOCUMENT_PATTERNS.get(documentType);
  if (pattern === undefined)
    return reason('customer-document-digits.type-unknown', { types: [...DOCUMENT_PATTERNS.keys()] });
  if (new RegExp(pattern, 'u').test(documentNumber)) return undefined;
  const digits = /\{(\d+)\}/.exec(pattern)?.[1] ?? '';
  return reason('customer-document-digits', { documentType, digits });
}
