/**
 * Sends one POST and answers its HTTP status; throws on a timeout or a connection error. The shape of the
 * SSRF-guarded `webhookSender(policy)` of domain/ssrf-guard.ts, which replaces `fetchSender` where the worker is
 * built (app.ts).
 */
export type WebhookSender = (post: {
  url: string;
  headers: Headers;
  body: string;
  timeoutMs: number;
}) => Promise<number>;

/** The global fetch, following no redirect; the response body is discarded. */
export const fetchSender: WebhookSender = async ({ url, headers, body, timeoutMs }) => {
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  await response.body?.cancel();
  return response.status;
};
