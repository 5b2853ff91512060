import { describe, expect, it } from 'vitest';
import { AuthRateLimiter } from '../src/auth/auth-rate-limiter.js';

function clock(start = 1_000_000) {
  const c = { now: start, advance: (seconds: number) => void (c.now += seconds * 1000) };
  return c;
}

describe('AuthRateLimiter', () => {
  it('allows 10 failures per client_id per minute, then refuses with Retry-After', () => {
    const c = clock();
    const limiter = new AuthRateLimiter({ now: () => c.now });
    const attempt = { clientId: 'tt_a', address: '10.0.0.1' };
    for (let i = 1; i <= 9; i++) {
      expect(limiter.check(attempt).limited).toBe(false);
      expect(limiter.recordFailure(attempt)).toEqual({ limited: false, retryAfterSeconds: 0 });
      c.advance(1);
    }
    expect(limiter.recordFailure(attempt)).toEqual({ limited: true, retryAfterSeconds: 51 });
    expect(limiter.check(attempt)).toEqual({ limited: true, retryAfterSeconds: 51 });
  });

  it('slides: the limit lifts when the oldest failure leaves the window', () => {
    const c = clock();
    const limiter = new AuthRateLimiter({ now: () => c.now });
    const attempt = { clientId: 'tt_a' };
    for (let i = 0; i < 10; i++) {
      limiter.recordFailure(attempt);
      c.advance(5);
    }
    // Failures at 0, 5, ..., 45 s; now is 50 s.
    expect(limiter.check(attempt)).toEqual({ limited: true, retryAfterSeconds: 10 });
    c.advance(10);
    expect(limiter.check(attempt).limited).toBe(false);
    limiter.recordFailure(attempt); // the failure at 5 s is still in the window
    expect(limiter.check(attempt)).toEqual({ limited: true, retryAfterSeconds: 5 });
  });

  it('counts each client_id separately', () => {
    const c = clock();
    const limiter = new AuthRateLimiter({ now: () => c.now });
    for (let i = 0; i < 10; i++) limiter.recordFailure({ clientId: 'tt_a' });
    expect(limiter.check({ clientId: 'tt_a' }).limited).toBe(true);
    expect(limiter.check({ clientId: 'tt_b' }).limited).toBe(false);
  });

  it('limits one address cycling through many client_ids', () => {
    const c = clock();
    const limiter = new AuthRateLimiter({ now: () => c.now });
    for (let i = 0; i < 20; i++) limiter.recordFailure({ clientId: `tt_${i}`, address: '203.0.113.9' });
    expect(limiter.check({ clientId: 'tt_fresh', address: '203.0.113.9' }).limited).toBe(true);
    expect(limiter.check({ clientId: 'tt_fresh', address: '203.0.113.10' }).limited).toBe(false);
    expect(limiter.check({ address: '203.0.113.9' }).retryAfterSeconds).toBe(60);
  });

  it('reports the longer wait when both the client_id and the address are limited', () => {
    const c = clock();
    const limiter = new AuthRateLimiter({ now: () => c.now, maxFailuresPerClient: 2, maxFailuresPerAddress: 2 });
    limiter.recordFailure({ address: 'a' });
    c.advance(30);
    limiter.recordFailure({ address: 'a', clientId: 'tt_x' });
    limiter.recordFailure({ clientId: 'tt_x' });
    expect(limiter.check({ clientId: 'tt_x', address: 'a' })).toEqual({ limited: true, retryAfterSeconds: 60 });
    c.advance(31);
    expect(limiter.check({ address: 'a' }).limited).toBe(false);
    expect(limiter.check({ clientId: 'tt_x', address: 'a' })).toEqual({ limited: true, retryAfterSeconds: 29 });
  });

  it('takes its numbers from options', () => {
    const c = clock();
    const limiter = new AuthRateLimiter({ now: () => c.now, maxFailuresPerClient: 3, windowSeconds: 10 });
    for (let i = 0; i < 3; i++) limiter.recordFailure({ clientId: 'tt_a' });
    expect(limiter.check({ clientId: 'tt_a' })).toEqual({ limited: true, retryAfterSeconds: 10 });
    c.advance(10);
    expect(limiter.check({ clientId: 'tt_a' }).limited).toBe(false);
  });

  it('ignores a missing client_id or address', () => {
    const limiter = new AuthRateLimiter();
    for (let i = 0; i < 50; i++) limiter.recordFailure({});
    expect(limiter.check({}).limited).toBe(false);
    expect(limiter.size).toEqual({ clients: 0, addresses: 0 });
  });

  it('keeps memory bounded: caps keys and forgets expired ones', () => {
    const c = clock();
    const limiter = new AuthRateLimiter({ now: () => c.now, maxEntries: 100 });
    for (let i = 0; i < 1000; i++) limiter.recordFailure({ clientId: `tt_${i}`, address: `10.0.${i >> 8}.${i & 255}` });
    expect(limiter.size).toEqual({ clients: 100, addresses: 100 });
    c.advance(61);
    limiter.recordFailure({ clientId: 'tt_new', address: '192.0.2.1' });
    expect(limiter.size).toEqual({ clients: 1, addresses: 1 });
  });

  it('treats overlong keys as one key rather than storing them whole', () => {
    const c = clock();
    const limiter = new AuthRateLimiter({ now: () => c.now });
    for (let i = 0; i < 10; i++) limiter.recordFailure({ clientId: 'x'.repeat(10_000) + i });
    expect(limiter.size.clients).toBe(1);
    expect(limiter.check({ clientId: 'x'.repeat(200) }).limited).toBe(true);
  });
});
