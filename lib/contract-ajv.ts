import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ContractDocument } from './contract.ts';
import { CONTRACT_FORMATS } from './formats.ts';

/**
 * An ajv with the contract in it (`contract#<pointer>` names any of its schemas) that reads a body as the server's
 * validator does: every error, the formats and the contract's narrower ones, and Infinity no number (strictNumbers).
 */
export function contractAjv(contract: ContractDocument): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, strictNumbers: true, allErrors: true, validateFormats: true });
  (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
  for (const [name, format] of Object.entries(CONTRACT_FORMATS)) ajv.addFormat(name, format);
  ajv.addSchema(contract.doc as object, 'contract');
  return ajv;
}
