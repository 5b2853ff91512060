import type { Plugin } from '@envelop/core';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Registry } from 'prom-client';
import type { AuthRateLimiterOptions } from '../auth/auth-rate-limiter.js';
import type { ClientStore } from '../auth/client-store.js';
import type { TokenService } from '../auth/tokens.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { Executor } from '../executor/executor.js';
import type { AppContext, AppServices } from '../graphql/context.js';
import { corsPolicy } from '../http/cors-policy.js';
import { graphiqlOptions } from '../http/graphiql/options.js';
import { renderGraphiQLPage } from '../http/graphiql/page.js';
import { useAccessLog } from '../http/use-access-log.js';
import { useCorrelationId } from '../http/use-correlation-id.js';
import { useCsrfPrevention } from '../http/use-csrf-prevention.js';
import { useGraphiQLAssets } from '../http/use-graphiql-assets.js';
import { useInternalStats } from '../http/use-internal-stats.js';
import { useMetrics } from '../http/use-metrics.js';
import { useNotFound } from '../http/use-not-found.js';
import { useOpenApi } from '../http/use-openapi.js';
import { useReadiness } from '../http/use-readiness.js';
import { useRestApi } from '../http/use-rest-api.js';
import { useRestQuotas } from '../http/use-rest-quotas.js';
import type { DeliveryWorker } from '../push/delivery-worker.js';
import type { PushServices } from '../push/subscription-service.js';
import { createLogger, type Logger } from '../service/logger.js';
import { createDatabaseMetrics } from '../service/metrics.js';
import { createAppExecutor, GRAPHQL_ENDPOINT } from './executor.js';
import { createServices } from './services.js';
import { createDeliveryWorker, type DeliveryWorkerOverrides } from './workers.js';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Clock for tokens, transmissions and exceptions (tests). Default: the system clock. */
  now?: () => Date;
  logger?: Logger;
  /** See AuthenticatorOptions.clientCacheTtlMs. Default 5000. */
  clientCacheTtlMs?: number;
  /** Failed-authentication limits; default from config.quotas. */
  rateLimit?: AuthRateLimiterOptions;
  /** Size budget of the snapshot cache (see SnapshotCache); 0 disables it. Default a quarter of the heap limit. */
  snapshotCacheBytes?: number;
  /**
   * Serve `GET /metrics` on this app when metrics are on (config.metrics).
   * Default: unless TT_METRICS_PORT moves it to serve's separate listener.
   */
  metricsEndpoint?: boolean;
  /** Webhook sending overrides (tests): the HTTP send, the retry policy, the callback host check. */
  webhooks?: DeliveryWorkerOverrides & { checkHost?: PushServices['checkHost'] };
  /** Extra execution plugins (tests observe executions with one; serve adds tracing). */
  plugins?: Plugin<any>[];
}

export interface App {
  yoga: YogaServerInstance<Record<string, unknown>, AppContext>;
  /** The one executor behind /graphql, the REST routes and webhook bodies. */
  executor: Executor;
  /** Request in, Response out: tests call it without a socket. */
  fetch(input: string | Request, init?: RequestInit): Promise<Response>;
  services: AppServices;
  clients: ClientStore;
  tokens: TokenService;
  /** Sends the webhook outbox; `serve` (or `tracking deliver`) starts it, tests run rounds with runOnce(). */
  deliveries: DeliveryWorker;
  /** Stops the delivery worker and closes its connections (not the database). */
  close(): Promise<void>;
  /** The metrics read from this app's database (createDatabaseMetrics); undefined when metrics are off. */
  metricsRegistry?: Registry;
}

/**
 * Assembles the fetch-style HTTP app (docs/architecture.md, Executor): /graphql on Yoga with the executor's
 * plugins, the REST routes of the route table, health and readiness, the OpenAPI document and its /docs page,
 * and the delivery worker (started by serve).
 */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const set = await createServices({ ...options, logger, checkHost: options.webhooks?.checkHost });
  const { services, clients, tokens, rateLimits } = set;
  const executor = createAppExecutor(set, { logger, plugins: options.plugins });
  const delivery = createDeliveryWorker(services, executor, { log: logger.log, now: options.now, overrides: options.webhooks });
  const metricsRegistry = config.metrics.enabled
    ? createDatabaseMetrics(database, {
        onError: (err) => logger.log('warn', 'exception counts for /metrics failed', { error: String(err) }),
      })
    : undefined;

  const cors = corsPolicy(config.corsOrigins);
  const yoga = createYoga<Record<string, unknown>, AppContext>({
    schema: executor.schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    healthCheckEndpoint: '/health',
    landingPage: false,
    cors: cors.option,
    graphiql: graphiqlOptions({ config, database, clients, tokens }),
    renderGraphiQL: renderGraphiQLPage,
    logging: logger.yogaLogger,
    maskedErrors: executor.masking,
    plugins: [
      useCorrelationId(),
      useAccessLog(logger),
      ...(metricsRegistry
        ? [
            useMetrics({
              appRegistry: metricsRegistry,
              serveEndpoint: options.metricsEndpoint ?? config.metrics.port === undefined,
              token: config.metrics.token,
            }),
          ]
        : []),
      useReadiness(database),
      ...(config.graphiql ? [useGraphiQLAssets(GRAPHQL_ENDPOINT)] : []),
      useOpenApi(config),
      ...useInternalStats(services.snapshots),
      ...(rateLimits.quotas ? [useRestQuotas(rateLimits.quotas, services)] : []),
      useRestApi(services, executor, () => tokens.publicJwks(), rateLimits.addressOf),
      ...cors.plugins,
      ...useCsrfPrevention(),
      // Last of the HTTP plugins: a path nothing above answered and no route names.
      useNotFound(services),
      // The executor's plugins, the same instances REST and push run with (context factory first).
      ...(executor.plugins as Plugin[]),
    ],
  });

  return {
    yoga,
    executor,
    deliveries: delivery.worker,
    close: async () => {
      await delivery.close();
      await set.close();
    },
    fetch: (input, init) => Promise.resolve((yoga.fetch as (i: string | Request, init?: RequestInit) => Promise<Response>)(input, init)),
    services,
    clients,
    tokens,
    metricsRegistry,
  };
}
