import type { Logger } from 'pino';
import type { components, operations } from '../../../generated/openapi.ts';
import type { OperationId } from '../contract.ts';
import type { DomainEvents } from '../domain/events.ts';
import type { NetworkPolicy } from '../domain/ssrf-guard.ts';
import { notFound } from '../errors.ts';
import type { Repositories } from './index.ts';

type Operation<Op extends OperationId> = operations[Op];
type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : undefined;
type SuccessStatus<Op extends OperationId> = Extract<keyof Operation<Op>['responses'], 200 | 201 | 202>;

/** A handler's answer: one of the operation's success statuses with exactly the body the contract gives it. */
export type Reply<Op extends OperationId> = {
  [Status in SuccessStatus<Op>]: {
    status: Status;
    body: JsonOf<Operation<Op>['responses'][Status]>;
    headers?: Record<string, string>;
  };
}[SuccessStatus<Op>];

type Parameters<Op extends OperationId> = Operation<Op>['parameters'];
type Slot<P, K extends string> = P extends { [Key in K]?: infer Value } ? NonNullable<Value> : never;
type BodyOf<Op extends OperationId> =
  Operation<Op> extends { requestBody?: infer Body } ? JsonOf<NonNullable<Body>> : undefined;

/** What a handler receives: validated input (typed from the contract) and who is asking. */
export interface Input<Op extends OperationId> {
  path: Slot<Parameters<Op>, 'path'>;
  query: Slot<Parameters<Op>, 'query'>;
  body: BodyOf<Op>;
  /** The store the request is confined to (v1: `X-Store-Id`; checkout: the key's store; admin: none). */
  storeId: string;
  log: Logger;
}

export interface Deps {
  repositories: Repositories;
  /** Called after a change a webhook or automation may care about. */
  events: DomainEvents;
  /** Which webhook URLs may be registered (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
  network: NetworkPolicy;
}

export type Handler<Op extends OperationId> = (input: Input<Op>, deps: Deps) => Promise<Reply<Op>>;
export type Handlers = { [Op in OperationId]: Handler<Op> };

/** `{ success: true, data }` — the documented success envelope. */
export function ok<Data>(data: Data): { success: true; data: Data } {
  return { success: true, data };
}

/**
 * A delete's answer: `{ id, deleted: true }` when the record `id` was deleted, 404 RESOURCE_NOT_FOUND when there
 * was none.
 */
export function deleted(id: string, done: boolean): { status: 200; body: components['schemas']['DeletedResponse'] } {
  if (!done) throw notFound();
  return { status: 200, body: ok({ id, deleted: true }) };
}
