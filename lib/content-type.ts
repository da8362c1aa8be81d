/** The `charset` parameter of a Content-Type header, in lower case, when it has one (`"utf-8"` unquoted). */
export const charsetOf = (contentType: string): string | undefined =>
  /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType)?.[1]?.toLowerCase();

/** The UTF-8 byte order mark a JSON body may start with: the server's parser skips it, and so does the mock. */
export const UTF8_BOM: Readonly<Buffer> = Buffer.from([0xef, 0xbb, 0xbf]);
