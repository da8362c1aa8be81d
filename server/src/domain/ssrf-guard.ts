import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { type Reason, reason } from '../../../lib/reasons.ts';

/** Which webhook destinations the server may call (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
export interface NetworkPolicy {
  /** Loopback, private and other non-public addresses and local names are allowed (local development, tests). */
  allowPrivateNetworks: boolean;
}

/**
 * IPv4-compatible IPv6 (`::a.b.c.d`, deprecated by RFC 4291): ipaddr.js calls it `unicast`, but its last 32 bits are
 * an IPv4 address (`[::127.0.0.1]`), and no public service is reached through one.
 */
const IPV4_COMPATIBLE = '::/96';
const ipv4Compatible = ipaddr.parseCIDR(IPV4_COMPATIBLE);

/**
 * The range of an address as the guard judges it: ipaddr.js's, with IPv4-compatible IPv6 named apart where ipaddr.js
 * calls it `unicast` (`::1` and `::` in that block keep their own names, loopback and unspecified).
 */
function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = address.range();
  return range === 'unicast' && address.kind() === 'ipv6' && address.match(ipv4Compatible) ? 'ipv4Compatible' : range;
}

/**
 * Names that resolve inside the host or its network rather than on the internet: `localhost` and its subdomains
 * (RFC 6761), mDNS `.local`, the `.internal`/`.localdomain`/`.home.arpa` conventions (cloud metadata lives at
 * `metadata.google.internal`), and single-label names that the resolver's search list completes.
 */
function isLocalName(hostname: string): boolean {
  if (!hostname.includes('.')) return true;
  return /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/.test(hostname);
}

/**
 * Why `raw` may not be a webhook URL (a Portuguese reason for `error.details`), or undefined when it may.
 * The WHATWG parser first turns every IPv4 spelling (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`) into
 * dotted form; ipaddr.js then names the range, and only `unicast` (public) addresses pass — so loopback, private,
 * link-local, unique-local, CGNAT, multicast, unspecified, IPv4-mapped/translated IPv6 and reserved are refused.
 */
export function webhookUrlProblem(raw: string, policy: NetworkPolicy): Reason | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return reason('webhook-url-public.invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return reason('webhook-url-public.scheme');
  if (url.username !== '' || url.password !== '') return reason('webhook-url-public.credentials');
  if (policy.allowPrivateNetworks) return undefined;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
  if (ipaddr.isValid(hostname)) {
    const range = rangeOf(ipaddr.parse(hostname));
    return range === 'unicast' ? undefined : reason('webhook-url-public.address-not-public', { range });
  }
  return isLocalName(hostname) ? reason('webhook-url-public.local-name') : undefined;
}

const REFUSED_AFTER_LOOKUP = /^DNS lookup .* is not allowed\b/;
const RESOLVED_NOT_PUBLIC = reason('webhook-url-public.resolved-not-public');

/** The URL was refused before any connection was made. */
export class UnsafeWebhookUrlError extends Error {
  override name = 'UnsafeWebhookUrlError';
}

export interface WebhookPost {
  url: string;
  headers: Headers;
  body: string;
  timeoutMs: number;
}

/** POSTs one delivery and resolves with the receiver's status; rejects on refusal, timeout or network error. */
export type WebhookSender = (post: WebhookPost) => Promise<number>;

/**
 * The only way the server calls a webhook. The URL is checked again (it may predate the guard), and the
 * connection goes through request-filtering-agent, which checks the address actually connected to after DNS
 * resolution, so a public-looking name that resolves to 127.0.0.1 (DNS rebinding) is never sent to. Redirects
 * are not followed (the 3xx status is the answer), and the whole exchange up to the response headers is bounded
 * by `timeoutMs`. The response body is discarded unread. `lookup` replaces DNS (tests).
 */
export function webhookSender(policy: NetworkPolicy, lookup?: LookupFunction): WebhookSender {
  const filter = {
    allowPrivateIPAddress: policy.allowPrivateNetworks,
    allowMetaIPAddress: false,
    denyIPAddressList: policy.allowPrivateNetworks ? [] : [IPV4_COMPATIBLE],
    keepAlive: false,
  };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
  return ({ url, headers, body, timeoutMs }) => {
    const problem = webhookUrlProblem(url, policy);
    if (problem) return Promise.reject(new UnsafeWebhookUrlError(problem));
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    return new Promise<number>((resolve, reject) => {
      const outgoing = send(target, {
        method: 'POST',
        headers: { ...Object.fromEntries(headers), 'content-length': String(Buffer.byteLength(body)) },
        agent: secure ? agents.https : agents.http,
        signal: AbortSignal.timeout(timeoutMs),
        ...(lookup ? { lookup } : {}),
      });
      outgoing.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        response.destroy();
      });
      // request-filtering-agent refuses an address found only after DNS with a message naming it: the refusal
      // is reported as such, without the address (delivery attempts are listed through the API).
      outgoing.on('error', (error) =>
        reject(REFUSED_AFTER_LOOKUP.test(error.message) ? new UnsafeWebhookUrlError(RESOLVED_NOT_PUBLIC) : error),
      );
      outgoing.end(body);
    });
  };
}
