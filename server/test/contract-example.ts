import { expect } from 'vitest';
import { loadContract } from '../src/contract.ts';

interface ErrorExample {
  error: unknown;
  meta: { status: number; timestamp: string };
}

/**
 * The contract's named error example (`components.examples`) as a response body must equal it: the same
 * envelope, any timestamp. For comparing whole error bodies with what the contract promises.
 */
export function asContractExample(name: string): ErrorExample {
  const { components } = loadContract() as { components?: { examples?: Record<string, { value?: unknown }> } };
  const value = components?.examples?.[name]?.value as ErrorExample | undefined;
  if (!value) throw new Error(`openapi.yaml has no example ${name}`);
  return { ...value, meta: { ...value.meta, timestamp: expect.any(String) } };
}
