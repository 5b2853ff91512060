/**
 * Limits FAILED client authentications at the token endpoint, per client_id
 * and per remote address (DESIGN section 7: 429 with Retry-After).
 *
 * Intended use by the token endpoint:
 *   1. `check({ clientId, address })`; when limited, answer 429 with
 *      `Retry-After: retryAfterSeconds` without looking at the secret.
 *   2. authenticate; on failure `recordFailure(...)` and answer 401
 *      (or 429 when the returned decision is already limited).
 * Successful authentications are not recorded and do not reset anything.
 *
 * Secrets carry 256 random bits, so this is not what stops guessing; it stops
 * one source from hammering the endpoint and keeps misconfigured clients from
 * looping on 401 at full speed.
 *
 * @NOTE per-process, in memory: with N processes a source gets up to N times
 * the allowance, and a restart forgets the counters. Acceptable for v1, which
 * runs one process per environment and where the limit is a brake, not the
 * security boundary; a shared store (e.g. the database) is the upgrade path
 * when the service scales out.
 * @NOTE client_id is not a secret (it is the `sub` of every token), so anyone
 * can trip a client's limit and make its token requests fail with 429 for up
 * to one window. Clients cache tokens for an hour, so this takes a sustained,
 * visible effort; the per-address limit catches it from a single source.
 */

export interface AuthRateLimiterOptions {
  /** Failures per client_id within the window; the next attempt is refused. Default 10. */
  maxFailuresPerClient?: number;
  /**
   * Failures per remote address within the window. Default 20: higher than per
   * client because one address (a NAT, an integration platform) may front
   * several clients.
   */
  maxFailuresPerAddress?: number;
  /** Sliding window length in seconds. Default 60. */
  windowSeconds?: number;
  /**
   * Keys kept per dimension (client_id, address). Default 10,000. Beyond it the
   * least recently failing key is forgotten, which bounds memory (at most
   * maxFailures timestamps per key) at the price of letting an attacker who
   * spreads over more than this many keys flush older counters.
   */
  maxEntries?: number;
  /** Clock in milliseconds (tests). Default `Date.now`. */
  now?: () => number;
}

export interface RateLimitDecision {
  limited: boolean;
  /** Seconds until an attempt would be allowed again; 0 when not limited. */
  retryAfterSeconds: number;
}

/** Either part may be absent (no client_id in the request, address unknown). */
export interface AuthAttempt {
  clientId?: string | undefined;
  address?: string | undefined;
}

/** Longer keys are cut: real client_ids are at most 64 characters, and memory must stay bounded. */
const MAX_KEY_LENGTH = 128;

/** Failure timestamps per key, newest last; kept only while inside the window. */
class SlidingWindowLog {
  readonly #entries = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  decide(key: string, now: number): RateLimitDecision {
    const log = this.#live(key, now);
    if (log.length < this.maxFailures) return { limited: false, retryAfterSeconds: 0 };
    // The log holds at most maxFailures entries, so its oldest one is the
    // failure whose expiry brings the count back under the limit.
    const oldest = log[0] ?? now;
    return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
  }

  record(key: string, now: number): void {
    const log = this.#live(key, now);
    log.push(now);
    if (log.length > this.maxFailures) log.splice(0, log.length - this.maxFailures);
    // Re-insert so the Map's order is "least recently failed first".
    this.#entries.delete(key);
    this.#entries.set(key, log);
    this.#evict(now);
  }

  #live(key: string, now: number): number[] {
    const log = this.#entries.get(key) ?? [];
    const cutoff = now - this.windowMs;
    let expired = 0;
    while (expired < log.length && (log[expired] ?? 0) <= cutoff) expired++;
    if (expired > 0) log.splice(0, expired);
    return log;
  }

  /** Amortised O(1): stale keys sit at the front because the Map is ordered by last failure. */
  #evict(now: number): void {
    const cutoff = now - this.windowMs;
    for (const [key, log] of this.#entries) {
      const newest = log[log.length - 1];
      const overCap = this.#entries.size > this.maxEntries;
      if (!overCap && newest !== undefined && newest > cutoff) break;
      this.#entries.delete(key);
    }
  }
}

export class AuthRateLimiter {
  readonly #byClient: SlidingWindowLog;
  readonly #byAddress: SlidingWindowLog;
  readonly #now: () => number;

  constructor(options: AuthRateLimiterOptions = {}) {
    const windowMs = (options.windowSeconds ?? 60) * 1000;
    const maxEntries = options.maxEntries ?? 10_000;
    this.#byClient = new SlidingWindowLog(options.maxFailuresPerClient ?? 10, windowMs, maxEntries);
    this.#byAddress = new SlidingWindowLog(options.maxFailuresPerAddress ?? 20, windowMs, maxEntries);
    this.#now = options.now ?? Date.now;
  }

  /** Whether this attempt must be refused before its credentials are even checked. */
  check(attempt: AuthAttempt): RateLimitDecision {
    const now = this.#now();
    return worst(
      attempt.clientId ? this.#byClient.decide(keyOf(attempt.clientId), now) : undefined,
      attempt.address ? this.#byAddress.decide(keyOf(attempt.address), now) : undefined,
    );
  }

  /** Counts one failed authentication; returns the decision for the next attempt. */
  recordFailure(attempt: AuthAttempt): RateLimitDecision {
    const now = this.#now();
    if (attempt.clientId) this.#byClient.record(keyOf(attempt.clientId), now);
    if (attempt.address) this.#byAddress.record(keyOf(attempt.address), now);
    return this.check(attempt);
  }

  /** Keys currently tracked per dimension (for tests and metrics). */
  get size(): { clients: number; addresses: number } {
    return { clients: this.#byClient.size, addresses: this.#byAddress.size };
  }
}

function keyOf(value: string): string {
  return value.length > MAX_KEY_LENGTH ? value.slice(0, MAX_KEY_LENGTH) : value;
}

function worst(...decisions: (RateLimitDecision | undefined)[]): RateLimitDecision {
  let result: RateLimitDecision = { limited: false, retryAfterSeconds: 0 };
  for (const d of decisions) {
    if (d?.limited && d.retryAfterSeconds > result.retryAfterSeconds) result = d;
  }
  return result;
}
