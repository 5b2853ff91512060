import { AuthRateLimiter, type AuthRateLimiterOptions } from './auth-rate-limiter.js';
import type { Config } from '../config/config.js';
import { createClientAddressResolver, type ClientAddressResolver } from '../domain/client-address.js';
import { ClientQuotas } from '../quotas/client-quotas.js';
import type { Log } from '../observability/logger.js';
import { RateLimitStore } from '../quotas/rate-limit-store.js';

/**
 * Everything of docs/errors.md "Quotas and rate limits" that a process holds: the
 * counters' store (memory or Redis), the per-client quotas, the failed-
 * authentication limiter and how a request's address is found. The plugins
 * that apply them live where they apply: src/http/use-rest-quotas.ts (REST
 * routes) and src/executor/use-graphql-quotas.ts (GraphQL operations).
 */
export interface RateLimits {
  /** Failed client authentications, for the token grant. */
  authLimiter: AuthRateLimiter;
  /** The per-client quotas; undefined when quotas are off. */
  quotas: ClientQuotas | undefined;
  /** The caller's address behind trusted proxies. */
  addressOf: ClientAddressResolver;
  close(): Promise<void>;
}

export async function createRateLimits(
  config: Pick<Config, 'quotas'>,
  log: Log,
  /** Overrides of the failed-authentication numbers (tests). */
  authOptions: AuthRateLimiterOptions = {},
): Promise<RateLimits> {
  const { quotas: q } = config;
  const store = await RateLimitStore.open({ redisUrl: q.redisUrl, keyPrefix: q.keyPrefix, log });
  return {
    authLimiter: new AuthRateLimiter(store, {
      maxFailuresPerClientAddress: q.authFailuresPerClientAddress,
      maxFailuresPerAddress: q.authFailuresPerAddress,
      windowSeconds: q.authFailureWindowSeconds,
      ...authOptions,
    }),
    quotas: q.enabled ? new ClientQuotas(store, q) : undefined,
    addressOf: createClientAddressResolver(q.trustedProxies),
    close: () => store.close(),
  };
}
