/** What a change tells the rest of the store (webhooks, automations); handlers call it after the change. */
export interface DomainEvents {
  emit(storeId: string, name: string, payload: Record<string, unknown>): void;
}
