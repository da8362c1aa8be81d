// The Portuguese reason of an `error.details` entry for each JSON Schema keyword that failed (the contract's
// ErrorDetail.reason is "what is wrong, in Portuguese"). Shared so the mock words a violation as a server would.
const VALIDATION_REASONS: Readonly<Record<string, string>> = {
  required: 'campo obrigatório',
  type: 'tipo inválido',
  minLength: 'texto curto demais',
  maxLength: 'texto longo demais',
  minimum: 'valor abaixo do mínimo',
  maximum: 'valor acima do máximo',
  exclusiveMinimum: 'valor abaixo do mínimo',
  exclusiveMaximum: 'valor acima do máximo',
  pattern: 'formato inválido',
  format: 'formato inválido',
  enum: 'valor não permitido',
  const: 'valor não permitido',
  minItems: 'itens de menos',
  maxItems: 'itens demais',
  uniqueItems: 'itens repetidos',
  additionalProperties: 'campo não permitido',
  minProperties: 'envie ao menos um campo',
  maxProperties: 'campos demais',
  oneOf: 'não corresponde a nenhuma das formas aceitas',
  anyOf: 'não corresponde a nenhuma das formas aceitas',
  discriminator: 'tipo de passo inválido',
  if: 'não atende às regras condicionais do esquema',
};

/** A reason for a failed keyword, with the validator's own message in parentheses when there is one. */
export function validationReason(keyword: string, message?: string): string {
  const reason = VALIDATION_REASONS[keyword];
  if (!reason) return message ?? 'inválido';
  return message ? `${reason} (${message})` : reason;
}

/** A property that is missing, worded as the server's validator (ajv) words it. */
export function missingReason(name: string): string {
  return validationReason('required', `must have required property '${name}'`);
}

/** Text that is not of a format of the contract, worded as the server's validator (ajv) words it. */
export function formatReason(format: string): string {
  return validationReason('format', `must match format "${format}"`);
}

/** The reason for a body that is not JSON: the parser's own account of where it stopped (`JSON.parse`'s message). */
export function malformedJsonReason(parserMessage: string): string {
  return `JSON malformado: ${parserMessage}`;
}
