/** The `charset` parameter of a Content-Type header, in lower case, when it has one (`"utf-8"` unquoted). */
export const charsetOf = (contentType: string): string | undefined =>
  /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType)?.[1]?.toLowerCase();
