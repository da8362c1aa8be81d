import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsafeWebhookUrlError, webhookSender, webhookUrlProblem } from './ssrf-guard.ts';

const strict = { allowPrivateNetworks: false };
const relaxed = { allowPrivateNetworks: true };

describe('webhookUrlProblem', () => {
  it.each([
    ['loopback', 'http://127.0.0.1/hook'],
    ['loopback elsewhere in 127/8', 'https://127.10.20.30/hook'],
    ['localhost', 'http://localhost/hook'],
    ['localhost in capitals with a trailing dot', 'http://LOCALHOST./hook'],
    ['a subdomain of localhost', 'http://api.localhost/hook'],
    ['IPv6 loopback', 'http://[::1]/hook'],
    ['unspecified IPv4', 'http://0.0.0.0/hook'],
    ['unspecified IPv6', 'http://[::]/hook'],
    ['decimal IPv4', 'http://2130706433/hook'],
    ['hex IPv4', 'http://0x7f000001/hook'],
    ['octal IPv4', 'http://0177.0.0.1/hook'],
    ['short IPv4', 'http://127.1/hook'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]/hook'],
    ['IPv4-mapped IPv6 of a public address', 'http://[::ffff:8.8.8.8]/hook'],
    ['NAT64 of loopback', 'http://[64:ff9b::7f00:1]/hook'],
    ['IPv4-compatible IPv6 of loopback', 'http://[::127.0.0.1]/hook'],
    ['IPv4-compatible IPv6 in hex', 'http://[::1:bad]/hook'],
    ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data'],
    ['cloud metadata by name', 'http://metadata.google.internal/computeMetadata/v1'],
    ['private 10/8', 'http://10.0.0.1/hook'],
    ['private 172.16/12', 'http://172.16.5.4/hook'],
    ['private 192.168/16', 'http://192.168.1.1/hook'],
    ['CGNAT', 'http://100.64.0.1/hook'],
    ['IPv6 unique-local', 'http://[fd12:3456::1]/hook'],
    ['IPv6 link-local', 'http://[fe80::1]/hook'],
    ['IPv4 multicast', 'http://224.0.0.1/hook'],
    ['IPv6 multicast', 'http://[ff02::1]/hook'],
    ['broadcast', 'http://255.255.255.255/hook'],
    ['reserved 240/4', 'http://240.0.0.1/hook'],
    ['mDNS name', 'http://printer.local/hook'],
    ['single-label name', 'http://intranet/hook'],
    ['a public host with a port on a private address', 'http://10.1.2.3:8443/hook'],
  ])('refuses %s (%s)', (_name, url) => {
    expect(webhookUrlProblem(url, strict)).toEqual(expect.any(String));
  });

  it.each([
    ['http://[::1]/hook', 'loopback'],
    ['http://[::]/hook', 'unspecified'],
    ['http://[::127.0.0.1]/hook', 'ipv4Compatible'],
    ['http://[::ffff:127.0.0.1]/hook', 'ipv4Mapped'],
    ['http://169.254.169.254/latest/meta-data', 'linkLocal'],
  ])('names the range of the address it refuses: %s is %s', (url, range) => {
    expect(webhookUrlProblem(url, strict)).toBe(`o endereço não é público (${range})`);
  });

  it.each([
    ['userinfo', 'https://user:pass@hooks.example.com/hook', 'usuário ou senha'],
    ['a user without password', 'https://token@hooks.example.com/hook', 'usuário ou senha'],
    ['ftp', 'ftp://hooks.example.com/hook', 'http ou https'],
    ['file', 'file:///etc/passwd', 'http ou https'],
    ['javascript', 'javascript:alert(1)', 'http ou https'],
    ['gopher', 'gopher://hooks.example.com/', 'http ou https'],
    ['not a URL', 'http://', 'URL inválida'],
  ])('refuses %s even where private networks are allowed', (_name, url, reason) => {
    expect(webhookUrlProblem(url, strict)).toContain(reason);
    expect(webhookUrlProblem(url, relaxed)).toContain(reason);
  });

  it.each([
    'https://erp.lojadamaria.com.br/webhooks/storefront',
    'http://hooks.example.com:8080/x?tenant=1',
    'https://8.8.8.8/hook',
    'https://[2001:4860:4860::8888]/hook',
    'https://xn--lojadamara-ceb.com.br/hook',
  ])('accepts the public URL %s', (url) => {
    expect(webhookUrlProblem(url, strict)).toBeUndefined();
  });

  it.each(['http://127.0.0.1:3001/hook', 'http://localhost/hook', 'http://[::1]/hook', 'http://10.0.0.1/hook'])(
    'accepts %s when private networks are allowed',
    (url) => {
      expect(webhookUrlProblem(url, relaxed)).toBeUndefined();
    },
  );
});

describe('webhookSender', () => {
  const received: string[] = [];
  let receiver: Server;
  let port: number;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.push(req.url ?? '');
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/redirected` }).end();
      } else if (req.url === '/silent') {
        // Never answers: the sender's timeout has to end the attempt.
      } else {
        res.writeHead(204).end();
      }
    });
    receiver.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => receiver.once('listening', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  /** DNS that answers `address` for every name, as a rebinding attacker's name server would. */
  const resolvesTo = (address: string, family: 4 | 6) =>
    ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    }) as unknown as LookupFunction;
  const resolvesToLoopback = resolvesTo('127.0.0.1', 4);

  const post = (url: string, timeoutMs = 5000) => ({
    url,
    headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer partner-token' }),
    body: '{"id":"msg_1"}',
    timeoutMs,
  });

  it('does not send to a public-looking name that resolves to loopback (DNS rebinding)', async () => {
    received.length = 0;
    const send = webhookSender(strict, resolvesToLoopback);
    const rebound = send(post(`http://hooks.example.com:${port}/rebound`));
    await expect(rebound).rejects.toBeInstanceOf(UnsafeWebhookUrlError);
    await expect(rebound).rejects.toThrow('o nome resolve para um endereço que não é público');
    expect(received).toEqual([]);
    // The same name and lookup reach the receiver once private networks are allowed: the refusal above was the
    // address check, not a broken lookup.
    const relaxedSend = webhookSender(relaxed, resolvesToLoopback);
    expect(await relaxedSend(post(`http://hooks.example.com:${port}/rebound`))).toBe(204);
    expect(received).toEqual(['/rebound']);
  });

  it('does not send to a name that resolves to an IPv4-compatible IPv6 address (::7f00:1, loopback in its last 32 bits)', async () => {
    const rebound = webhookSender(strict, resolvesTo('::7f00:1', 6))(post(`http://hooks.example.com:${port}/v6`));
    await expect(rebound).rejects.toBeInstanceOf(UnsafeWebhookUrlError);
    await expect(rebound).rejects.toThrow('o nome resolve para um endereço que não é público');
  });

  it('refuses a stored URL that the create-time check would refuse, before connecting', async () => {
    received.length = 0;
    const send = webhookSender(strict);
    await expect(send(post(`http://127.0.0.1:${port}/direct`))).rejects.toBeInstanceOf(UnsafeWebhookUrlError);
    await expect(send(post(`http://2130706433:${port}/decimal`))).rejects.toBeInstanceOf(UnsafeWebhookUrlError);
    await expect(send(post(`http://localhost:${port}/named`))).rejects.toBeInstanceOf(UnsafeWebhookUrlError);
    expect(received).toEqual([]);
  });

  it('answers the redirect status without following it', async () => {
    received.length = 0;
    const send = webhookSender(relaxed);
    expect(await send(post(`http://127.0.0.1:${port}/redirect`))).toBe(302);
    expect(received).toEqual(['/redirect']);
  });

  it('gives up on a receiver that never answers', async () => {
    const send = webhookSender(relaxed);
    await expect(send(post(`http://127.0.0.1:${port}/silent`, 100))).rejects.toThrow(/aborted|timeout/i);
  });
});
