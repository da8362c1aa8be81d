import type { RequestHandler } from 'express';
import { bodyCutter } from '../../../lib/body-bounds.ts';
import { MAX_BODY_DEPTH } from '../../../lib/storable-text.ts';
import { servedContract } from '../contract.ts';

const cutBody = bodyCutter(servedContract, MAX_BODY_DEPTH);

/**
 * What a body holds past the contract's bounds cut before the validator judges it (lib/body-bounds.ts): such a
 * request is answered as it would be all the same, at a cost the contract's bounds keep small. After
 * `requireStorableInput`, so the body nests no deeper than the walk may go.
 */
export const cutBodyPastBounds: RequestHandler = (req, _res, next) => {
  const { operation } = req.storefront;
  if (operation) cutBody(operation.operationId, operation.jsonBodySchema, req.body);
  next();
};
