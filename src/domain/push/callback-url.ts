import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may be sent (docs/architecture.md, Push): the SSRF rules, as pure
 * functions. `checkCallbackUrl` judges the URL when a subscription is
 * created; `forbiddenAddress` judges every address the callback's host
 * resolves to, at creation and again at every connection (so a DNS answer
 * that changes after the check, DNS rebinding, is caught when it is used).
 *
 * Production: https only, and only global unicast addresses: no loopback,
 * private, link-local (cloud metadata lives at 169.254.169.254), carrier-grade
 * NAT, unspecified, multicast or reserved address, in any IPv4 or IPv6
 * spelling. Sandbox: the same, except that http and loopback are allowed, so
 * users and tests can receive webhooks on their own machine.
 */

export type PushEnvironment = 'sandbox' | 'production';

export const MAX_CALLBACK_URL_LENGTH = 2000;

/** IPv6 global unicast (RFC 4291 section 2.4): everything routable on the internet lies in 2000::/3. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** IPv6 forms that carry an IPv4 address (RFC 6052, 6145, 3056, 4380, 4291), and where it sits. */
const EMBEDDING: Record<string, { name: string; ipv4(bytes: number[]): number[] }> = {
  rfc6145: { name: 'IPv4-translated', ipv4: (b) => b.slice(12, 16) },
  rfc6052: { name: 'NAT64', ipv4: (b) => b.slice(12, 16) },
  '6to4': { name: '6to4', ipv4: (b) => b.slice(2, 6) },
  // Teredo stores the client's address with every bit inverted.
  teredo: { name: 'Teredo', ipv4: (b) => b.slice(12, 16).map((x) => x ^ 0xff) },
  compatible: { name: 'IPv4-compatible', ipv4: (b) => b.slice(12, 16) },
};

/**
 * Why a resolved address may not receive webhooks, or null when it may. Judged by a complete classification
 * (ipaddr.js's ranges of the IANA special-purpose registries): only global unicast passes, and loopback in the
 * sandbox. An IPv4-mapped address (::ffff:a.b.c.d, how dual-stack sockets report IPv4) is judged as the IPv4
 * address it is; every other IPv6 form that embeds an IPv4 address (IPv4-compatible, IPv4-translated, NAT64,
 * 6to4, Teredo) is refused outright, naming the address it embeds: it could lead to any IPv4 network.
 */
export function forbiddenAddress(address: string, environment: PushEnvironment): string | null {
  if (!ipaddr.isValid(address) || isIP(address) === 0) return `"${address}" is not an IP address`;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range === 'loopback') return environment === 'sandbox' ? null : `${address} is a loopback address`;
  if (ip.kind() === 'ipv4') return range === 'unicast' ? null : `${address} is a private, link-local or reserved address (${range})`;
  const v6 = ip as ipaddr.IPv6;
  const bytes = v6.toByteArray();
  const form = range !== 'unicast' ? range : bytes.slice(0, 12).every((b) => b === 0) ? 'compatible' : null;
  const embedding = form ? EMBEDDING[form] : undefined;
  if (embedding) {
    const embedded = ipaddr.fromByteArray(embedding.ipv4(bytes)).toString();
    return `${address} is a private, link-local or reserved address (${embedding.name}, embedding ${embedded})`;
  }
  if (range === 'unicast' && v6.match(GLOBAL_UNICAST_V6)) return null;
  return `${address} is a private, link-local or reserved address (${range === 'unicast' ? 'not global unicast' : range})`;
}

export type CallbackUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** The callback URL's own rules; its host's addresses are judged by `forbiddenAddress` once resolved. */
export function checkCallbackUrl(raw: string, environment: PushEnvironment): CallbackUrlCheck {
  if (raw.length > MAX_CALLBACK_URL_LENGTH) return { ok: false, reason: `must be at most ${MAX_CALLBACK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute URL, e.g. https://example.com/tracking-webhook' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must be an https URL' };
  if (url.protocol === 'http:' && environment === 'production') return { ok: false, reason: 'must be an https URL in production' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials; authenticate deliveries by their signature' };
  if (url.hash) return { ok: false, reason: 'must not have a fragment' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const problem = forbiddenAddress(host, environment);
    if (problem) return { ok: false, reason: `must not point at ${problem}` };
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    if (environment === 'production') return { ok: false, reason: 'must not point at a loopback address' };
  }
  return { ok: true, url };
}
