import { BlockList, isIP } from 'node:net';

/**
 * Which address a request comes from, for the failed-authentication limits
 * (src/auth/auth-rate-limiter.ts). The socket's peer is the answer unless
 * the peer is a trusted proxy (`TT_TRUSTED_PROXIES`): then the forwarding
 * header the proxies write (`TT_FORWARDED_HEADER`, X-Forwarded-For by
 * default) is read from the right, and the client is the right-most address
 * that is not itself a trusted proxy.
 *
 * @NOTE only the right end of the header can be believed: each trusted proxy
 * appends the address it saw, while everything to the left of the first
 * untrusted entry was written by the client and may be anything. Reading
 * from the left (the "first" address) would let any caller pick its key.
 * @NOTE one header, chosen by the operator: if both were read, a client could
 * send the one the proxies do not write and have its own value believed.
 */

export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

export class TrustedProxiesError extends Error {
  override name = 'TrustedProxiesError';
}

/** Parsed `TT_TRUSTED_PROXIES`; undefined when no proxy is trusted (headers are then ignored). */
export interface TrustedProxies {
  list: BlockList;
  header: ForwardedHeader;
}

/**
 * A comma-separated list of CIDRs or single addresses, IPv4 or IPv6
 * (`10.0.0.0/8, 192.0.2.7, fd00::/8`). Throws TrustedProxiesError naming the
 * bad entry.
 */
export function parseTrustedProxies(value: string, header: ForwardedHeader = 'x-forwarded-for'): TrustedProxies | undefined {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [base = '', prefixText, extra] = entry.split('/');
    const address = normaliseAddress(base);
    const family = address ? isIP(address) : 0;
    if (!address || extra !== undefined) throw new TrustedProxiesError(`"${entry}" is not an IP address or CIDR`);
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
    if (prefix < 0 || prefix > max) throw new TrustedProxiesError(`"${entry}": the prefix length must be 0 to ${max}`);
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return { list, header };
}

/**
 * The canonical text of one address as it appears in a peer address or a
 * forwarding header: brackets and ports removed (`[2001:db8::1]:443`,
 * `192.0.2.1:5678`, Forwarded's `for="[::1]:80"`), IPv4-mapped IPv6 turned
 * into IPv4, a zone id dropped. Undefined when it is not an IP address
 * (`unknown`, an obfuscated `_node` identifier, garbage).
 */
export function normaliseAddress(raw: string): string | undefined {
  let s = raw.trim().replace(/^"(.*)"$/, '$1');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed?.[1]) s = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.indexOf(':'));
  s = s.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (mapped?.[1]) s = mapped[1];
  if (isIP(s) === 0) return undefined;
  // One spelling per IPv6 address (2001:DB8:0::1 and 2001:db8::1 are one key).
  return isIP(s) === 6 ? new URL(`http://[${s}]`).hostname.slice(1, -1) : s;
}

/** The entries of the forwarding header, left to right, raw. */
function forwardedEntries(headers: Headers, header: ForwardedHeader): string[] {
  const value = headers.get(header);
  if (value === null) return [];
  const elements = value.split(',').map((s) => s.trim());
  if (header === 'x-forwarded-for') return elements;
  // RFC 7239: `for=192.0.2.43;proto=https, for="[2001:db8::1]"`; an element without `for` says nothing about the hop.
  return elements.map((element) => {
    const pair = element.split(';').find((p) => /^\s*for\s*=/i.test(p));
    return pair ? pair.slice(pair.indexOf('=') + 1) : '';
  });
}

/**
 * The client's address. `peer` is the socket's remote address; `headers`
 * the request's. Without trusted proxies, or when the peer is not one, the
 * peer. Otherwise the header is walked from the right past trusted proxies;
 * an entry that is not an address there ends the walk at the last proxy,
 * rather than keying the limits on a string the client chose.
 */
export function clientAddress(peer: string | undefined, headers: Headers, trusted: TrustedProxies | undefined): string | undefined {
  const peerAddress = peer === undefined ? undefined : normaliseAddress(peer);
  if (!trusted || !peerAddress || !isTrusted(trusted, peerAddress)) return peerAddress;
  let candidate = peerAddress;
  const entries = forwardedEntries(headers, trusted.header);
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = normaliseAddress(entries[i] ?? '');
    if (!address) return candidate;
    if (!isTrusted(trusted, address)) return address;
    candidate = address;
  }
  return candidate;
}

function isTrusted(trusted: TrustedProxies, address: string): boolean {
  return trusted.list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The key the per-address limits count under: an IPv4 address as is, an
 * IPv6 address by its /64, since one subscriber (one attacker) is usually
 * handed a whole /64 and could otherwise take a fresh key per attempt.
 */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** Reads the peer of Yoga's node adapter (the `req` of the server context) and resolves the client's address. */
export function createClientAddressResolver(trusted: TrustedProxies | undefined) {
  return (request: Request, serverContext: unknown): string | undefined =>
    clientAddress(
      (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket?.remoteAddress,
      request.headers,
      trusted,
    );
}

export type ClientAddressResolver = ReturnType<typeof createClientAddressResolver>;
