// The outcome of one check: a failure (with the exchange that shows it), a skip (with its reason), a result.
import type { Exchange } from './http.ts';

export class Failure extends Error {
  readonly exchange: Exchange | undefined;
  constructor(message: string, exchange?: Exchange) {
    super(message);
    this.exchange = exchange;
  }
}

export class Skip extends Error {}

export interface Result {
  operationId: string;
  rule: string;
  outcome: 'pass' | 'fail' | 'skip';
  message?: string;
  exchange?: string;
}
