/**
 * What a change tells the rest of the store (webhooks, automations). Handlers await it after their writes: it
 * writes the event's deliveries and automation runs through the same database handle as the change, so they
 * commit together (the outbox), and the delivery worker sends and runs them.
 */
export interface DomainEvents {
  emit(storeId: string, name: string, payload: Record<string, unknown>): Promise<void>;
}
