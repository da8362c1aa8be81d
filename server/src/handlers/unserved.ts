import { contractOperations } from '../contract.ts';
import type { Handlers } from './types.ts';

// TEMPORARY while the resource groups of part 2 are being built: every operation not yet implemented
// answers 500 INTERNAL_ERROR. This file is deleted when the last group lands.
export const unservedHandlers = Object.fromEntries(
  contractOperations.map((operation) => [
    operation.operationId,
    async () => {
      throw new Error(`${operation.operationId} is not served yet`);
    },
  ]),
) as unknown as Handlers;
