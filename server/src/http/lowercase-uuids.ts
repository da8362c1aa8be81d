import type { RequestHandler } from 'express';
import { UUID } from '../../../lib/uuid.ts';

// Uuids are accepted in any letter case (contract, info: Query strings) and stored in lower case, so an id read
// back compares equal to the one a client sent in upper case.
const UUID_IN_URL = /(?<=[/=])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=$|[/?&#])/gi;

/** `/api/v1/products/6F1C…?categoryId=A1B2…` → the same with both uuids in lower case (before routing). */
export const lowercaseUrlUuids: RequestHandler = (req, _res, next) => {
  if (/[A-F]/.test(req.originalUrl)) {
    const lower = (url: string) => url.replace(UUID_IN_URL, (id) => id.toLowerCase());
    req.url = lower(req.url);
    req.originalUrl = lower(req.originalUrl);
  }
  next();
};

/** A body key that holds ids by the contract's naming: `id`, `productId`, `productIds`, `template_id`. */
const ID_KEY = /(^id$|Ids?$|_id$)/;

function lowercaseIds(value: unknown, idKey: boolean): unknown {
  if (typeof value === 'string') return idKey && UUID.test(value) ? value.toLowerCase() : value;
  if (Array.isArray(value)) return value.map((item) => lowercaseIds(item, idKey));
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(object)) object[key] = lowercaseIds(item, ID_KEY.test(key));
  }
  return value;
}

/** The id fields of a parsed JSON body in lower case (free text is left as sent). */
export const lowercaseBodyUuids: RequestHandler = (req, _res, next) => {
  lowercaseIds(req.body, false);
  next();
};
