import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseTrustedProxies, TrustedProxiesError, type ForwardedHeader, type TrustedProxies } from '../domain/client-address.js';
import { DEFAULT_THRESHOLDS, type ExceptionThresholds } from '../domain/thresholds.js';
import { resilienceConfig, type ResilienceConfig } from './resilience-config.js';
import { configVariable } from './variables.js';

/**
 * All configuration comes from the environment and is read and validated
 * here, once; a bad value stops start-up with a message naming the variable.
 */

export type Environment = 'sandbox' | 'production';

/** `TT_LOG_LEVEL` values; `silent` turns logging off. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface MetricsConfig {
  /** `TT_METRICS`: collect metrics and serve `GET /metrics`. Default true. */
  enabled: boolean;
  /** `TT_METRICS_PORT`: serve /metrics only on this port (serve starts a second listener); unset: on PORT. */
  port: number | undefined;
  /** `TT_METRICS_TOKEN`: when set, /metrics requires `Authorization: Bearer <token>`. */
  token: string | undefined;
}

export interface TracingConfig {
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`: OTLP/HTTP base address; traces go to its /v1/traces. Unset: tracing off. */
  otlpEndpoint: string | undefined;
  /** `OTEL_SERVICE_NAME`, default track-and-trace. */
  serviceName: string;
}

/** Push delivery (docs/architecture.md, Push): webhooks and live subscriptions. */
export interface PushConfig {
  /** `TT_DELIVERY_WORKER`: serve sends webhook deliveries itself. Default true; false when dedicated `tracking deliver` workers do. */
  worker: boolean;
  /** `TT_DELIVERY_CONCURRENCY`: webhook requests in flight per worker. Default 64. */
  concurrency: number;
  /** `TT_DELIVERY_LANES`: delivery rounds in flight per worker (one claims and renders while another sends). Default 2. */
  lanes: number;
  /** `TT_DELIVERY_POLL_MS`: how often an idle worker looks for due deliveries and live updates. Default 500. */
  pollMs: number;
  /**
   * `TT_DELIVERY_MAX_LOOP_DELAY_MS`: event-loop delay (p99 over 100 ms) above which serve's delivery worker
   * pauses briefly between renders and sends, so lookups keep their latency during a fan-out. 0 turns it off.
   * Default 50. (`tracking deliver` serves no requests and never pauses.)
   */
  maxLoopDelayMs: number;
  /**
   * `TT_DELIVERY_LEASE_SECONDS`: how long a worker's claim on a delivery lasts; a worker that dies mid-send
   * leaves its deliveries to others after this. Longer than a round's sending takes. Default 60.
   */
  leaseSeconds: number;
  /** `TT_WEBHOOK_TIMEOUT_SECONDS`: a receiver's time to answer. Default 10. */
  timeoutSeconds: number;
  /** `TT_WEBHOOK_RETRY_HOURS`: how long a failing delivery is retried before it is given up. Default 24. */
  retryHours: number;
  /** `TT_MAX_SUBSCRIPTIONS_PER_CLIENT`: active webhook subscriptions one client may hold. Default 1000. */
  maxSubscriptionsPerClient: number;
  /**
   * `TT_STREAMS_PER_CLIENT_MAX`: live streams (GraphQL subscriptions over SSE) one client may hold open at
   * once, counted per instance. Default 20.
   */
  maxStreamsPerClient: number;
}

/** A per-client quota of successful requests (src/quotas/quotas.ts). */
export interface QuotaLimit {
  /** Requests per minute. */
  perMinute: number;
  /** Extra requests beyond perMinute, at most this many per 10 minutes; 0: none. */
  burst: number;
}

/** Quotas and rate limits (docs/errors.md: Quotas and rate limits). */
export interface QuotaConfig {
  /** `TT_QUOTAS`: per-client quotas on lookups, subscription routes and tokens. Default true. */
  enabled: boolean;
  /** `TT_QUOTA_LOOKUPS_PER_MINUTE` (600) and `TT_QUOTA_LOOKUPS_BURST` (300): GET /v2/shipments and GraphQL `shipment`/`shipmentUpdates`. */
  lookups: QuotaLimit;
  /** `TT_QUOTA_SUBSCRIPTIONS_PER_MINUTE` (120) and `TT_QUOTA_SUBSCRIPTIONS_BURST` (60): /v2/subscriptions* and their GraphQL fields. */
  subscriptions: QuotaLimit;
  /** `TT_QUOTA_TOKENS_PER_MINUTE` (20) and `TT_QUOTA_TOKENS_BURST` (20): tokens issued. */
  tokens: QuotaLimit;
  /** `TT_AUTH_FAILURES_PER_CLIENT_ADDRESS`: failed authentications of one client_id from one address per window. Default 10. */
  authFailuresPerClientAddress: number;
  /** `TT_AUTH_FAILURES_PER_ADDRESS`: failed authentications from one address (IPv6: one /64) per window. Default 50. */
  authFailuresPerAddress: number;
  /** `TT_AUTH_FAILURE_WINDOW_SECONDS`: the failed-authentication window. Default 60. */
  authFailureWindowSeconds: number;
  /** `TT_TRUSTED_PROXIES` (CIDRs) and `TT_FORWARDED_HEADER` (x-forwarded-for or forwarded); undefined: no proxy trusted. */
  trustedProxies: TrustedProxies | undefined;
  /** `REDIS_URL`: counters shared by every instance, and wake-ups between instances, in Redis; unset: in memory, per process. */
  redisUrl: string | undefined;
  /** `TT_RATE_LIMIT_PREFIX`: prefix of the Redis keys. Default tt:<environment>. */
  keyPrefix: string;
}

/**
 * `TT_GRAPHQL_INTROSPECTION`: who may introspect the schema and read "Did you
 * mean …?" suggestions in GraphQL errors (both describe the schema).
 * `public`: anyone; `token`: requests with a valid access token; `off`: no one.
 * `auto` (the default) is `public` in sandbox (GraphiQL's docs and completion)
 * and `token` in production.
 */
export type IntrospectionPolicy = 'public' | 'token' | 'off';

/**
 * Bounds on a GraphQL document (docs/architecture.md, Limits and failure), checked while it is parsed
 * (tokens) and validated (the rest), before it is compiled or executed; the
 * defaults are GraphQL Armor's where the service's own documents fit them.
 * src/executor/use-graphql-limits.ts applies them.
 */
export interface GraphQLLimits {
  /** `TT_GRAPHQL_MAX_TOKENS`: lexical tokens in the document; counted while parsing, so a huge or deep document stops early. Default 1000. */
  maxTokens: number;
  /** `TT_GRAPHQL_MAX_DEPTH`: nesting of fields and fragments in an operation (introspection's __schema excluded). Default 12. */
  maxDepth: number;
  /** `TT_GRAPHQL_MAX_ALIASES`: aliases in an operation. Default 15. */
  maxAliases: number;
  /** `TT_GRAPHQL_MAX_DIRECTIVES`: directives in an operation. Default 50. */
  maxDirectives: number;
  /** `TT_GRAPHQL_MAX_COST`: GraphQL Armor's cost estimate of an operation (objects 2, scalars 1, times 1.5 per level). Default 5000. */
  maxCost: number;
}

/** GraphQL Armor's defaults, except depth: the full-snapshot lookup is 10 deep. */
export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimits = {
  maxTokens: intDefault('TT_GRAPHQL_MAX_TOKENS'),
  maxDepth: intDefault('TT_GRAPHQL_MAX_DEPTH'),
  maxAliases: intDefault('TT_GRAPHQL_MAX_ALIASES'),
  maxDirectives: intDefault('TT_GRAPHQL_MAX_DIRECTIVES'),
  maxCost: intDefault('TT_GRAPHQL_MAX_COST'),
};

export interface GraphQLConfig {
  limits: GraphQLLimits;
  /** Resolved `TT_GRAPHQL_INTROSPECTION` (see IntrospectionPolicy). */
  introspection: IntrospectionPolicy;
  /** `TT_GRAPHQL_COMPILED_CACHE_SIZE`: operations kept compiled (graphql-jit), least recently used dropped first; 0: never compiled. Default 100. */
  compiledCacheSize: number;
  /**
   * `TT_GRAPHQL_TRUSTED_DOCUMENTS`: the trusted documents, by SHA-256 hash (hex) of their text, read from the
   * manifest file at start-up; /graphql then runs nothing else (src/http/use-persisted-operations.ts).
   * Undefined: any document, with automatic persisted queries.
   */
  trustedDocuments?: ReadonlyMap<string, string>;
}

/** Carrier event sources (docs/carriers.md "Carrier onboarding"): notifications, the poller, operator ingest. */
export interface CarriersConfig {
  /** `TT_CARRIER_POLLER`: serve polls the carriers' DCSA events endpoints itself. Default true; false when a dedicated `tracking poll` runs. */
  poller: boolean;
  /** `TT_CARRIER_NOTIFICATION_MAX_BYTES`: largest notification body accepted (413 past it). Default 5 MiB. */
  notificationMaxBytes: number;
  /** `TT_OPERATOR_INGEST_MAX_BYTES`: largest bundle accepted by POST /v2/operator/ingest. Default 64 MiB. */
  operatorIngestMaxBytes: number;
  /** `TT_CARRIER_POLL_OVERLAP_SECONDS`: how far before its watermark a poll asks again (late-published events). Default 300. */
  pollOverlapSeconds: number;
  /** `TT_CARRIER_POLL_PAGE_SIZE`: the `limit` of each page asked for. Default 100. */
  pollPageSize: number;
  /**
   * `TT_CARRIER_POLL_LEASE_SECONDS`: how long a poller's claim on a carrier lasts past its last renewal (each page,
   * each retry); a poller that crashed leaves its carriers to the others after this. At least 90 (longer than a
   * retry's longest wait, 60 s). Default 120.
   */
  pollLeaseSeconds: number;
  /**
   * `TT_REJECTED_EVENTS_MAX`: rejected carrier events kept for `tracking carrier rejected replay`
   * (docs/carriers.md "Carrier onboarding"); past it the oldest go. Default 10000.
   */
  rejectedEventsMax: number;
}

/** Tracking requests (docs/tracking-requests.md): fetching what clients ask to track from the carriers. */
export interface TrackingConfig {
  /** `TT_TRACKING_FETCHER`: serve fetches tracked references itself. Default true; false when a dedicated `tracking poll` runs. */
  fetcher: boolean;
  /** `TT_TRACKING_FETCH_MIN_SECONDS`: shortest wait between two fetches of one reference. Default 300 (20 in sandbox). */
  fetchMinSeconds: number;
  /** `TT_TRACKING_FETCH_MAX_SECONDS`: longest wait (idle shipments). Default 21600 (6 h; 120 in sandbox). */
  fetchMaxSeconds: number;
  /** `TT_TRACKING_GIVE_UP_HOURS`: a reference the carrier has nothing for after this long turns FAILED. Default 72 (1 in sandbox). */
  giveUpHours: number;
  /** `TT_TRACKING_COMPLETE_AFTER_DAYS`: an arrived shipment quiet this long is STOPPED (COMPLETED). Default 14. */
  completeAfterDays: number;
  /** `TT_TRACKING_IDLE_GIVE_UP_DAYS`: a tracked shipment with no news this long is STOPPED (GIVEN_UP). Default 60. */
  idleGiveUpDays: number;
  /** `TT_MAX_TRACKING_REQUESTS_PER_CLIENT`: live tracking requests one client may hold. Default 5000. */
  maxRequestsPerClient: number;
  /** `TT_TRACKING_FETCH_CONCURRENCY`: fetches in flight per instance. Default 8. */
  concurrency: number;
  /** `TT_TRACKING_TICK_MS`: how often an instance looks for due fetches. Default 1000. */
  tickMs: number;
}

/** The predicted arrival (docs/predicted-arrival.md): training in serve, and how often a newer model is looked for. */
export interface EtaConfig {
  /** `TT_ETA_TRAINING`: serve trains the model in the background. Default true. */
  training: boolean;
  /** `TT_ETA_TRAIN_INTERVAL_SECONDS`: how often serve looks for newly arrived voyages. Default 900. */
  trainIntervalSeconds: number;
  /** `TT_ETA_TRAIN_BATCH_EVENTS`: stored events scanned per batch. Default 5000. */
  trainBatchEvents: number;
  /** `TT_ETA_TRAIN_PAUSE_MS`: pause between batches in serve. Default 50. */
  trainPauseMs: number;
  /** `TT_ETA_MODEL_CHECK_SECONDS`: how often an instance asks for a newer model version. Default 10. */
  modelCheckSeconds: number;
}

export interface Config {
  /** `PORT`, default 4000. */
  port: number;
  /** `HOST`, default 0.0.0.0. */
  host: string;
  /** `DATABASE_URL`; undefined means the embedded SQLite file. */
  databaseUrl: string | undefined;
  /** `TT_DB_POOL_SIZE`, mysql pool size, default 10. */
  dbPoolSize: number;
  /** `TT_ENVIRONMENT`, default sandbox. */
  environment: Environment;
  /** `TT_BASE_URL`, the environment's base address and token issuer. Default http://localhost:PORT. */
  baseUrl: string;
  /** Whether TT_BASE_URL was set (else baseUrl is derived from PORT, a guess outside the server's own process). */
  baseUrlSet: boolean;
  /** `TT_SENDER_ID`, the constant senderID. Default TRACK-AND-TRACE. */
  senderId: string;
  /** `TT_SIGNING_KEY`: private JWK (JSON) for token signing; required in production. */
  signingKeyJwk: string | undefined;
  /** `TT_SECRET_PEPPER`: server-side pepper for client secret HMACs; required in production. */
  secretPepper: string | undefined;
  /**
   * `TT_PREVIOUS_SECRET_PEPPER`: during a pepper rotation, the pepper before
   * TT_SECRET_PEPPER: what it hashed and sealed is still accepted, and moved to
   * the new one (docs/operating.md "Rotating TT_SECRET_PEPPER"). Default unset.
   */
  previousSecretPepper: string | undefined;
  /** `TT_GRAPHIQL`: serve GraphiQL; default true in sandbox, false in production. */
  graphiql: boolean;
  /**
   * `TT_EVALUATE_INTERVAL_SECONDS`: how often serve re-runs time-based exception rules and evaluates PREDICTED_ARRIVAL
   * (webhooks, live streams). Default 300; 0 disables (a live stream then evaluates at its shipment's changes only).
   */
  evaluateIntervalSeconds: number;
  /** `TT_SNAPSHOT_CACHE_MB`: memory budget of the assembled-snapshot cache; 0 disables it. Default: a quarter of the heap limit, at most 256 MiB. */
  snapshotCacheMb: number | undefined;
  /** `TT_SEED_SANDBOX`: seed the sandbox bundle into an empty sandbox database. Default true. */
  seedSandbox: boolean;
  thresholds: ExceptionThresholds;
  /** `TT_LOG_LEVEL`, default info. */
  logLevel: LogLevel;
  metrics: MetricsConfig;
  tracing: TracingConfig;
  push: PushConfig;
  eta: EtaConfig;
  quotas: QuotaConfig;
  graphql: GraphQLConfig;
  /**
   * `TT_CORS_ORIGINS`: comma-separated origins (`https://app.example.com`) whose
   * browser pages may call the API; `*` for any. Empty (default): no CORS headers.
   */
  corsOrigins: string[];
  /** Timeouts and limits: resilience-config.ts. */
  resilience: ResilienceConfig;
  carriers: CarriersConfig;
  tracking: TrackingConfig;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** The declared default of an integer variable (src/config/variables.ts). */
function intDefault(name: string): number {
  const spec = configVariable(name).int;
  if (!spec) throw new Error(`${name} is not declared as an integer in src/config/variables.ts`);
  return spec.default;
}

/** An integer variable, with the default and bounds its declaration gives (src/config/variables.ts). */
function intVar(env: Env, name: string): number {
  const spec = configVariable(name).int;
  if (!spec) throw new Error(`${name} is not declared as an integer in src/config/variables.ts`);
  const { default: fallback, min, max } = spec;
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function numberVar(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${name} must be a non-negative number of hours, got "${raw}"`);
  return n;
}

/** A boolean variable; `fallback` overrides the declared default where it depends on other settings. */
function boolVar(env: Env, name: string, fallback = configVariable(name).bool ?? false): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export function loadConfig(env: Env = process.env): Config {
  const port = intVar(env, 'PORT');
  const environment = env.TT_ENVIRONMENT || 'sandbox';
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new ConfigError(`TT_ENVIRONMENT must be sandbox or production, got "${environment}"`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^(mysql:\/\/|sqlite:)/i.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with mysql:// or sqlite: (unset: ' + DEFAULT_SQLITE_PATH + ')');
  }
  const baseUrl = (env.TT_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError(`TT_BASE_URL must be an http(s) URL, got "${env.TT_BASE_URL}"`);
  }
  const senderId = env.TT_SENDER_ID || 'TRACK-AND-TRACE';
  const signingKeyJwk = env.TT_SIGNING_KEY || undefined;
  const secretPepper = env.TT_SECRET_PEPPER || undefined;
  const previousSecretPepper = env.TT_PREVIOUS_SECRET_PEPPER || undefined;
  if (previousSecretPepper !== undefined) {
    if (!secretPepper) throw new ConfigError('TT_PREVIOUS_SECRET_PEPPER needs TT_SECRET_PEPPER (the new pepper) set too');
    if (previousSecretPepper.length < 32) throw new ConfigError('TT_PREVIOUS_SECRET_PEPPER must be at least 32 characters');
    if (previousSecretPepper === secretPepper) throw new ConfigError('TT_PREVIOUS_SECRET_PEPPER must differ from TT_SECRET_PEPPER');
  }
  if (environment === 'production') {
    if (!signingKeyJwk) throw new ConfigError('TT_SIGNING_KEY is required in production (a private JWK, JSON)');
    if (!secretPepper || secretPepper.length < 32) {
      throw new ConfigError('TT_SECRET_PEPPER is required in production (at least 32 characters)');
    }
    if (!env.TT_BASE_URL) throw new ConfigError('TT_BASE_URL is required in production (the token issuer)');
  }
  if (signingKeyJwk) {
    try {
      JSON.parse(signingKeyJwk);
    } catch {
      throw new ConfigError('TT_SIGNING_KEY must be a private JWK in JSON');
    }
  }
  const thresholds: ExceptionThresholds = {
    delayThresholdHours: numberVar(env, 'TT_DELAY_THRESHOLD_HOURS', DEFAULT_THRESHOLDS.delayThresholdHours),
    criticalDelayHours: numberVar(env, 'TT_CRITICAL_DELAY_HOURS', DEFAULT_THRESHOLDS.criticalDelayHours),
    freeTimeWarningHours: numberVar(env, 'TT_FREE_TIME_WARNING_HOURS', DEFAULT_THRESHOLDS.freeTimeWarningHours),
    minConnectionHours: numberVar(env, 'TT_MIN_CONNECTION_HOURS', DEFAULT_THRESHOLDS.minConnectionHours),
  };
  if (thresholds.criticalDelayHours < thresholds.delayThresholdHours) {
    throw new ConfigError('TT_CRITICAL_DELAY_HOURS must not be below TT_DELAY_THRESHOLD_HOURS');
  }
  const logLevel = (env.TT_LOG_LEVEL || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`TT_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.TT_LOG_LEVEL}"`);
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl,
    dbPoolSize: intVar(env, 'TT_DB_POOL_SIZE'),
    environment,
    baseUrl,
    baseUrlSet: Boolean(env.TT_BASE_URL),
    senderId,
    signingKeyJwk,
    secretPepper,
    previousSecretPepper,
    graphiql: boolVar(env, 'TT_GRAPHIQL', environment === 'sandbox'),
    evaluateIntervalSeconds: intVar(env, 'TT_EVALUATE_INTERVAL_SECONDS'),
    snapshotCacheMb: env.TT_SNAPSHOT_CACHE_MB ? intVar(env, 'TT_SNAPSHOT_CACHE_MB') : undefined,
    seedSandbox: boolVar(env, 'TT_SEED_SANDBOX'),
    thresholds,
    logLevel: logLevel as LogLevel,
    metrics: metricsConfig(env, port),
    tracing: tracingConfig(env),
    graphql: graphqlConfig(env, environment),
    corsOrigins: corsOrigins(env),
    eta: {
      training: boolVar(env, 'TT_ETA_TRAINING'),
      trainIntervalSeconds: intVar(env, 'TT_ETA_TRAIN_INTERVAL_SECONDS'),
      trainBatchEvents: intVar(env, 'TT_ETA_TRAIN_BATCH_EVENTS'),
      trainPauseMs: intVar(env, 'TT_ETA_TRAIN_PAUSE_MS'),
      modelCheckSeconds: intVar(env, 'TT_ETA_MODEL_CHECK_SECONDS'),
    },
    push: {
      worker: boolVar(env, 'TT_DELIVERY_WORKER'),
      concurrency: intVar(env, 'TT_DELIVERY_CONCURRENCY'),
      lanes: intVar(env, 'TT_DELIVERY_LANES'),
      pollMs: intVar(env, 'TT_DELIVERY_POLL_MS'),
      maxLoopDelayMs: intVar(env, 'TT_DELIVERY_MAX_LOOP_DELAY_MS'),
      leaseSeconds: intVar(env, 'TT_DELIVERY_LEASE_SECONDS'),
      timeoutSeconds: intVar(env, 'TT_WEBHOOK_TIMEOUT_SECONDS'),
      retryHours: intVar(env, 'TT_WEBHOOK_RETRY_HOURS'),
      maxSubscriptionsPerClient: intVar(env, 'TT_MAX_SUBSCRIPTIONS_PER_CLIENT'),
      maxStreamsPerClient: intVar(env, 'TT_STREAMS_PER_CLIENT_MAX'),
    },
    quotas: quotaConfig(env, environment),
    carriers: carriersConfig(env),
    tracking: trackingConfig(env, environment),
    resilience: resilienceConfig((name) => intVar(env, name)),
  };
}

function quotaConfig(env: Env, environment: Environment): QuotaConfig {
  const quota = (name: string): QuotaLimit => ({
    perMinute: intVar(env, `TT_QUOTA_${name}_PER_MINUTE`),
    burst: intVar(env, `TT_QUOTA_${name}_BURST`),
  });
  const header = (env.TT_FORWARDED_HEADER || 'x-forwarded-for').toLowerCase();
  if (header !== 'x-forwarded-for' && header !== 'forwarded') {
    throw new ConfigError(`TT_FORWARDED_HEADER must be x-forwarded-for or forwarded, got "${env.TT_FORWARDED_HEADER}"`);
  }
  let trustedProxies: TrustedProxies | undefined;
  try {
    trustedProxies = parseTrustedProxies(env.TT_TRUSTED_PROXIES ?? '', header as ForwardedHeader);
  } catch (err) {
    if (err instanceof TrustedProxiesError) throw new ConfigError(`TT_TRUSTED_PROXIES: ${err.message}`);
    throw err;
  }
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/i.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  const keyPrefix = env.TT_RATE_LIMIT_PREFIX || `tt:${environment}`;
  if (!/^[\x21-\x7e]{1,100}$/.test(keyPrefix)) throw new ConfigError('TT_RATE_LIMIT_PREFIX must be 1 to 100 printable characters');
  return {
    enabled: boolVar(env, 'TT_QUOTAS'),
    lookups: quota('LOOKUPS'),
    subscriptions: quota('SUBSCRIPTIONS'),
    tokens: quota('TOKENS'),
    authFailuresPerClientAddress: intVar(env, 'TT_AUTH_FAILURES_PER_CLIENT_ADDRESS'),
    authFailuresPerAddress: intVar(env, 'TT_AUTH_FAILURES_PER_ADDRESS'),
    authFailureWindowSeconds: intVar(env, 'TT_AUTH_FAILURE_WINDOW_SECONDS'),
    trustedProxies,
    redisUrl,
    keyPrefix,
  };
}

function trackingConfig(env: Env, environment: Environment): TrackingConfig {
  const sandbox = environment === 'sandbox';
  // The sandbox's simulated carrier plays a voyage in minutes: it polls and gives up sooner unless told otherwise.
  const fetchMinSeconds = sandbox && !env.TT_TRACKING_FETCH_MIN_SECONDS ? 20 : intVar(env, 'TT_TRACKING_FETCH_MIN_SECONDS');
  const fetchMaxSeconds = sandbox && !env.TT_TRACKING_FETCH_MAX_SECONDS ? 120 : intVar(env, 'TT_TRACKING_FETCH_MAX_SECONDS');
  if (fetchMaxSeconds < fetchMinSeconds) {
    throw new ConfigError(
      `TT_TRACKING_FETCH_MAX_SECONDS (${fetchMaxSeconds}) must be at least TT_TRACKING_FETCH_MIN_SECONDS (${fetchMinSeconds})`,
    );
  }
  const giveUpHours = numberVar(env, 'TT_TRACKING_GIVE_UP_HOURS', sandbox ? 1 : 72);
  if (giveUpHours <= 0) throw new ConfigError('TT_TRACKING_GIVE_UP_HOURS must be more than 0');
  return {
    fetcher: boolVar(env, 'TT_TRACKING_FETCHER'),
    fetchMinSeconds,
    fetchMaxSeconds,
    giveUpHours,
    completeAfterDays: intVar(env, 'TT_TRACKING_COMPLETE_AFTER_DAYS'),
    idleGiveUpDays: intVar(env, 'TT_TRACKING_IDLE_GIVE_UP_DAYS'),
    maxRequestsPerClient: intVar(env, 'TT_MAX_TRACKING_REQUESTS_PER_CLIENT'),
    concurrency: intVar(env, 'TT_TRACKING_FETCH_CONCURRENCY'),
    tickMs: intVar(env, 'TT_TRACKING_TICK_MS'),
  };
}

function carriersConfig(env: Env): CarriersConfig {
  return {
    poller: boolVar(env, 'TT_CARRIER_POLLER'),
    notificationMaxBytes: intVar(env, 'TT_CARRIER_NOTIFICATION_MAX_BYTES'),
    operatorIngestMaxBytes: intVar(env, 'TT_OPERATOR_INGEST_MAX_BYTES'),
    pollOverlapSeconds: intVar(env, 'TT_CARRIER_POLL_OVERLAP_SECONDS'),
    pollPageSize: intVar(env, 'TT_CARRIER_POLL_PAGE_SIZE'),
    pollLeaseSeconds: intVar(env, 'TT_CARRIER_POLL_LEASE_SECONDS'),
    rejectedEventsMax: intVar(env, 'TT_REJECTED_EVENTS_MAX'),
  };
}

function metricsConfig(env: Env, port: number): MetricsConfig {
  const enabled = boolVar(env, 'TT_METRICS');
  const metricsPort = env.TT_METRICS_PORT ? intVar(env, 'TT_METRICS_PORT') : undefined;
  if (metricsPort !== undefined && metricsPort === port) {
    throw new ConfigError(`TT_METRICS_PORT must differ from PORT (${port}); unset it to serve /metrics on PORT`);
  }
  const token = env.TT_METRICS_TOKEN || undefined;
  // A scrape token is a shared secret in a Prometheus config: long enough not to be guessed, header-safe.
  if (token !== undefined && !/^[\x21-\x7e]{16,200}$/.test(token)) {
    throw new ConfigError('TT_METRICS_TOKEN must be 16 to 200 printable characters without spaces');
  }
  return { enabled, port: metricsPort, token };
}

function tracingConfig(env: Env): TracingConfig {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined;
  if (endpoint !== undefined) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new ConfigError(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConfigError(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL (OTLP/HTTP), got "${endpoint}"`);
    }
  }
  return {
    otlpEndpoint: endpoint?.replace(/\/+$/, ''),
    serviceName: env.OTEL_SERVICE_NAME || 'track-and-trace',
  };
}

function graphqlConfig(env: Env, environment: Environment): GraphQLConfig {
  const introspection = (env.TT_GRAPHQL_INTROSPECTION || 'auto').toLowerCase();
  if (!['auto', 'public', 'token', 'off'].includes(introspection)) {
    throw new ConfigError(`TT_GRAPHQL_INTROSPECTION must be auto, public, token or off, got "${env.TT_GRAPHQL_INTROSPECTION}"`);
  }
  return {
    limits: {
      maxTokens: intVar(env, 'TT_GRAPHQL_MAX_TOKENS'),
      maxDepth: intVar(env, 'TT_GRAPHQL_MAX_DEPTH'),
      maxAliases: intVar(env, 'TT_GRAPHQL_MAX_ALIASES'),
      maxDirectives: intVar(env, 'TT_GRAPHQL_MAX_DIRECTIVES'),
      maxCost: intVar(env, 'TT_GRAPHQL_MAX_COST'),
    },
    introspection: introspection === 'auto' ? (environment === 'sandbox' ? 'public' : 'token') : (introspection as IntrospectionPolicy),
    compiledCacheSize: intVar(env, 'TT_GRAPHQL_COMPILED_CACHE_SIZE'),
    ...(env.TT_GRAPHQL_TRUSTED_DOCUMENTS ? { trustedDocuments: trustedDocuments(env.TT_GRAPHQL_TRUSTED_DOCUMENTS) } : {}),
  };
}

/**
 * The manifests of TT_GRAPHQL_TRUSTED_DOCUMENTS (comma-separated files: the service's own `trusted-documents.json`
 * and those of its clients' builds): JSON objects of SHA-256 hashes (64 lower-case hex digits) to document texts,
 * the format of GraphQL Code Generator's persisted documents. Each hash must be that of its text: a manifest that
 * does not hold what it says is refused at start-up.
 */
function trustedDocuments(value: string): ReadonlyMap<string, string> {
  const documents = new Map<string, string>();
  for (const path of value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ConfigError(`TT_GRAPHQL_TRUSTED_DOCUMENTS must name readable JSON manifests, got "${path}": ${(err as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ConfigError(`TT_GRAPHQL_TRUSTED_DOCUMENTS: ${path} must hold a JSON object of SHA-256 hashes to documents`);
    }
    for (const [hash, document] of Object.entries(parsed)) {
      if (typeof document !== 'string' || !/^[0-9a-f]{64}$/.test(hash) || createHash('sha256').update(document).digest('hex') !== hash) {
        throw new ConfigError(`TT_GRAPHQL_TRUSTED_DOCUMENTS: in ${path}, "${hash}" is not the SHA-256 hash (hex) of its document`);
      }
      documents.set(hash, document);
    }
  }
  if (documents.size === 0) throw new ConfigError(`TT_GRAPHQL_TRUSTED_DOCUMENTS: "${value}" holds no document`);
  return documents;
}

/** An origin is scheme://host[:port], as browsers send it in `Origin`: no path, no trailing slash. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function corsOrigins(env: Env): string[] {
  const raw = env.TT_CORS_ORIGINS ?? '';
  const origins = raw
    .split(',')
    .map((o) => o.trim().toLowerCase())
    .filter((o) => o !== '');
  for (const origin of origins) {
    if (origin !== '*' && !ORIGIN.test(origin)) {
      throw new ConfigError(`TT_CORS_ORIGINS must list origins such as https://app.example.com (no path), or *, got "${origin}"`);
    }
  }
  return origins;
}

/** Where the embedded store lives when DATABASE_URL is unset. */
export const DEFAULT_SQLITE_PATH = './data/tracking.sqlite';
