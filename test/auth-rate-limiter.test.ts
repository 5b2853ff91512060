import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimitStore } from '../src/quotas/rate-limit-store.js';
import { AuthRateLimiter } from '../src/auth/auth-rate-limiter.js';
import { openStore, rateLimitStores, uniquePrefix, type LogLine } from './support/rate-limit-stores.js';

describe.each(rateLimitStores)('AuthRateLimiter on $name', ({ name, enabled }) => {
  const opened: RateLimitStore[] = [];
  async function limiter(options: ConstructorParameters<typeof AuthRateLimiter>[1] = {}, prefix?: string) {
    const store = await openStore(name, { ...(prefix ? { prefix } : {}) });
    opened.push(store);
    return new AuthRateLimiter(store, options);
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  it.skipIf(!enabled)("refuses a client_id's attempts from the failing address only: the victim elsewhere is never refused", async () => {
    const l = await limiter();
    const attacker = { clientId: 'tt_victim', address: '203.0.113.66' };
    for (let i = 1; i <= 9; i++) expect((await l.recordFailure(attacker)).limited).toBe(false);
    const tenth = await l.recordFailure(attacker);
    expect(tenth.limited).toBe(true);
    expect(tenth.retryAfterSeconds).toBeGreaterThan(50);
    expect(tenth.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await l.check(attacker)).limited).toBe(true);
    // The victim, from its own address, with the same client_id.
    expect(await l.check({ clientId: 'tt_victim', address: '198.51.100.7' })).toEqual({ limited: false, retryAfterSeconds: 0 });
    // Another client from the attacker's address is not limited by the pair counter (10 < 50 per address).
    expect((await l.check({ clientId: 'tt_other', address: '203.0.113.66' })).limited).toBe(false);
  });

  it.skipIf(!enabled)('limits one address cycling through client_ids, and only that address', async () => {
    const l = await limiter({ maxFailuresPerAddress: 5 });
    for (let i = 0; i < 5; i++) await l.recordFailure({ clientId: `tt_${i}`, address: '203.0.113.9' });
    expect((await l.check({ clientId: 'tt_fresh', address: '203.0.113.9' })).limited).toBe(true);
    expect((await l.check({ address: '203.0.113.9' })).limited).toBe(true);
    expect((await l.check({ clientId: 'tt_fresh', address: '203.0.113.10' })).limited).toBe(false);
  });

  it.skipIf(!enabled)('counts an IPv6 source by its /64, so rotating addresses inside it does not help', async () => {
    const l = await limiter({ maxFailuresPerAddress: 3 });
    for (const host of ['1', 'a:b', 'ffff:1:2']) await l.recordFailure({ clientId: `tt_${host}`, address: `2001:db8:0:7::${host}` });
    expect((await l.check({ clientId: 'tt_x', address: '2001:db8:0:7:9:9:9:9' })).limited).toBe(true);
    expect((await l.check({ clientId: 'tt_x', address: '2001:db8:0:8::1' })).limited).toBe(false);
  });

  it.skipIf(!enabled)("a success clears its own (client_id, address) failures, not the address's", async () => {
    const l = await limiter({ maxFailuresPerClientAddress: 2, maxFailuresPerAddress: 3 });
    const attempt = { clientId: 'tt_a', address: '192.0.2.1' };
    await l.recordFailure(attempt);
    expect((await l.recordFailure(attempt)).limited).toBe(true);
    await l.recordSuccess(attempt);
    expect((await l.check(attempt)).limited).toBe(false);
    await l.recordFailure({ clientId: 'tt_b', address: '192.0.2.1' });
    expect((await l.check(attempt)).limited).toBe(true); // three failures from the address
  });

  it.skipIf(!enabled)('without an address, counts the client_id under one unknown address and has no address counter', async () => {
    const l = await limiter({ maxFailuresPerClientAddress: 3, maxFailuresPerAddress: 1 });
    for (let i = 0; i < 3; i++) await l.recordFailure({ clientId: 'tt_a' });
    expect((await l.check({ clientId: 'tt_a' })).limited).toBe(true);
    expect((await l.check({ clientId: 'tt_b' })).limited).toBe(false);
    expect((await l.check({ clientId: 'tt_a', address: '192.0.2.1' })).limited).toBe(false);
    for (let i = 0; i < 10; i++) await l.recordFailure({});
    expect((await l.check({})).limited).toBe(false);
  });

  it.skipIf(!enabled)('lifts the limit when the window ends', async () => {
    const l = await limiter({ maxFailuresPerClientAddress: 2, windowSeconds: 1 });
    const attempt = { clientId: 'tt_a', address: '192.0.2.1' };
    await l.recordFailure(attempt);
    const limited = await l.recordFailure(attempt);
    expect(limited).toEqual({ limited: true, retryAfterSeconds: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await l.check(attempt)).limited).toBe(false);
  });

  it.skipIf(!enabled)('treats overlong client_ids as one key rather than storing them whole', async () => {
    const l = await limiter({ maxFailuresPerClientAddress: 3 });
    for (let i = 0; i < 3; i++) await l.recordFailure({ clientId: 'x'.repeat(10_000) + i, address: '192.0.2.1' });
    expect((await l.check({ clientId: 'x'.repeat(200), address: '192.0.2.1' })).limited).toBe(true);
  });

  it.skipIf(!enabled || name !== 'redis')('shares the counters between instances on one Redis', async () => {
    const prefix = uniquePrefix();
    const [a, b] = [await limiter({ maxFailuresPerClientAddress: 4 }, prefix), await limiter({ maxFailuresPerClientAddress: 4 }, prefix)];
    const attempt = { clientId: 'tt_a', address: '192.0.2.1' };
    await a.recordFailure(attempt);
    await b.recordFailure(attempt);
    await a.recordFailure(attempt);
    expect((await b.check(attempt)).limited).toBe(false);
    expect((await b.recordFailure(attempt)).limited).toBe(true);
    expect((await a.check(attempt)).limited).toBe(true);
  });
});

describe('AuthRateLimiter with Redis configured but down', () => {
  it('keeps limiting per process (the insurance limiter) and warns once', async () => {
    const lines: LogLine[] = [];
    const store = await openStore('redis', { redisUrl: 'redis://127.0.0.1:1', lines });
    try {
      const l = new AuthRateLimiter(store, { maxFailuresPerClientAddress: 2 });
      const attempt = { clientId: 'tt_a', address: '192.0.2.1' };
      expect((await l.recordFailure(attempt)).limited).toBe(false);
      expect((await l.recordFailure(attempt)).limited).toBe(true);
      expect((await l.check({ clientId: 'tt_a', address: '192.0.2.2' })).limited).toBe(false);
      expect(lines.filter((line) => line.level === 'warn' && /Redis for rate limits is unavailable/.test(line.message))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
