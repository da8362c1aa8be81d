import type { DomainEvents } from './events.ts';

export type EventListener = (storeId: string, name: string, payload: Record<string, unknown>) => void | Promise<void>;

export interface EventBus extends DomainEvents {
  subscribe(listener: EventListener): void;
  /** Resolves when every listener call started so far has finished (used at shutdown and in tests). */
  settled(): Promise<void>;
}

/**
 * In-process fan-out of store events (order paid, product created, ...) to webhook delivery and automations.
 * A listener's failure is reported, never thrown into the request that emitted the event.
 */
export function createEventBus(onError: (error: unknown) => void): EventBus {
  const listeners: EventListener[] = [];
  const running = new Set<Promise<void>>();
  return {
    subscribe: (listener) => {
      listeners.push(listener);
    },
    emit(storeId, name, payload) {
      for (const listener of listeners) {
        const call = Promise.resolve()
          .then(() => listener(storeId, name, payload))
          .catch(onError)
          .finally(() => running.delete(call));
        running.add(call);
      }
    },
    async settled() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
