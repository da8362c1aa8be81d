// The document rule of a customer (CPF 11 digits, CNPJ 14), checked again on an update's result.
const DOCUMENT_DIGITS: Record<string, number> = { CPF: 11, CNPJ: 14 };

/** Why a document number does not fit its type (CPF 11 digits, CNPJ 14), or undefined when it does. */
export function documentProblem(documentType: string, documentNumber: string): string | undefined {
  const digits = DOCUMENT_DIGITS[documentType];
  if (digits === undefined) return 'deve ser CPF ou CNPJ';
  return new RegExp(`^[0-9]{${digits}}$`).test(documentNumber)
    ? undefined
    : `um ${documentType} tem ${digits} dígitos, sem pontuação`;
}
