import { BurstyRateLimiter, RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStore } from './support/rate-limit-stores.js';

/** rate-limiter-flexible's answer as the store's Limiter gives it (src/quotas/rate-limit-store.ts, wrap). */
async function flexible(consume: Promise<RateLimiterRes>) {
  try {
    const res = await consume;
    return { allowed: true, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext };
  } catch (rejection) {
    return { allowed: false, remaining: 0, msBeforeNext: (rejection as RateLimiterRes).msBeforeNext };
  }
}

describe('the memory store counts as rate-limiter-flexible does, at once', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    { what: 'a fixed window', burst: 0 },
    { what: 'a window with a burst allowance', burst: 2 },
  ])('$what: the same outcomes, through the window and the next, with no promise', async ({ burst }) => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T12:00:00Z') });
    const store = await openStore('memory');
    const spec = { name: 'parity', points: 3, durationSeconds: 60 };
    const ours = store.burstyLimiter(spec, burst, 600);
    const main = new RateLimiterMemory({ points: 3, duration: 60 });
    const theirs = burst > 0 ? new BurstyRateLimiter(main, new RateLimiterMemory({ points: burst, duration: 600 })) : main;
    const steps = [1, 1, 2, 1, 1, 1, 'wait 30', 1, 'wait 31', 1, 2, 1, 1];
    for (const step of steps) {
      if (typeof step === 'string') {
        vi.advanceTimersByTime(Number(step.split(' ')[1]) * 1000);
        continue;
      }
      const outcome = ours.consume('client', step);
      expect(outcome).not.toBeInstanceOf(Promise);
      expect(outcome).toEqual(await flexible(theirs.consume('client', step)));
    }
    await store.close();
  });

  it('peeks without counting and forgets a deleted key', async () => {
    const store = await openStore('memory');
    const limiter = store.limiter({ name: 'peek', points: 2, durationSeconds: 60 });
    expect(await limiter.peek('k')).toEqual({ consumed: 0, msBeforeNext: 0 });
    expect(limiter.consume('k', 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.peek('k')).toMatchObject({ consumed: 2 });
    expect(limiter.consume('k')).toMatchObject({ allowed: false, remaining: 0 });
    await limiter.delete('k');
    expect(limiter.consume('k')).toMatchObject({ allowed: true, remaining: 1 });
    await store.close();
  });
});
