import type { RequestHandler } from 'express';
import { bodyArrayCutter } from '../../../lib/array-bounds.ts';
import { MAX_BODY_DEPTH } from '../../../lib/storable-text.ts';
import { servedContract } from '../contract.ts';

const cutBody = bodyArrayCutter(servedContract, MAX_BODY_DEPTH);

/**
 * A body's arrays longer than their `maxItems` cut to one item past it before the validator judges the body
 * (lib/array-bounds.ts): such a request is refused for the array's length all the same, at a cost the contract's
 * bounds keep small. After `requireStorableInput`, so the body nests no deeper than the walk may go.
 */
export const cutOverlongBodyArrays: RequestHandler = (req, _res, next) => {
  const { operation } = req.storefront;
  if (operation) cutBody(operation.operationId, operation.jsonBodySchema, req.body);
  next();
};
