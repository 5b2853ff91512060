import type { RequestListener } from 'node:http';
import type { Plugin } from '@envelop/core';
import type { ServerAdapterPlugin } from '@whatwg-node/server';
import { Request as FetchRequest } from '@whatwg-node/fetch';
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
import { useCorrelationId, useCorrelationIdInErrors } from '../http/use-correlation-id.js';
import { useCsrfPrevention } from '../http/use-csrf-prevention.js';
import { useGraphiQLAssets } from '../http/use-graphiql-assets.js';
import { useInternalStats } from '../http/use-internal-stats.js';
import { useHttpMetrics, useMetricsEndpoint } from '../http/use-metrics.js';
import { useIncrementalDelivery } from '../http/use-incremental-delivery.js';
import { useNotFound } from '../http/use-not-found.js';
import { useOpenApi } from '../http/use-openapi.js';
import { usePersistedOperationsPolicy } from '../http/use-persisted-operations.js';
import { useReadiness } from '../http/use-readiness.js';
import { createPersistedServer, type PersistedServer } from '../http/persisted-server.js';
import { createRestServer, isRestTarget } from '../http/rest-server.js';
import { useRateLimitHeaders } from '../http/rest-quotas.js';
import type { DeliveryWorker } from '../push/delivery-worker.js';
import type { PushServices } from '../push/subscription-service.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createDatabaseMetrics } from '../observability/metrics.js';
import { createAppExecutor, GRAPHQL_ENDPOINT } from './executor.js';
import { createServices } from './services.js';
import { createDeliveryWorker, type DeliveryWorkerOverrides } from './workers.js';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Clock for tokens, transmissions and exceptions (tests). Default: the system clock. */
  now?: () => Date;
  logger?: Logger;
  /** See ServicesOptions.clientCacheTtlMs (src/app/services.ts). Default 5000. */
  clientCacheTtlMs?: number;
  /** See ServicesOptions.streamCheckMs. */
  streamCheckMs?: number;
  /** See ServicesOptions.streamEvaluateMs. */
  streamEvaluateMs?: number;
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
  /** Extra HTTP plugins of both pipelines, after the correlation id (serve adds request spans). */
  httpPlugins?: ServerAdapterPlugin[];
}

export interface App {
  yoga: YogaServerInstance<Record<string, unknown>, AppContext>;
  /** Persisted queries by hash on node:http, beside Yoga (`take` says which requests it answers). */
  persisted: PersistedServer;
  /** The one executor behind /graphql, the REST routes and webhook bodies. */
  executor: Executor;
  /** Request in, Response out: tests call it without a socket. */
  fetch(input: string | Request, init?: RequestInit): Promise<Response>;
  /** The node:http listener (src/http/http-server.ts): REST routes to the REST server, the rest to Yoga. */
  listener: RequestListener;
  /** `fetch` with a server context, as the node adapter passes it (`{ req }`: the socket's peer address). */
  handle(request: Request, serverContext: Record<string, unknown>): Promise<Response>;
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
  const delivery = createDeliveryWorker(services, executor, {
    log: logger.log,
    now: options.now,
    overrides: options.webhooks,
    wakeChannel: set.wakeChannel,
  });
  const metricsRegistry = config.metrics.enabled
    ? createDatabaseMetrics(database, {
        onError: (err) => logger.log('warn', 'exception counts for /metrics failed', { error: String(err) }),
      })
    : undefined;

  const cors = corsPolicy(config.corsOrigins);
  // The HTTP plugins of both pipelines, in order: the same instances for the REST server and for Yoga.
  const stats = useInternalStats(services.snapshots);
  const shared: ServerAdapterPlugin[] = [
    useCorrelationId(),
    ...stats.counting,
    ...(options.httpPlugins ?? []),
    useAccessLog(logger),
    ...(metricsRegistry ? [useHttpMetrics()] : []),
    useRateLimitHeaders(),
  ];
  const rest = createRestServer({
    services,
    executor,
    quotas: rateLimits.quotas,
    addressOf: rateLimits.addressOf,
    plugins: [...shared, ...cors.serverPlugins],
  });
  // Persisted queries by hash, straight on node:http like the REST routes (src/http/persisted-server.ts).
  const persisted = usePersistedOperationsPolicy(config.graphql.trustedDocuments);
  const persistedServer = createPersistedServer({
    executor,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    documentFor: persisted.documentFor,
    plugins: [...shared, ...cors.serverPlugins],
    onMasked: (error) => logger.yogaLogger.error(error),
  });
  const yoga = createYoga<Record<string, unknown>, AppContext>({
    schema: executor.schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    healthCheckEndpoint: '/health',
    landingPage: false,
    // The node:http layer (src/http/http-server.ts) reads every body within its route's limit before the app sees
    // it (413 otherwise). Yoga's own check (25 MB by default) would pipe each body through a TransformStream
    // again, with an AbortController and a DOMException per request: about 5 % of a GraphQL POST.
    maxRequestBodySize: false,
    cors: cors.option,
    graphiql: graphiqlOptions({ config, database, clients, tokens }),
    renderGraphiQL: renderGraphiQLPage,
    logging: logger.yogaLogger,
    maskedErrors: executor.masking,
    plugins: [
      ...(shared as Plugin[]),
      useCorrelationIdInErrors(),
      ...(metricsRegistry && (options.metricsEndpoint ?? config.metrics.port === undefined)
        ? [useMetricsEndpoint({ appRegistry: metricsRegistry, token: config.metrics.token })]
        : []),
      useReadiness(database),
      ...(config.graphiql ? [useGraphiQLAssets(GRAPHQL_ENDPOINT)] : []),
      useOpenApi(config),
      ...stats.endpoint,
      ...(cors.plugins as Plugin[]),
      ...useCsrfPrevention(),
      // Last of the HTTP plugins: a path nothing above answered and no route names.
      useNotFound(services),
      // Automatic persisted queries, or trusted documents only (TT_GRAPHQL_TRUSTED_DOCUMENTS): /graphql alone.
      ...persisted.plugins,
      // @defer and @stream over multipart/mixed and SSE (the directives are in the schema: src/graphql/schema/index.ts).
      ...useIncrementalDelivery(),
      // The executor's plugins, the same instances REST and push run with (context factory first).
      ...(executor.plugins as Plugin[]),
    ],
  });
  const yogaFetch = yoga.fetch as (input: string | Request, init?: RequestInit) => Promise<Response>;
  const restFetch = (input: string | Request, init?: RequestInit) =>
    rest.fetch(typeof input === 'string' || init ? new FetchRequest(input, init) : input);

  return {
    yoga,
    persisted: persistedServer,
    executor,
    deliveries: delivery.worker,
    close: async () => {
      await delivery.close();
      await set.close();
    },
    // A REST route to the REST server, everything else to Yoga: as the node:http layer splits them.
    fetch: (input, init) =>
      Promise.resolve(
        isRestTarget(pathOf(typeof input === 'string' ? input : input.url)) ? restFetch(input, init) : yogaFetch(input, init),
      ),
    listener: (req, res) => {
      // The servers answer errors themselves; the promise only says when the response is written.
      if (isRestTarget(req.url ?? '/')) return void rest.node(req, res);
      const call = persistedServer.take(req);
      void (call ? persistedServer.node(req, res, call) : yoga(req, res));
    },
    handle: (request, serverContext) =>
      Promise.resolve(isRestTarget(pathOf(request.url)) ? rest.fetch(request, serverContext) : yoga.fetch(request, serverContext)),
    services,
    clients,
    tokens,
    metricsRegistry,
  };
}

/** The path of a URL or request target (an in-process caller passes absolute URLs). */
function pathOf(target: string): string {
  return target.startsWith('/') ? target : new URL(target).pathname;
}
