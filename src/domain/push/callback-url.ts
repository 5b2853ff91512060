import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may be sent (docs/architecture.md, Push): the SSRF rules, as pure
 * functions. `checkCallbackUrl` judges the URL when a subscription is
 * created; `forbiddenAddress` judges every address the callback's host
 * resolves to, at creation and again at every connection (so a DNS answer
 * that changes after the check, DNS rebinding, is caught when it is used).
 *
 * Production: https only, and no address of the service's own networks:
 * loopback, private, link-local (cloud metadata lives at 169.254.169.254),
 * carrier-grade NAT, unspecified, multicast, reserved. Sandbox: the same,
 * except that http and loopback are allowed, so users and tests can receive
 * webhooks on their own machine.
 */

export type PushEnvironment = 'sandbox' | 'production';

export const MAX_CALLBACK_URL_LENGTH = 2000;

const FORBIDDEN = new BlockList();
const LOOPBACK = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['64:ff9b::', 96], // NAT64: could reach private IPv4
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (includes fd00:ec2::254, a metadata address)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv6');
}
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Why a resolved address may not receive webhooks, or null when it may. */
export function forbiddenAddress(address: string, environment: PushEnvironment): string | null {
  let ip = address.toLowerCase();
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped?.[1]) ip = mapped[1];
  const family = isIP(ip);
  if (family === 0) return `"${address}" is not an IP address`;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(ip, type)) return environment === 'sandbox' ? null : `${address} is a loopback address`;
  if (FORBIDDEN.check(ip, type)) return `${address} is a private, link-local or reserved address`;
  return null;
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
