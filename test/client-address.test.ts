import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress, normaliseAddress, parseTrustedProxies, TrustedProxiesError } from '../src/domain/client-address.js';

const xff = (value: string) => new Headers({ 'X-Forwarded-For': value });

describe('clientAddress', () => {
  const proxy = parseTrustedProxies('10.0.0.0/8, 192.0.2.10, fd00::/8');

  it('is the peer when no proxy is trusted: forwarding headers are ignored', () => {
    expect(clientAddress('10.0.0.5', xff('198.51.100.1'), undefined)).toBe('10.0.0.5');
    expect(clientAddress(undefined, xff('198.51.100.1'), undefined)).toBeUndefined();
  });

  it('ignores a spoofed X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddress('203.0.113.9', xff('198.51.100.77'), proxy)).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9', xff('10.0.0.1'), proxy)).toBe('203.0.113.9');
  });

  it('behind a trusted proxy, is the right-most address that is not a trusted proxy', () => {
    expect(clientAddress('10.0.0.5', xff('198.51.100.1'), proxy)).toBe('198.51.100.1');
    // The client prepended its own guesses; the proxy appended what it saw.
    expect(clientAddress('10.0.0.5', xff('1.2.3.4, 10.9.9.9, 198.51.100.1'), proxy)).toBe('198.51.100.1');
    // Two trusted hops: the edge proxy (192.0.2.10) and the inner one (the peer).
    expect(clientAddress('10.0.0.5', xff('6.6.6.6, 198.51.100.2, 192.0.2.10'), proxy)).toBe('198.51.100.2');
    // Several header lines are one list.
    const twoLines = new Headers([
      ['X-Forwarded-For', '6.6.6.6'],
      ['X-Forwarded-For', '198.51.100.3'],
    ]);
    expect(clientAddress('10.0.0.5', twoLines, proxy)).toBe('198.51.100.3');
  });

  it('stops at the last proxy on an entry that is not an address, and without a header is the peer', () => {
    expect(clientAddress('10.0.0.5', xff('198.51.100.1, unknown'), proxy)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', xff('garbage, 192.0.2.10'), proxy)).toBe('192.0.2.10');
    expect(clientAddress('10.0.0.5', new Headers(), proxy)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', xff('10.0.0.9, 192.0.2.10'), proxy)).toBe('10.0.0.9');
  });

  it('reads RFC 7239 Forwarded when configured, and then only it', () => {
    const forwarded = parseTrustedProxies('10.0.0.0/8', 'forwarded');
    const headers = new Headers({
      Forwarded: 'for=6.6.6.6, for="[2001:db8::1]:4711";proto=https;by=10.0.0.5',
      'X-Forwarded-For': '7.7.7.7',
    });
    expect(clientAddress('10.0.0.5', headers, forwarded)).toBe('2001:db8::1');
    expect(clientAddress('10.0.0.5', xff('7.7.7.7'), forwarded)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', new Headers({ Forwarded: 'for=_hidden' }), forwarded)).toBe('10.0.0.5');
  });

  it('normalises IPv4-mapped peers, ports and IPv6 spellings', () => {
    expect(clientAddress('::ffff:10.0.0.5', xff('198.51.100.1:5678'), proxy)).toBe('198.51.100.1');
    expect(clientAddress('fd00::1', xff('[2001:DB8:0::1]:443'), proxy)).toBe('2001:db8::1');
    expect(normaliseAddress('unknown')).toBeUndefined();
    expect(normaliseAddress('fe80::1%eth0')).toBe('fe80::1');
  });
});

describe('parseTrustedProxies', () => {
  it('accepts CIDRs and single addresses of both families, and nothing else', () => {
    expect(parseTrustedProxies('')).toBeUndefined();
    expect(parseTrustedProxies(' , ')).toBeUndefined();
    const trusted = parseTrustedProxies('127.0.0.1, ::1, 172.16.0.0/12');
    expect(trusted?.list.check('172.31.255.1', 'ipv4')).toBe(true);
    expect(trusted?.list.check('172.32.0.1', 'ipv4')).toBe(false);
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(TrustedProxiesError);
    expect(() => parseTrustedProxies('proxy.internal')).toThrow(/"proxy.internal" is not an IP address or CIDR/);
    expect(() => parseTrustedProxies('10.0.0.0/8/1')).toThrow(TrustedProxiesError);
  });
});

describe('addressKey', () => {
  it('keys IPv4 by address and IPv6 by /64', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
