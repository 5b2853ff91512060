import { DEFAULT_THRESHOLDS } from '../domain/thresholds.js';

/**
 * Every environment variable the service reads: its name, default, bounds and meaning, in one place. The parser
 * (config.ts, resilience-config.ts) takes defaults and bounds of integer and boolean variables from here, and
 * `npm run -s docs:config` writes docs/configuration.md from it (test/config-doc.test.ts fails when that page is
 * stale, or when the parser reads a variable this table does not declare).
 */

/** An integer variable: default and inclusive bounds, as the parser applies them. */
export interface IntegerSpec {
  default: number;
  min: number;
  max: number;
}

export interface ConfigVariable {
  name: string;
  /** The section of docs/configuration.md it is listed under. */
  section: string;
  /** An integer (the parser uses these numbers) … */
  int?: IntegerSpec;
  /** … or a boolean (`true`/`false`, also 1/0, yes/no, on/off) with this default … */
  bool?: boolean;
  /** The default as the page shows it, when it is not a plain number or boolean (or depends on others). */
  shown?: string;
  /** What it does, in Markdown. Links are relative to docs/. */
  meaning: string;
}

const int = (d: number, min: number, max: number): IntegerSpec => ({ default: d, min, max });
const MiB = 1024 * 1024;

export const CONFIG_VARIABLES: readonly ConfigVariable[] = [
  // Server and environment
  { name: 'PORT', section: 'Server', int: int(4000, 0, 65535), meaning: 'HTTP port (`0`: any free port)' },
  { name: 'HOST', section: 'Server', shown: '`0.0.0.0`', meaning: 'listen address' },
  {
    name: 'TT_ENVIRONMENT',
    section: 'Server',
    shown: '`sandbox`',
    meaning:
      '`sandbox` or `production`. Sandbox and production behave identically; they differ in base address, keys and credentials, and a token of one is refused by the other (its issuer differs)',
  },
  {
    name: 'TT_BASE_URL',
    section: 'Server',
    shown: '`http://localhost:$PORT`',
    meaning:
      "the environment's public base address: the token issuer (`iss`), the OpenAPI `servers` entry, and every URL the CLI prints (a carrier's notification URL). Required in production",
  },
  { name: 'TT_SENDER_ID', section: 'Server', shown: '`TRACK-AND-TRACE`', meaning: '`transmissionHeader.senderID`' },
  {
    name: 'TT_GRAPHIQL',
    section: 'Server',
    bool: true,
    shown: '`true` in sandbox, `false` in production',
    meaning: 'serve GraphiQL on `GET /graphql`',
  },
  {
    name: 'TT_SEED_SANDBOX',
    section: 'Server',
    bool: true,
    meaning: 'load the sandbox demo data into an empty sandbox database and create the sandbox demo client; `false` creates neither',
  },
  {
    name: 'TT_CORS_ORIGINS',
    section: 'Server',
    shown: 'unset: no CORS',
    meaning:
      'origins whose web pages may call the API, comma-separated, or `*` (see [Browsers: CORS and CSRF](graphql.md#browsers-cors-and-csrf))',
  },
  // Database
  {
    name: 'DATABASE_URL',
    section: 'Database',
    shown: 'unset: `./data/tracking.sqlite`',
    meaning: '`mysql://user:pass@host:port/db` (MySQL 8, MariaDB 10.11+) or `sqlite:PATH`',
  },
  { name: 'TT_DB_POOL_SIZE', section: 'Database', int: int(10, 1, 500), meaning: 'MySQL connection pool size' },
  {
    name: 'TT_DB_CONNECT_TIMEOUT_MS',
    section: 'Database',
    int: int(3000, 100, 120_000),
    meaning: 'MySQL: connecting and the handshake of a new connection',
  },
  {
    name: 'TT_DB_ACQUIRE_TIMEOUT_MS',
    section: 'Database',
    int: int(3000, 50, 120_000),
    meaning: 'MySQL: waiting for a pool connection (a new one included) before answering 503',
  },
  {
    name: 'TT_DB_STATEMENT_TIMEOUT_MS',
    section: 'Database',
    int: int(5000, 0, 3_600_000),
    meaning:
      'MySQL: one statement; set on the server (MariaDB `max_statement_time`, MySQL `max_execution_time` for SELECTs) and enforced by the client 0.5 s later for a server that does not answer at all (the connection is then discarded). `0`: none. Migrations run without it',
  },
  {
    name: 'TT_SQLITE_BUSY_TIMEOUT_MS',
    section: 'Database',
    int: int(2000, 0, 60_000),
    meaning: "SQLite: how long a write waits for the file's lock (the CLI waits 5 s)",
  },
  {
    name: 'TT_SNAPSHOT_CACHE_MB',
    section: 'Database',
    int: int(0, 0, 1_000_000),
    shown: 'a quarter of the heap limit, at most 256',
    meaning:
      "memory budget of the in-memory cache of snapshots and their renderings, in front of the stored ones (exact: keyed on the shipment's version, so an ingest is visible on the next lookup on every instance; a shipment is cached from its second lookup on, and into a full cache only if looked up more often than the one it would replace; sizing: docs/operating.md); `0` disables it",
  },
  {
    name: 'TT_COUNT_QUERIES',
    section: 'Database',
    shown: 'unset',
    meaning: '`1` counts SQL statements and serves them on `GET /internal/stats` (benchmarking only)',
  },
  // Keys
  {
    name: 'TT_SIGNING_KEY',
    section: 'Keys',
    shown: 'sandbox: generated and stored in the database',
    meaning: 'private EC P-256 JWK (JSON) that signs tokens (ES256); `tracking keys generate` makes one. Required in production',
  },
  {
    name: 'TT_SECRET_PEPPER',
    section: 'Keys',
    shown: 'sandbox: generated and stored in the database',
    meaning: 'server-side key of the client secret HMACs and of the sealed secrets, at least 32 characters. Required in production',
  },
  {
    name: 'TT_PREVIOUS_SECRET_PEPPER',
    section: 'Keys',
    shown: 'unset',
    meaning:
      'during a pepper rotation, the old pepper: still accepted (see [Rotating TT_SECRET_PEPPER](operating.md#rotating-tt_secret_pepper))',
  },
  // GraphQL
  {
    name: 'TT_GRAPHQL_MAX_TOKENS',
    section: 'GraphQL',
    int: int(1000, 100, 1_000_000),
    meaning:
      'lexical tokens of a document (names, punctuation, values; not whitespace or comments), counted while parsing, so a huge or deeply nested document stops at the limit (see [Limits: GraphQL](graphql.md#limits-graphql))',
  },
  {
    name: 'TT_GRAPHQL_MAX_DEPTH',
    section: 'GraphQL',
    int: int(12, 1, 1000),
    meaning: "nesting of fields, inline fragments and fragment spreads in an operation (introspection's `__schema` not counted)",
  },
  {
    name: 'TT_GRAPHQL_MAX_ALIASES',
    section: 'GraphQL',
    int: int(15, 0, 100_000),
    meaning: 'aliases in an operation (of `__typename` not counted)',
  },
  { name: 'TT_GRAPHQL_MAX_DIRECTIVES', section: 'GraphQL', int: int(50, 0, 100_000), meaning: 'directives in an operation' },
  {
    name: 'TT_GRAPHQL_MAX_COST',
    section: 'GraphQL',
    int: int(5000, 1, 100_000_000),
    meaning: "GraphQL Armor's cost of an operation: 2 per object field, 1 per scalar, times 1.5 per level of nesting",
  },
  {
    name: 'TT_GRAPHQL_COMPILED_CACHE_SIZE',
    section: 'GraphQL',
    int: int(100, 0, 100_000),
    meaning: 'operations kept compiled by graphql-jit, the least recently used dropped first; `0` runs every operation interpreted',
  },
  {
    name: 'TT_GRAPHQL_TRUSTED_DOCUMENTS',
    section: 'GraphQL',
    shown: 'unset',
    meaning:
      'trusted-documents manifests, comma-separated files (JSON: SHA-256 hash to document, as `trusted-documents.json` of the build and the persisted documents of GraphQL Code Generator): `/graphql` then runs only their operations, by hash, and refuses any other document with 400. Unset: any document runs, and automatic persisted queries are on (see [Persisted operations](graphql.md#persisted-operations))',
  },
  {
    name: 'TT_GRAPHQL_INTROSPECTION',
    section: 'GraphQL',
    shown: '`auto`',
    meaning:
      'who may introspect and read "Did you mean …?" suggestions: `auto` (`public` in sandbox, `token` in production), `public`, `token` or `off` (see [Introspection](graphql.md#limits-graphql))',
  },
  // Exceptions
  {
    name: 'TT_EVALUATE_INTERVAL_SECONDS',
    section: 'Exceptions',
    int: int(300, 0, 86_400),
    meaning:
      "how often `serve` re-runs the time-based exception rules and evaluates `PREDICTED_ARRIVAL` (webhooks, and each live stream that lists it); `0` disables (a live stream then evaluates at its shipment's changes only)",
  },
  // Predicted arrival (docs/predicted-arrival.md)
  {
    name: 'TT_ETA_TRAINING',
    section: 'Predicted arrival',
    bool: true,
    meaning:
      "train the predicted arrival's model in the background of `serve` (one instance at a time across a cluster, by a lease); `false` leaves it to `tracking eta train`",
  },
  {
    name: 'TT_ETA_TRAIN_INTERVAL_SECONDS',
    section: 'Predicted arrival',
    int: int(900, 1, 7 * 86_400),
    meaning: 'how often `serve` looks for newly arrived voyages to fold into the model',
  },
  {
    name: 'TT_ETA_TRAIN_BATCH_EVENTS',
    section: 'Predicted arrival',
    int: int(5000, 100, 100_000),
    meaning:
      'stored events a training batch scans for arrivals (the voyages that arrived among them are loaded and learned); training yields to requests between batches',
  },
  {
    name: 'TT_ETA_TRAIN_PAUSE_MS',
    section: 'Predicted arrival',
    int: int(50, 0, 60_000),
    meaning: 'pause between two training batches in `serve`, so training takes a bounded share of the CPU',
  },
  {
    name: 'TT_ETA_MODEL_CHECK_SECONDS',
    section: 'Predicted arrival',
    int: int(10, 0, 3600),
    meaning: 'how often an instance asks whether a newer model was trained (one primary-key read); `0`: on every prediction',
  },
  // Tracking requests (docs/tracking-requests.md)
  {
    name: 'TT_TRACKING_FETCHER',
    section: 'Tracking requests',
    bool: true,
    meaning: 'run the fetcher of tracking requests in this process (`serve` and `tracking poll`)',
  },
  {
    name: 'TT_TRACKING_FETCH_MIN_SECONDS',
    section: 'Tracking requests',
    int: int(300, 1, 86_400),
    shown: '`300` (`20` in sandbox)',
    meaning: 'the shortest time between two fetches of one reference (near a due milestone)',
  },
  {
    name: 'TT_TRACKING_FETCH_MAX_SECONDS',
    section: 'Tracking requests',
    int: int(21_600, 1, 7 * 86_400),
    shown: '`21600` (`120` in sandbox)',
    meaning: 'the longest time between two fetches of one reference (idle); not below `TT_TRACKING_FETCH_MIN_SECONDS`',
  },
  {
    name: 'TT_TRACKING_GIVE_UP_HOURS',
    section: 'Tracking requests',
    shown: '`72` (`1` in sandbox)',
    meaning: 'a reference the carrier does not know after this many hours is FAILED (hours, may be fractional)',
  },
  {
    name: 'TT_TRACKING_COMPLETE_AFTER_DAYS',
    section: 'Tracking requests',
    int: int(14, 1, 365),
    meaning: 'an arrived shipment quiet this long is `STOPPED` (`COMPLETED`)',
  },
  {
    name: 'TT_TRACKING_IDLE_GIVE_UP_DAYS',
    section: 'Tracking requests',
    int: int(60, 1, 3650),
    meaning: 'a tracked shipment with no news this long is `STOPPED` (`GIVEN_UP`)',
  },
  {
    name: 'TT_MAX_TRACKING_REQUESTS_PER_CLIENT',
    section: 'Tracking requests',
    int: int(5000, 1, 10_000_000),
    meaning: 'active tracking requests per API client; more are refused (429)',
  },
  {
    name: 'TT_TRACKING_FETCH_CONCURRENCY',
    section: 'Tracking requests',
    int: int(8, 1, 256),
    meaning: 'fetches one process runs at once',
  },
  {
    name: 'TT_TRACKING_TICK_MS',
    section: 'Tracking requests',
    int: int(1000, 50, 60_000),
    meaning: 'how often the fetcher looks for due references (milliseconds)',
  },
  {
    name: 'TT_DELAY_THRESHOLD_HOURS',
    section: 'Exceptions',
    shown: `\`${DEFAULT_THRESHOLDS.delayThresholdHours}\``,
    meaning: 'ETA_DELAY is raised from this delay (hours, may be fractional)',
  },
  {
    name: 'TT_CRITICAL_DELAY_HOURS',
    section: 'Exceptions',
    shown: `\`${DEFAULT_THRESHOLDS.criticalDelayHours}\``,
    meaning: 'ETA_DELAY is CRITICAL from this delay; not below `TT_DELAY_THRESHOLD_HOURS`',
  },
  {
    name: 'TT_FREE_TIME_WARNING_HOURS',
    section: 'Exceptions',
    shown: `\`${DEFAULT_THRESHOLDS.freeTimeWarningHours}\``,
    meaning: 'DEMURRAGE/DETENTION_RISK warn this long before free time expires',
  },
  {
    name: 'TT_MIN_CONNECTION_HOURS',
    section: 'Exceptions',
    shown: `\`${DEFAULT_THRESHOLDS.minConnectionHours}\``,
    meaning: 'MISSED_CONNECTION when the outbound leaves less than this after the inbound arrives',
  },
  // Observability
  {
    name: 'TT_LOG_LEVEL',
    section: 'Logs, metrics and tracing',
    shown: '`info`',
    meaning: '`debug`, `info`, `warn`, `error` or `silent`; logs are JSON lines (see [Logs](operating.md#logs-metrics-and-tracing))',
  },
  {
    name: 'TT_METRICS',
    section: 'Logs, metrics and tracing',
    bool: true,
    meaning: 'collect Prometheus metrics and serve `GET /metrics`; `false` turns them off (no SQL timing hook either)',
  },
  {
    name: 'TT_METRICS_PORT',
    section: 'Logs, metrics and tracing',
    int: int(0, 1, 65535),
    shown: 'unset',
    meaning: 'serve `/metrics` only on this port (a second listener of `serve`, e.g. `9464`) instead of `PORT`; must differ from `PORT`',
  },
  {
    name: 'TT_METRICS_TOKEN',
    section: 'Logs, metrics and tracing',
    shown: 'unset',
    meaning: 'when set, `/metrics` requires `Authorization: Bearer <token>` (16 to 200 printable characters)',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    section: 'Logs, metrics and tracing',
    shown: 'unset: tracing off',
    meaning:
      'OTLP/HTTP collector base address (e.g. `http://otel-collector:4318`); spans go to its `/v1/traces`. `OTEL_EXPORTER_OTLP_HEADERS` and the other standard `OTEL_*` exporter variables apply',
  },
  { name: 'OTEL_SERVICE_NAME', section: 'Logs, metrics and tracing', shown: '`track-and-trace`', meaning: '`service.name` of the spans' },
  // Push
  {
    name: 'TT_DELIVERY_WORKER',
    section: 'Push delivery',
    bool: true,
    meaning: '`serve` sends webhook deliveries itself; `false` on API instances when dedicated `tracking deliver` workers do',
  },
  { name: 'TT_DELIVERY_CONCURRENCY', section: 'Push delivery', int: int(64, 1, 1000), meaning: 'webhook requests in flight per worker' },
  {
    name: 'TT_DELIVERY_LANES',
    section: 'Push delivery',
    int: int(2, 1, 8),
    meaning:
      'delivery rounds in flight per worker: while one waits on a slow receiver (up to its timeout), another keeps delivering to the rest; order per subscription holds at any number',
  },
  {
    name: 'TT_DELIVERY_MAX_LOOP_DELAY_MS',
    section: 'Push delivery',
    int: int(50, 0, 10_000),
    meaning:
      'in `serve`, the delivery worker pauses briefly between renders and sends while the event loop runs later than this (p99 over 100 ms), so a large fan-out slows down instead of delaying lookups; `0` never pauses (`tracking deliver` never does)',
  },
  {
    name: 'TT_DELIVERY_POLL_MS',
    section: 'Push delivery',
    int: int(500, 50, 60_000),
    meaning: 'how often an idle worker looks for due deliveries, and how often live subscriptions look for changes',
  },
  {
    name: 'TT_DELIVERY_LEASE_SECONDS',
    section: 'Push delivery',
    int: int(60, 2, 3600),
    meaning:
      "how long a worker's claim on a delivery lasts: a worker that dies mid-send leaves its deliveries to the others after this (keep it above a round's sending time)",
  },
  { name: 'TT_WEBHOOK_TIMEOUT_SECONDS', section: 'Push delivery', int: int(10, 1, 60), meaning: "a receiver's time to answer a delivery" },
  {
    name: 'TT_WEBHOOK_RETRY_HOURS',
    section: 'Push delivery',
    int: int(24, 1, 24 * 14),
    meaning: 'how long a failing delivery is retried before it is given up (FAILED)',
  },
  {
    name: 'TT_MAX_SUBSCRIPTIONS_PER_CLIENT',
    section: 'Push delivery',
    int: int(1000, 1, 1_000_000),
    meaning: 'active webhook and event subscriptions one client may hold',
  },
  {
    name: 'TT_STREAMS_PER_CLIENT_MAX',
    section: 'Push delivery',
    int: int(20, 1, 10_000),
    meaning:
      "live streams (GraphQL subscriptions over SSE) one client may hold open at once, per instance; one more is refused with 429. Each stream ends within 5 s of its holder's access ending (see [Live updates](push.md))",
  },
  // Quotas
  {
    name: 'TT_QUOTAS',
    section: 'Quotas and rate limits',
    bool: true,
    meaning:
      'per-client quotas on lookups, subscription routes and tokens (see [Quotas and rate limits](errors.md#quotas-and-rate-limits))',
  },
  {
    name: 'TT_QUOTA_LOOKUPS_PER_MINUTE',
    section: 'Quotas and rate limits',
    int: int(600, 1, 1_000_000),
    meaning: '`GET /v2/shipments`, `GET /v2/events`, and GraphQL `shipment`, `events` (each alias) and `shipmentUpdates`, per client',
  },
  {
    name: 'TT_QUOTA_LOOKUPS_BURST',
    section: 'Quotas and rate limits',
    int: int(300, 0, 1_000_000),
    meaning: "lookups beyond the minute's quota, at most this many per 10 minutes (`0`: no burst)",
  },
  {
    name: 'TT_QUOTA_SUBSCRIPTIONS_PER_MINUTE',
    section: 'Quotas and rate limits',
    int: int(120, 1, 1_000_000),
    meaning: 'requests of `/v2/subscriptions*` and `/v2/event-subscriptions*` and their GraphQL fields, per client',
  },
  {
    name: 'TT_QUOTA_SUBSCRIPTIONS_BURST',
    section: 'Quotas and rate limits',
    int: int(60, 0, 1_000_000),
    meaning: 'the burst of subscription requests per 10 minutes',
  },
  {
    name: 'TT_QUOTA_TOKENS_PER_MINUTE',
    section: 'Quotas and rate limits',
    int: int(20, 1, 1_000_000),
    meaning: 'tokens issued per client (`POST /oauth/token`, `issueToken`)',
  },
  {
    name: 'TT_QUOTA_TOKENS_BURST',
    section: 'Quotas and rate limits',
    int: int(20, 0, 1_000_000),
    meaning: 'the burst of tokens per 10 minutes',
  },
  {
    name: 'TT_AUTH_FAILURES_PER_CLIENT_ADDRESS',
    section: 'Quotas and rate limits',
    int: int(10, 1, 1_000_000),
    meaning: 'failed authentications of one client_id from one address per window; the next attempt gets 429',
  },
  {
    name: 'TT_AUTH_FAILURES_PER_ADDRESS',
    section: 'Quotas and rate limits',
    int: int(50, 1, 1_000_000),
    meaning: 'failed authentications from one address (IPv6: its /64) per window, whatever the client_id',
  },
  {
    name: 'TT_AUTH_FAILURE_WINDOW_SECONDS',
    section: 'Quotas and rate limits',
    int: int(60, 1, 86_400),
    meaning: 'the failed-authentication window, from the first failure',
  },
  {
    name: 'TT_TRUSTED_PROXIES',
    section: 'Quotas and rate limits',
    shown: 'unset: no proxy trusted, forwarding headers ignored',
    meaning: 'comma-separated IPv4/IPv6 CIDRs or addresses of your proxies, e.g. `10.0.0.0/8, 192.0.2.10, fd00::/8`',
  },
  {
    name: 'TT_FORWARDED_HEADER',
    section: 'Quotas and rate limits',
    shown: '`x-forwarded-for`',
    meaning: 'the header your proxies write: `x-forwarded-for` or `forwarded` (RFC 7239 `for=`); the other one is ignored',
  },
  {
    name: 'REDIS_URL',
    section: 'Quotas and rate limits',
    shown: 'unset: in memory, per process',
    meaning:
      'counters shared by every instance, and wake-ups of their delivery workers and live updates after a commit anywhere: `redis://[user:password@]host:6379[/db]` or `rediss://…`',
  },
  {
    name: 'TT_RATE_LIMIT_PREFIX',
    section: 'Quotas and rate limits',
    shown: '`tt:<TT_ENVIRONMENT>`',
    meaning: 'prefix of the Redis keys and of the wake-up channel (keeps environments sharing a Redis apart)',
  },
  // Carriers
  {
    name: 'TT_CARRIER_POLLER',
    section: 'Carriers',
    bool: true,
    meaning: "`serve` polls the carriers' DCSA events endpoints; `false` where a dedicated `tracking poll` runs",
  },
  {
    name: 'TT_CARRIER_POLL_OVERLAP_SECONDS',
    section: 'Carriers',
    int: int(300, 0, 86_400),
    meaning: 'how far before its watermark a poll asks again (late-published events)',
  },
  { name: 'TT_CARRIER_POLL_PAGE_SIZE', section: 'Carriers', int: int(100, 1, 10_000), meaning: 'the `limit` of each page a poll asks for' },
  {
    name: 'TT_CARRIER_POLL_LEASE_SECONDS',
    section: 'Carriers',
    int: int(120, 90, 3600),
    meaning:
      "how long a poller's lease on a carrier holds past its last renewal: after a crash, how long the carrier waits for another poller (longer than a retry's longest wait, 60 s)",
  },
  {
    name: 'TT_CARRIER_NOTIFICATION_MAX_BYTES',
    section: 'Carriers',
    int: int(5 * MiB, 1024, 1024 * MiB),
    meaning: 'largest carrier notification body (413 past it)',
  },
  {
    name: 'TT_OPERATOR_INGEST_MAX_BYTES',
    section: 'Carriers',
    int: int(64 * MiB, 1024, 4 * 1024 * MiB),
    meaning: 'largest bundle of `POST /v2/operator/ingest`',
  },
  {
    name: 'TT_REJECTED_EVENTS_MAX',
    section: 'Carriers',
    int: int(10_000, 0, 1_000_000),
    meaning: 'rejected carrier events kept for `tracking carrier rejected replay`; past it the oldest go (`0`: none kept)',
  },
  // Limits and timeouts
  {
    name: 'TT_HTTP_HEADERS_TIMEOUT_MS',
    section: 'Limits and timeouts',
    int: int(10_000, 1000, 300_000),
    meaning: 'request line and headers (at most the request timeout)',
  },
  {
    name: 'TT_HTTP_REQUEST_TIMEOUT_MS',
    section: 'Limits and timeouts',
    int: int(30_000, 1000, 3_600_000),
    meaning: 'the whole request, body included (`408` after)',
  },
  {
    name: 'TT_HTTP_MAX_BODY_BYTES',
    section: 'Limits and timeouts',
    int: int(MiB, 1024, 1024 * MiB),
    meaning: 'body limit of routes without a smaller one',
  },
  {
    name: 'TT_HTTP_KEEP_ALIVE_TIMEOUT_MS',
    section: 'Limits and timeouts',
    int: int(65_000, 1000, 600_000),
    meaning: 'idle keep-alive connections close after this (longer than usual load balancer idle timeouts)',
  },
  {
    name: 'TT_SHUTDOWN_GRACE_SECONDS',
    section: 'Limits and timeouts',
    int: int(10, 1, 600),
    meaning: 'the most a shutdown takes: in-flight requests get this long before the process exits',
  },
];

const BY_NAME = new Map(CONFIG_VARIABLES.map((v) => [v.name, v]));

/** The declaration of a variable; reading one that is not declared is a programming error. */
export function configVariable(name: string): ConfigVariable {
  const variable = BY_NAME.get(name);
  if (!variable) throw new Error(`${name} is not declared in src/config/variables.ts`);
  return variable;
}

/** docs/configuration.md, as `npm run -s docs:config` writes it. */
export function configurationPage(): string {
  const sections = [...new Set(CONFIG_VARIABLES.map((v) => v.section))];
  const shown = (v: ConfigVariable): string =>
    v.shown ?? (v.int ? `\`${v.int.default}\`` : v.bool !== undefined ? `\`${String(v.bool)}\`` : 'unset');
  const bounds = (v: ConfigVariable): string => (v.int && !v.shown?.startsWith('unset') ? ` (${v.int.min} to ${v.int.max})` : '');
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from src/config/variables.ts by `npm run -s docs:config`; edit that table, not this page. -->',
    '',
    'All configuration comes from environment variables, read and validated once at start-up; a bad value stops',
    'the process with a message naming the variable and what it allows. The CLI reads the same variables: run it',
    'with the environment of the server it works with (same `DATABASE_URL`, same `PORT` or `TT_BASE_URL`).',
    '',
    ...sections.map(
      (s) =>
        `- [${s}](#${s
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-')})`,
    ),
  ];
  for (const section of sections) {
    lines.push('', `## ${section}`, '', '| variable | default | meaning |', '|---|---|---|');
    for (const v of CONFIG_VARIABLES.filter((x) => x.section === section)) {
      lines.push(`| \`${v.name}\` | ${shown(v)} | ${v.meaning}${bounds(v)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
