/**
 * A connection to PostgreSQL with the server's own settings (`-c name=value`) added to any `options` that
 * DATABASE_URL carries. pg lets a connection string's `options` replace the ones it is given beside it, so a URL
 * with `?options=-c statement_timeout=5000` used to drop the server's search_path (DATABASE_SCHEMA) and plan
 * settings without a word. The URL's options come first: where both set one name, the server's setting wins.
 */
export function withServerOptions(
  connectionString: string,
  serverOptions: string,
): { connectionString: string; options: string } {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    // A form URL does not read (pg's own key=value strings): pg reads it, and it has no `options` of this kind.
    return { connectionString, options: serverOptions };
  }
  const fromUrl = url.searchParams.get('options');
  if (fromUrl === null) return { connectionString, options: serverOptions };
  url.searchParams.delete('options');
  return { connectionString: url.toString(), options: `${fromUrl} ${serverOptions}` };
}
