/** A string the POSIX shell reads back as exactly `text`: printed commands stay right whatever a path holds. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
