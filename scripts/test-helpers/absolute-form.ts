import http from 'node:http';

/**
 * A GET of `url` with its request target in absolute form (`GET http://host/path HTTP/1.1`), as a client configured
 * with a proxy sends it; fetch always sends the origin form. Its status and parsed JSON body.
 */
export function getInAbsoluteForm(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.get({ hostname, port, path: url, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
    });
    request.on('error', reject);
  });
}
