import { addressKey } from '../domain/client-address.js';
import type { Limiter, RateLimitStore } from '../quotas/rate-limit-store.js';

/**
 * Limits FAILED client authentications at the token endpoint (docs/architecture.md,
 * REST contract: 429 with Retry-After), in two counters:
 *
 * - per (client_id, address): a caller that keeps sending wrong secrets for
 *   one client is stopped;
 * - per address (an IPv6 address by its /64): one source cycling through
 *   client_ids is stopped.
 *
 * Never per client_id alone: client_id is not a secret (it is the `sub` of
 * every token), so a per-client counter lets anyone, from anywhere, lock a
 * client out. Here someone else's failures only ever refuse attempts from
 * the failing address; the client's correct secret from any other address
 * is accepted. Behind a reverse proxy the address is the one the trusted
 * proxies forwarded (src/domain/client-address.ts); without TT_TRUSTED_PROXIES
 * every caller has the proxy's address and shares its per-address counter.
 *
 * Intended use by the grant:
 *   1. `check(attempt)`; when limited, answer 429 with Retry-After without
 *      looking at the secret.
 *   2. authenticate; on failure `recordFailure(attempt)` and answer 401; on
 *      success `recordSuccess(attempt)`, which clears the (client_id,
 *      address) counter (a client that fixed its configuration starts afresh).
 *
 * Secrets carry 256 random bits, so this is not what stops guessing; it stops
 * one source from hammering the endpoint and keeps misconfigured clients from
 * looping on 401 at full speed. The counters are fixed windows that start at
 * the first failure (rate-limiter-flexible's rules), in memory or shared in
 * Redis (src/quotas/rate-limit-store.ts), so N instances enforce one limit.
 */

export interface AuthRateLimiterOptions {
  /** Failures of one client_id from one address within the window; the next attempt is refused. Default 10. */
  maxFailuresPerClientAddress?: number;
  /**
   * Failures from one address within the window, whatever the client_id.
   * Default 50: higher than per client because one address (a NAT, an
   * integration platform, an untrusted proxy) may front several clients.
   */
  maxFailuresPerAddress?: number;
  /** Window length in seconds. Default 60. */
  windowSeconds?: number;
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

/** Longer client_ids are cut: real ones are at most 64 characters, and keys must stay bounded. */
const MAX_KEY_LENGTH = 128;

const NOT_LIMITED: RateLimitDecision = { limited: false, retryAfterSeconds: 0 };

export class AuthRateLimiter {
  readonly #byClientAddress: Limiter;
  readonly #byAddress: Limiter;

  constructor(store: RateLimitStore, options: AuthRateLimiterOptions = {}) {
    const durationSeconds = options.windowSeconds ?? 60;
    this.#byClientAddress = store.limiter({
      name: 'auth-failures:client-address',
      points: options.maxFailuresPerClientAddress ?? 10,
      durationSeconds,
    });
    this.#byAddress = store.limiter({ name: 'auth-failures:address', points: options.maxFailuresPerAddress ?? 50, durationSeconds });
  }

  /** Whether this attempt must be refused before its credentials are even checked. */
  async check(attempt: AuthAttempt): Promise<RateLimitDecision> {
    const keys = keysOf(attempt);
    const decisions = await Promise.all([
      keys.clientAddress ? limitedBy(this.#byClientAddress, keys.clientAddress) : NOT_LIMITED,
      keys.address ? limitedBy(this.#byAddress, keys.address) : NOT_LIMITED,
    ]);
    return worst(decisions);
  }

  /** Counts one failed authentication; returns the decision for the next attempt. */
  async recordFailure(attempt: AuthAttempt): Promise<RateLimitDecision> {
    const keys = keysOf(attempt);
    await Promise.all([
      keys.clientAddress ? this.#byClientAddress.consume(keys.clientAddress) : undefined,
      keys.address ? this.#byAddress.consume(keys.address) : undefined,
    ]);
    return this.check(attempt);
  }

  /** A successful authentication clears the failures of its (client_id, address); the address's stay. */
  async recordSuccess(attempt: AuthAttempt): Promise<void> {
    const { clientAddress } = keysOf(attempt);
    if (clientAddress) await this.#byClientAddress.delete(clientAddress);
  }
}

/**
 * An unknown address (no socket: an in-process call) is one address for the
 * (client_id, address) counter, and has no per-address counter: an
 * in-process caller is the service itself.
 */
function keysOf(attempt: AuthAttempt): { clientAddress?: string; address?: string } {
  const address = attempt.address ? addressKey(attempt.address) : undefined;
  const clientId = attempt.clientId ? attempt.clientId.slice(0, MAX_KEY_LENGTH) : undefined;
  return {
    // JSON keeps the two parts apart whatever characters the client_id holds.
    ...(clientId ? { clientAddress: JSON.stringify([clientId, address ?? 'unknown']) } : {}),
    ...(address ? { address } : {}),
  };
}

async function limitedBy(limiter: Limiter, key: string): Promise<RateLimitDecision> {
  const { consumed, msBeforeNext } = await limiter.peek(key);
  if (consumed < limiter.points) return NOT_LIMITED;
  return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) };
}

function worst(decisions: readonly RateLimitDecision[]): RateLimitDecision {
  let result = NOT_LIMITED;
  for (const d of decisions) if (d.limited && d.retryAfterSeconds > result.retryAfterSeconds) result = d;
  return result;
}
