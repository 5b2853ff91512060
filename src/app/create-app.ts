import { randomUUID } from 'node:crypto';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { AuthRateLimiter, type AuthRateLimiterOptions } from '../auth/auth-rate-limiter.js';
import { ClientStore } from '../auth/client-store.js';
import { createAuthenticator } from '../auth/request-auth.js';
import { createTokenGrant } from '../auth/token-grant.js';
import { TokenService } from '../auth/tokens.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { AppContext, AppServices, GraphQLContext, Principal } from '../graphql/context.js';
import { renderGraphiQLPage } from '../graphiql/page.js';
import { schema } from '../graphql/schema/index.js';
import { SnapshotCache } from '../store/snapshot-cache.js';
import { createTransmissionIds } from '../store/transmission-ids.js';
import { graphiqlOptions } from './graphiql-options.js';
import { createLogger, type Logger } from './logger.js';
import { remoteAddress, useRestApi } from './use-rest-api.js';
import { useAuthentication } from './use-authentication.js';
import { useCompiledExecution } from './use-compiled-execution.js';
import { useGraphiQLAssets } from './use-graphiql-assets.js';
import { cacheVerifiedTokens } from './verified-token-cache.js';
import { useInternalStats } from './use-internal-stats.js';
import { useOpenApi } from './use-openapi.js';
import { useReadiness } from './use-readiness.js';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Clock for tokens, transmissions and exceptions (tests). Default: the system clock. */
  now?: () => Date;
  logger?: Logger;
  /** See AuthenticatorOptions.clientCacheTtlMs. Default 5000. */
  clientCacheTtlMs?: number;
  rateLimit?: AuthRateLimiterOptions;
  /** Size budget of the snapshot cache (see SnapshotCache); 0 disables it. Default a quarter of the heap limit. */
  snapshotCacheBytes?: number;
  /** Extra Yoga/envelop plugins (tests observe executions with one). */
  plugins?: Parameters<typeof createYoga>[0]['plugins'];
}

export interface App {
  yoga: YogaServerInstance<Record<string, unknown>, AppContext>;
  /** Request in, Response out: tests call it without a socket. */
  fetch(input: string | Request, init?: RequestInit): Promise<Response>;
  services: AppServices;
  clients: ClientStore;
  tokens: TokenService;
}

/**
 * Assembles the fetch-style app (DESIGN section 1): /graphql, REST routes,
 * health and readiness, the OpenAPI document and its /docs page.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? createLogger();
  const clients = await ClientStore.open(database.db, config, { now });
  const tokens = await TokenService.create(database.db, config, { now });
  const authenticator = createAuthenticator(cacheVerifiedTokens(tokens, { now }), clients, {
    clientCacheTtlMs: options.clientCacheTtlMs,
  });
  const grant = createTokenGrant(tokens, clients, new AuthRateLimiter(options.rateLimit));

  const services: AppServices = {
    config,
    database,
    transmissionIds: createTransmissionIds(database.db, now),
    snapshots: new SnapshotCache(database.db, options.snapshotCacheBytes),
    authenticate: (request) => authenticator.authenticate(request),
    issueToken: (request, grantContext) => grant(request, grantContext),
    now,
    log: logger.log,
  };

  const graphqlEndpoint = '/graphql';
  const yoga = createYoga<Record<string, unknown>, AppContext>({
    schema,
    graphqlEndpoint,
    healthCheckEndpoint: '/health',
    landingPage: false,
    graphiql: graphiqlOptions({ config, database, clients, tokens }),
    renderGraphiQL: renderGraphiQLPage,
    logging: logger.yogaLogger,
    context: (initial): AppContext => {
      let principal: Promise<Principal> | undefined;
      const request = initial.request as Request;
      return {
        services,
        correlationId: (initial as { correlationId?: string }).correlationId ?? randomUUID(),
        principal: () => (principal ??= services.authenticate(request)),
        grant: (initial as { grant?: GraphQLContext['grant'] }).grant ?? { remoteAddress: remoteAddress(initial) },
      };
    },
    plugins: [
      useReadiness(database),
      ...(config.graphiql ? [useGraphiQLAssets(graphqlEndpoint)] : []),
      useOpenApi(config),
      ...useInternalStats(services.snapshots),
      useRestApi(services, () => tokens.publicJwks()),
      useAuthentication(),
      useCompiledExecution(logger),
      ...(options.plugins ?? []),
    ],
  });

  return {
    yoga,
    fetch: (input, init) => Promise.resolve((yoga.fetch as (i: string | Request, init?: RequestInit) => Promise<Response>)(input, init)),
    services,
    clients,
    tokens,
  };
}
