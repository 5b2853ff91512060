import type { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { MemoryWindows } from './memory-windows.js';

/**
 * Where the counters of quotas and failed-authentication limits live: in this
 * process's memory by default (memory-windows.ts, which counts at once, with
 * rate-limiter-flexible's rules), in Redis (rate-limiter-flexible) when
 * `REDIS_URL` is set, so that every instance behind the load balancer spends
 * one budget (docs/architecture.md, Scale-out: no in-memory-only state that
 * must be shared).
 *
 * @NOTE Redis down: each Redis limiter has an in-memory insurance limiter
 * with the same numbers (rate-limiter-flexible's `insuranceLimiter`), which
 * takes over for every call that Redis cannot answer. The service keeps
 * limiting, per process, instead of either refusing everything (quotas are
 * protection, not correctness) or dropping the limits altogether; a warning
 * is logged when Redis goes away and an info line when it is back. A Redis
 * that answers slower than 500 ms counts as away for that call.
 */

type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

export interface LimiterSpec {
  /** Part of the key prefix: one counter family per name. */
  name: string;
  points: number;
  durationSeconds: number;
}

export interface LimitOutcome {
  allowed: boolean;
  remaining: number;
  msBeforeNext: number;
}

/** Consumes points of a key; the outcome, never a rejection, on a refusal. */
export interface Limiter {
  /**
   * The outcome itself when the store answers at once (memory), a promise of it when it must ask (Redis): a
   * caller on the hot path of every request need not wait a turn for a count held in memory.
   */
  consume(key: string, points?: number): LimitOutcome | Promise<LimitOutcome>;
  /** Points consumed in the key's current window, without counting anything. */
  peek(key: string): Promise<{ consumed: number; msBeforeNext: number }>;
  /** Forgets the key's counter (a successful login clears its failures). */
  delete(key: string): Promise<void>;
  readonly points: number;
  readonly durationSeconds: number;
}

export interface RateLimitStoreOptions {
  /** Redis address; undefined keeps the counters in memory. */
  redisUrl?: string;
  /** Prefix of every key (`tt:production`, a test's own prefix). */
  keyPrefix: string;
  log: Log;
  /** How long open() waits for Redis before starting on the insurance limiters. Default 2000 ms. */
  connectTimeoutMs?: number;
}

export class RateLimitStore {
  readonly #redis: Redis | undefined;
  readonly #keyPrefix: string;
  readonly #log: Log;

  private constructor(redis: Redis | undefined, keyPrefix: string, log: Log) {
    this.#redis = redis;
    this.#keyPrefix = keyPrefix;
    this.#log = log;
  }

  static async open(options: RateLimitStoreOptions): Promise<RateLimitStore> {
    if (!options.redisUrl) return new RateLimitStore(undefined, options.keyPrefix, options.log);
    // Loaded only when configured: every CLI command pays for what it imports at start.
    const { Redis } = await import('ioredis');
    const redis = new Redis(options.redisUrl, {
      // Fail fast while disconnected so the insurance limiter answers, instead of queueing the request.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // A Redis that hangs rather than fails must not hang requests: past this the insurance limiter answers.
      commandTimeout: 500,
      connectTimeout: options.connectTimeoutMs ?? 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
    });
    let down = false;
    redis.on('error', (err: Error) => {
      if (down) return;
      down = true;
      options.log('warn', 'Redis for rate limits is unavailable; limiting per process until it is back', { error: err.message });
    });
    redis.on('ready', () => {
      if (down) options.log('info', 'Redis for rate limits is back');
      down = false;
    });
    await waitForReady(redis, options.connectTimeoutMs ?? 2000);
    return new RateLimitStore(redis, options.keyPrefix, options.log);
  }

  get kind(): 'memory' | 'redis' {
    return this.#redis ? 'redis' : 'memory';
  }

  /** A fixed-window limiter of `points` per `durationSeconds`. */
  limiter(spec: LimiterSpec): Limiter {
    if (!this.#redis) return memoryLimiter(spec);
    return wrap(this.#raw(spec), spec, this.#log);
  }

  /** `perWindow` points per window, plus up to `burst` more per `burstWindowSeconds` (BurstyRateLimiter). */
  burstyLimiter(spec: LimiterSpec, burst: number, burstWindowSeconds: number): Limiter {
    if (burst <= 0) return this.limiter(spec);
    if (!this.#redis) return memoryLimiter(spec, { points: burst, durationSeconds: burstWindowSeconds });
    const main = this.#raw(spec);
    const extra = this.#raw({ name: `${spec.name}:burst`, points: burst, durationSeconds: burstWindowSeconds });
    const bursty = new BurstyRateLimiter(main, extra);
    return wrap(
      {
        consume: (key: string, points: number) => bursty.consume(key, points),
        // The main window's count: what RateLimit-Remaining reports (the burst allowance is not shown).
        get: (key: string) => main.get(key),
        delete: async (key: string) => {
          await Promise.all([main.delete(key), extra.delete(key)]);
          return true;
        },
      },
      spec,
      this.#log,
    );
  }

  async close(): Promise<void> {
    if (!this.#redis) return;
    try {
      await this.#redis.quit();
    } catch {
      this.#redis.disconnect();
    }
  }

  /** A Redis limiter (the memory store's are memoryLimiter's). */
  #raw(spec: LimiterSpec): RateLimiterAbstract {
    const options = { keyPrefix: `${this.#keyPrefix}:${spec.name}`, points: spec.points, duration: spec.durationSeconds };
    return new RateLimiterRedis({
      ...options,
      storeClient: this.#redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  }
}

/**
 * A limiter of the memory store, with BurstyRateLimiter's rules when `burst` is given: a request the main
 * window refuses is counted against the burst window too, and allowed while that one allows it; the main
 * window's count is what RateLimit-Remaining reports (0 while the burst allowance is being used), and the
 * wait the shorter of the two windows'.
 */
function memoryLimiter(spec: LimiterSpec, burst?: { points: number; durationSeconds: number }): Limiter {
  const main = new MemoryWindows(spec.durationSeconds);
  const extra = burst && new MemoryWindows(burst.durationSeconds);
  return {
    points: spec.points,
    durationSeconds: spec.durationSeconds,
    consume(key, points = 1) {
      const counted = main.consume(key, points);
      const remaining = Math.max(spec.points - counted.consumed, 0);
      if (counted.consumed <= spec.points) return { allowed: true, remaining, msBeforeNext: counted.msBeforeNext };
      if (!extra || !burst) return { allowed: false, remaining: 0, msBeforeNext: counted.msBeforeNext };
      const bursting = extra.consume(key, points);
      return {
        allowed: bursting.consumed <= burst.points,
        remaining,
        msBeforeNext: Math.min(counted.msBeforeNext, bursting.msBeforeNext),
      };
    },
    peek(key) {
      return Promise.resolve(main.peek(key) ?? { consumed: 0, msBeforeNext: 0 });
    },
    delete(key) {
      main.delete(key);
      extra?.delete(key);
      return Promise.resolve();
    },
  };
}

function wrap(
  limiter: {
    consume(key: string, points: number): Promise<RateLimiterRes>;
    delete(key: string): Promise<boolean>;
    get?(key: string): Promise<RateLimiterRes | null>;
  },
  spec: LimiterSpec,
  log: Log,
): Limiter {
  return {
    points: spec.points,
    durationSeconds: spec.durationSeconds,
    async consume(key, points = 1) {
      try {
        const res = await limiter.consume(key, points);
        return { allowed: true, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext };
      } catch (rejection) {
        // rate-limiter-flexible rejects with a RateLimiterRes when over the limit, with an Error when the store fails.
        if (rejection instanceof RateLimiterRes) {
          return { allowed: false, remaining: 0, msBeforeNext: rejection.msBeforeNext };
        }
        // Past the insurance limiter too: let the request through (a limit is protection, not correctness).
        log('warn', 'rate limit check failed; request allowed', { limiter: spec.name, error: String(rejection) });
        return { allowed: true, remaining: spec.points, msBeforeNext: spec.durationSeconds * 1000 };
      }
    },
    async peek(key) {
      try {
        const res = (await limiter.get?.(key)) ?? null;
        return { consumed: res?.consumedPoints ?? 0, msBeforeNext: res?.msBeforeNext ?? 0 };
      } catch (err) {
        log('warn', 'rate limit check failed; request allowed', { limiter: spec.name, error: String(err) });
        return { consumed: 0, msBeforeNext: 0 };
      }
    },
    async delete(key) {
      try {
        await limiter.delete(key);
      } catch (err) {
        log('warn', 'rate limit reset failed', { limiter: spec.name, error: String(err) });
      }
    },
  };
}

function waitForReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
  });
}
