import { randomUUID } from 'node:crypto';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Registry } from 'prom-client';
import type { AuthRateLimiterOptions } from '../auth/auth-rate-limiter.js';
import { ClientStore } from '../auth/client-store.js';
import { resolvePeppers } from '../auth/pepper.js';
import { createAuthenticator } from '../auth/request-auth.js';
import { createTokenGrant } from '../auth/token-grant.js';
import { TokenService } from '../auth/tokens.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { InternalContext } from '../executor/context.js';
import { renderGraphiQLPage } from '../http/graphiql/page.js';
import { schema } from '../graphql/schema/index.js';
import { SnapshotCache } from '../store/snapshot-cache.js';
import { CarrierStore } from '../carriers/carrier-store.js';
import { createTransmissionIds } from '../store/transmission-ids.js';
import { graphiqlOptions } from '../http/graphiql/options.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../domain/push/retry-policy.js';
import { ChangeFeed } from '../push/change-feed.js';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../push/delivery-worker.js';
import { webhookSecretBox, type PushServices } from '../push/subscription-service.js';
import { createPushBodies } from '../push/transmission-bodies.js';
import { checkResolvedHost, WebhookSender } from '../push/webhook-sender.js';
import { createLogger, type Logger } from '../service/logger.js';
import { countWebhookAttemptFailed, countWebhookDelivered, createDatabaseMetrics } from '../service/metrics.js';
import { observeTokenGrant } from '../auth/observed-token-grant.js';
import { currentRequest } from '../service/request-context.js';
import { useAccessLog } from '../http/use-access-log.js';
import { createRateLimits } from '../http/rate-limits.js';
import { useCorrelationId } from '../http/use-correlation-id.js';
import { useMetrics } from '../http/use-metrics.js';
import { useRestApi } from '../http/use-rest-api.js';
import { useAuthentication } from '../executor/use-authentication.js';
import { useCompiledExecution } from '../executor/use-compiled-execution.js';
import { corsPolicy } from '../http/cors-policy.js';
import { useConditionalGet } from '../executor/use-conditional-get.js';
import { useCsrfPrevention } from '../http/use-csrf-prevention.js';
import { useGraphQLLimits } from '../executor/use-graphql-limits.js';
import { useIntrospectionPolicy } from '../executor/use-introspection-policy.js';
import { checkOwnDocuments } from '../executor/own-documents.js';
import { useGraphiQLAssets } from '../http/use-graphiql-assets.js';
import { cacheVerifiedTokens } from '../auth/verified-token-cache.js';
import { useInternalStats } from '../http/use-internal-stats.js';
import { useOpenApi } from '../http/use-openapi.js';
import { useReadiness } from '../http/use-readiness.js';
import { serviceErrorMasking } from '../service/mask-error.js';
import type { Principal } from '../auth/principal.js';
import type { AppContext, AppServices } from '../graphql/context.js';

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
  webhooks?: {
    send?: DeliveryWorkerOptions['send'];
    retry?: RetryPolicy;
    checkHost?: PushServices['checkHost'];
  };
  /** Extra Yoga/envelop plugins (tests observe executions with one; serve adds tracing). */
  plugins?: Parameters<typeof createYoga>[0]['plugins'];
}

export interface App {
  yoga: YogaServerInstance<Record<string, unknown>, AppContext>;
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
 * Assembles the fetch-style app (docs/architecture.md, Executor): /graphql, REST routes,
 * health and readiness, the OpenAPI document and its /docs page.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? createLogger(config.logLevel);
  const clients = await ClientStore.open(database.db, config, { now });
  const tokens = await TokenService.create(database.db, config, { now });
  const authenticator = createAuthenticator(cacheVerifiedTokens(tokens, { now }), clients, {
    clientCacheTtlMs: options.clientCacheTtlMs,
  });
  // Quotas and failed-authentication limits (README: Quotas and rate limits), in memory or in Redis.
  const rateLimits = await createRateLimits(config, logger.log, options.rateLimit);
  const { addressOf } = rateLimits;
  const grant = createTokenGrant(tokens, clients, rateLimits.authLimiter, rateLimits.tokenQuota);
  // A late-bound wake-up: the worker needs the Yoga instance, created below, and services need the wake-up.
  let deliveries: DeliveryWorker | undefined;
  // During a pepper rotation the previous pepper still opens what it sealed (README "Rotating TT_SECRET_PEPPER").
  const peppers = await resolvePeppers(database.db, config);
  const push: PushServices = {
    environment: config.environment,
    secrets: webhookSecretBox(peppers),
    checkHost: options.webhooks?.checkHost ?? ((host) => checkResolvedHost(host, config.environment)),
    maxSubscriptionsPerClient: config.push.maxSubscriptionsPerClient,
    wake: () => deliveries?.wake(),
  };

  const services: AppServices = {
    config,
    database,
    transmissionIds: createTransmissionIds(database.db, now),
    snapshots: new SnapshotCache(database.db, options.snapshotCacheBytes),
    authenticate: (request) => authenticator.authenticate(request),
    issueToken: observeTokenGrant((request, grantContext) => grant(request, grantContext)),
    push,
    changes: new ChangeFeed(database.db, { pollMs: config.push.pollMs, log: logger.log }),
    carriers: new CarrierStore(database.db, peppers, config, now),
    now,
    log: logger.log,
  };
  const metricsRegistry = config.metrics.enabled
    ? createDatabaseMetrics(database, {
        onError: (err) => logger.log('warn', 'exception counts for /metrics failed', { error: String(err) }),
      })
    : undefined;

  const graphqlEndpoint = '/graphql';
  const cors = corsPolicy(config.corsOrigins);
  const yoga = createYoga<Record<string, unknown>, AppContext>({
    schema,
    graphqlEndpoint,
    healthCheckEndpoint: '/health',
    landingPage: false,
    cors: cors.option,
    graphiql: graphiqlOptions({ config, database, clients, tokens }),
    renderGraphiQL: renderGraphiQLPage,
    logging: logger.yogaLogger,
    maskedErrors: serviceErrorMasking(),
    context: (initial): AppContext => {
      const given = initial as InternalContext;
      let principal: Promise<Principal> | undefined = given.asPrincipal ? Promise.resolve(given.asPrincipal) : undefined;
      const request = initial.request as Request;
      return {
        services,
        correlationId: given.correlationId ?? currentRequest()?.correlationId ?? randomUUID(),
        principal: () => (principal ??= services.authenticate(request).then(identify)),
        grant: given.grant ?? { remoteAddress: addressOf(request, initial) },
        ...(given.transmission ? { transmission: given.transmission } : {}),
        ...(given.conditional ? { conditional: given.conditional } : {}),
      };
    },
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
      ...(config.graphiql ? [useGraphiQLAssets(graphqlEndpoint)] : []),
      useOpenApi(config),
      ...useInternalStats(services.snapshots),
      ...rateLimits.restPlugins(services),
      useRestApi(services, () => tokens.publicJwks(), addressOf),
      ...cors.plugins,
      ...useCsrfPrevention(),
      ...useGraphQLLimits(config.graphql.limits),
      useIntrospectionPolicy({ policy: config.graphql.introspection, authenticate: services.authenticate }),
      useAuthentication(),
      ...rateLimits.graphqlPlugins(graphqlEndpoint),
      useConditionalGet(),
      useCompiledExecution(logger, { maxOperations: config.graphql.compiledCacheSize }),
      ...(options.plugins ?? []),
    ],
  });

  checkOwnDocuments(yoga as unknown as Parameters<typeof checkOwnDocuments>[0]);

  const sender = new WebhookSender({ environment: config.environment, timeoutMs: config.push.timeoutSeconds * 1000 });
  deliveries = new DeliveryWorker({
    database,
    secrets: push.secrets,
    bodies: createPushBodies(yoga as unknown as Parameters<typeof createPushBodies>[0], database.db),
    send: options.webhooks?.send ?? ((request) => sender.send(request)),
    log: logger.log,
    now,
    concurrency: config.push.concurrency,
    lanes: config.push.lanes,
    maxLoopDelayMs: config.push.maxLoopDelayMs,
    pollMs: config.push.pollMs,
    retry: options.webhooks?.retry ?? { ...DEFAULT_RETRY_POLICY, retryPeriodMs: config.push.retryHours * 3_600_000 },
    onDelivered: (_delivery, latencyMs) => countWebhookDelivered(latencyMs),
    onAttemptFailed: (_delivery, response, final) => countWebhookAttemptFailed(response.status, final),
  });

  return {
    yoga,
    deliveries,
    close: async () => {
      services.changes.stop();
      await deliveries?.stop();
      sender.close();
      await rateLimits.close();
    },
    fetch: (input, init) => Promise.resolve((yoga.fetch as (i: string | Request, init?: RequestInit) => Promise<Response>)(input, init)),
    services,
    clients,
    tokens,
    metricsRegistry,
  };
}

/** Names the verified client in the request's access-log line. */
function identify(principal: Principal): Principal {
  const info = currentRequest();
  if (info) info.clientId = principal.clientId;
  return principal;
}
