import type { Plugin } from 'graphql-yoga';
import { AuthRateLimiter, type AuthRateLimiterOptions } from '../auth/auth-rate-limiter.js';
import type { Config } from '../config/config.js';
import { createClientAddressResolver, type ClientAddressResolver } from '../domain/client-address.js';
import { ClientQuotas } from '../service/client-quotas.js';
import { RateLimitStore } from '../service/rate-limit-store.js';
import { useGraphQLQuotas, useRestQuotas } from './use-quotas.js';
import type { AppServices } from '../graphql/context.js';
import type { GraphQLContext } from '../graphql/context.js';

/**
 * Everything of README "Quotas and rate limits" that the app assembles: the
 * counters' store (memory or Redis), the per-client quotas, the failed-
 * authentication limiter, how a request's address is found, and the plugins
 * that apply the quotas. create-app.ts only wires these in.
 */
export interface RateLimits {
  /** Failed client authentications, for the token grant. */
  authLimiter: AuthRateLimiter;
  /** The token quota for the grant; undefined when quotas are off. */
  tokenQuota: ClientQuotas | undefined;
  /** The caller's address behind trusted proxies. */
  addressOf: ClientAddressResolver;
  /** Before the REST routes: their quotas, and the RateLimit headers of every counted response. */
  restPlugins(services: AppServices): Plugin[];
  /** After useAuthentication: the quotas of /graphql operations. */
  graphqlPlugins(graphqlEndpoint: string): Plugin<GraphQLContext>[];
  close(): Promise<void>;
}

export async function createRateLimits(
  config: Pick<Config, 'quotas'>,
  log: AppServices['log'],
  /** Overrides of the failed-authentication numbers (tests). */
  authOptions: AuthRateLimiterOptions = {},
): Promise<RateLimits> {
  const { quotas: q } = config;
  const store = await RateLimitStore.open({ redisUrl: q.redisUrl, keyPrefix: q.keyPrefix, log });
  const quotas = q.enabled ? new ClientQuotas(store, q) : undefined;
  return {
    authLimiter: new AuthRateLimiter(store, {
      maxFailuresPerClientAddress: q.authFailuresPerClientAddress,
      maxFailuresPerAddress: q.authFailuresPerAddress,
      windowSeconds: q.authFailureWindowSeconds,
      ...authOptions,
    }),
    tokenQuota: quotas,
    addressOf: createClientAddressResolver(q.trustedProxies),
    restPlugins: (services) => (quotas ? [useRestQuotas(quotas, services)] : []),
    graphqlPlugins: (endpoint) => (quotas ? [useGraphQLQuotas(quotas, endpoint)] : []),
    close: () => store.close(),
  };
}
