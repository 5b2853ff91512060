import type { AuthRateLimiterOptions } from '../auth/auth-rate-limiter.js';
import { ClientStore } from '../auth/client-store.js';
import { observeTokenGrant } from '../auth/observed-token-grant.js';
import { resolvePeppers } from '../auth/pepper.js';
import { createRateLimits, type RateLimits } from '../auth/rate-limits.js';
import { AccessCheck } from '../auth/access-check.js';
import { createAuthenticator } from '../auth/request-auth.js';
import { createTokenGrant } from '../auth/token-grant.js';
import { TokenService } from '../auth/tokens.js';
import { cacheVerifiedTokens } from '../auth/verified-token-cache.js';
import { CarrierStore } from '../carriers/carrier-store.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { AppServices } from '../graphql/context.js';
import { openWakeChannel, type WakeChannel } from './wake-channel.js';
import { ChangeFeed } from '../push/change-feed.js';
import { LiveStreams } from '../push/live-streams.js';
import { webhookSecretBox, type PushServices } from '../push/subscription-service.js';
import { checkResolvedHost } from '../push/webhook-sender.js';
import type { Logger } from '../observability/logger.js';
import { PredictedArrivals } from '../store/eta/predicted-arrivals.js';
import { SnapshotCache } from '../store/shipments/snapshot-cache.js';
import { createTransmissionIds } from '../store/housekeeping/transmission-ids.js';

export interface ServicesOptions {
  config: Config;
  database: Database;
  logger: Logger;
  /** Clock for tokens, transmissions and exceptions (tests). Default: the system clock. */
  now?: () => Date;
  /**
   * How long a client's state, the retired keys and an account's access to a shipment are kept in memory, in
   * ms (src/auth/access-check.ts); also how often live streams ask again. Default 5000. 0 asks the database
   * on every request (tests).
   */
  clientCacheTtlMs?: number;
  /** How often live streams ask again, in ms; default half clientCacheTtlMs (2500), or 2500 when that is 0. */
  streamCheckMs?: number;
  /**
   * How often a live stream that asked for PREDICTED_ARRIVAL evaluates it, in ms (tests); default
   * TT_EVALUATE_INTERVAL_SECONDS, as serve's webhook pass (0: only at changes of its shipment).
   */
  streamEvaluateMs?: number;
  /** Failed-authentication limits; default from config.quotas. */
  rateLimit?: AuthRateLimiterOptions;
  /** Size budget of the snapshot cache (see SnapshotCache); 0 disables it. Default a quarter of the heap limit. */
  snapshotCacheBytes?: number;
  /** The callback host check of webhook subscriptions (tests). */
  checkHost?: PushServices['checkHost'];
}

/** The long-lived services of one process, shared by the HTTP app and the workers. */
export interface ServiceSet {
  services: AppServices;
  clients: ClientStore;
  tokens: TokenService;
  rateLimits: RateLimits;
  /** Wake-ups between processes (Redis, when configured). */
  wakeChannel: WakeChannel;
  /** Stops the change feed and closes the rate-limit store and the wake channel (not the database). */
  close(): Promise<void>;
}

/**
 * Builds the services every execution and worker uses (docs/architecture.md, Floors: app): credentials and
 * tokens, quotas and failed-authentication limits (in memory or Redis), snapshots, push and carrier services.
 * `services.push.wake` does nothing until a delivery worker is attached (src/app/workers.ts).
 */
export async function createServices(options: ServicesOptions): Promise<ServiceSet> {
  const { config, database, logger } = options;
  const now = options.now ?? (() => new Date());
  const clients = await ClientStore.open(database.db, config, { now });
  const tokens = await TokenService.create(database.db, config, { now });
  // The one answer to "may this principal still see this?", for requests and live streams (docs/push.md: Live updates).
  const access = new AccessCheck(clients, database.db, { ttlMs: options.clientCacheTtlMs, now });
  const authenticator = createAuthenticator(cacheVerifiedTokens(tokens, { now }), access);
  // Quotas and failed-authentication limits (docs/errors.md: Quotas and rate limits), in memory or in Redis.
  const rateLimits = await createRateLimits(config, logger.log, options.rateLimit);
  const grant = createTokenGrant(tokens, clients, rateLimits.authLimiter, rateLimits.quotas);
  // During a pepper rotation the previous pepper still opens what it sealed (docs/operating.md "Rotating TT_SECRET_PEPPER").
  const peppers = await resolvePeppers(database.db, config);
  // Commits here wake the delivery workers and change feeds of every instance at once (Redis, when configured).
  const wakeChannel = await openWakeChannel({ redisUrl: config.quotas.redisUrl, keyPrefix: config.quotas.keyPrefix, log: logger.log });
  const push: PushServices = {
    environment: config.environment,
    secrets: webhookSecretBox(peppers),
    checkHost: options.checkHost ?? ((host) => checkResolvedHost(host, config.environment)),
    maxSubscriptionsPerClient: config.push.maxSubscriptionsPerClient,
    // Until a delivery worker is attached (src/app/workers.ts), a commit here only tells the other processes.
    wake: () => wakeChannel.publish(),
  };
  const changes = new ChangeFeed(database.db, {
    pollMs: config.push.pollMs,
    log: logger.log,
    wakeups: (listener) => wakeChannel.subscribe(listener),
  });
  const ttl = options.clientCacheTtlMs ?? 5000;
  const streams = new LiveStreams(changes, access, {
    maxPerClient: config.push.maxStreamsPerClient,
    // Every half TTL, with facts at most that old: a stream ends within the TTL (5 s) of the change, as lookups see it.
    checkMs: options.streamCheckMs ?? (ttl > 0 ? Math.max(100, Math.floor(ttl / 2)) : 2500),
    log: logger.log,
    // PREDICTED_ARRIVAL on a stream: at the cadence of serve's pass for webhooks (src/app/predicted-arrival-pusher.ts).
    evaluateMs: options.streamEvaluateMs ?? config.evaluateIntervalSeconds * 1000,
  });
  const services: AppServices = {
    config,
    database,
    transmissionIds: createTransmissionIds(database.db, now),
    snapshots: new SnapshotCache(database.db, options.snapshotCacheBytes),
    predictions: new PredictedArrivals(database.db, { modelCheckMs: config.eta.modelCheckSeconds * 1000 }),
    authenticate: (request) => authenticator.authenticate(request),
    principalNow: (request) => authenticator.principalNow(request),
    access,
    issueToken: observeTokenGrant((request, grantContext) => grant(request, grantContext)),
    push,
    changes,
    streams,
    carriers: new CarrierStore(database.db, peppers, config, now),
    now,
    log: logger.log,
    publicJwks: () => tokens.publicJwks(),
  };
  return {
    services,
    clients,
    tokens,
    rateLimits,
    wakeChannel,
    close: async () => {
      services.changes.stop();
      await Promise.all([rateLimits.close(), wakeChannel.close()]);
    },
  };
}
