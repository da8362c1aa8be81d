/** The clock of every stored timestamp: ISO 8601 in UTC with milliseconds. */
export const now = (): string => new Date().toISOString();
