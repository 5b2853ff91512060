import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LogConfig, LogEvent } from 'kysely';
import type { Database } from '../db/connect.js';
import { countExceptionsByTypeAndStatus } from '../store/exceptions/exception-list.js';
import { countRejectedEventsByCarrier } from '../store/events/rejected-events.js';
import { countUnlinkedEventsByCarrier } from '../store/events/unlinked-events.js';
import { countRequestsByStatus, REQUEST_STATUSES } from '../store/carriers/tracking-requests.js';
import type { IngestSummary } from '../ingest/ingest-bundle.js';
import { VERSION } from '../domain/release.js';

/**
 * The service's Prometheus metrics (prom-client), every name documented in
 * README.md ("Metrics"). Counters that code anywhere increments live in one
 * process-wide registry, so the ingest and exception code can count without
 * being handed an object; what is read from one app's database (exceptions by
 * type and status, pool gauges) is in a per-app registry, see
 * createDatabaseMetrics. `GET /metrics` serves both (use-metrics.ts).
 *
 * Labels are bounded: routes are their route-table templates (src/rest/route-table.ts), methods and
 * statuses come from small fixed sets, GraphQL operation names are capped.
 */
export const processRegistry = new Registry();

const registers = [processRegistry];

export const httpRequests = new Counter({
  name: 'tt_http_requests_total',
  help: 'HTTP requests answered, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});

export const httpRequestDuration = new Histogram({
  name: 'tt_http_request_duration_seconds',
  help: 'Time from receiving a request to its response headers, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

/** The release this process runs (docs/upgrading.md): one series, value 1, so a dashboard counts instances per version. */
export const buildInfo = new Gauge({
  name: 'tt_build_info',
  help: 'The release this instance runs: always 1, labelled with its version',
  labelNames: ['version'] as const,
  registers,
});
buildInfo.set({ version: VERSION }, 1);

/** Live streams (GraphQL subscriptions over SSE) open in this process (src/push/live-streams.ts). */
export const liveStreamsOpen = new Gauge({
  name: 'tt_live_streams_open',
  help: 'Live streams (GraphQL subscriptions over SSE) open in this process',
  registers,
});

/** Live streams ended by the access check, by why (src/auth/access-check.ts), and streams refused by the per-client cap. */
export const liveStreamsEnded = new Counter({
  name: 'tt_live_streams_ended_total',
  help: 'Live streams the service ended or refused: access ended (code UNAUTHENTICATED or FORBIDDEN) or over the per-client cap (RATE_LIMITED)',
  labelNames: ['code'] as const,
  registers,
});

export const tokenGrants = new Counter({
  name: 'tt_oauth_token_grants_total',
  help: 'Access tokens issued (client credentials grant, REST or GraphQL)',
  registers,
});

export const tokenRefusals = new Counter({
  name: 'tt_oauth_token_refusals_total',
  help: 'Token requests refused, by RFC 6749 error code',
  labelNames: ['error'] as const,
  registers,
});

export const ingestBundles = new Counter({
  name: 'tt_ingest_bundles_total',
  help: 'Ingest bundles by outcome: ingested, rejected (invalid, nothing written) or failed (error while writing)',
  labelNames: ['outcome'] as const,
  registers,
});

export const ingestEvents = new Counter({
  name: 'tt_ingest_events_total',
  help: 'Events of ingested bundles: stored, or already_stored (eventID known, skipped)',
  labelNames: ['result'] as const,
  registers,
});

export const ingestShipments = new Counter({
  name: 'tt_ingest_shipments_total',
  help: 'Shipments of ingested bundles: created or updated',
  labelNames: ['result'] as const,
  registers,
});

/**
 * Exception lifecycle transitions (src/domain/exception-lifecycle.ts), by
 * exceptionType and transition: detected, updated (content of a DETECTED
 * exception), resolved. Counted once per committed transition.
 */
export const exceptionTransitions = new Counter({
  name: 'tt_exception_transitions_total',
  help: 'Exception transitions committed, by exception type and transition (detected, updated, resolved)',
  labelNames: ['type', 'transition'] as const,
  registers,
});

export function countExceptionTransitions(transitions: readonly { kind: string; exceptionType: string }[]): void {
  for (const t of transitions) exceptionTransitions.inc({ type: t.exceptionType, transition: t.kind.toLowerCase() });
}

export const dbStatementDuration = new Histogram({
  name: 'tt_db_statement_duration_seconds',
  help: 'SQL statement round trips, by statement kind and outcome',
  labelNames: ['statement', 'outcome'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers,
});

/** Records one validated-and-written bundle; call it wherever bundles are ingested (CLI, serve's seed, future HTTP ingest). */
export function countIngestedBundle(summary: IngestSummary): void {
  ingestBundles.inc({ outcome: 'ingested' });
  countExceptionTransitions(summary.exceptionTransitions);
  ingestEvents.inc({ result: 'stored' }, summary.eventsStored);
  ingestEvents.inc({ result: 'already_stored' }, summary.eventsAlreadyStored);
  ingestShipments.inc({ result: 'created' }, summary.shipmentsCreated);
  ingestShipments.inc({ result: 'updated' }, summary.shipmentsUpdated);
}

/** Records a bundle that was not written: `rejected` (invalid input) or `failed` (the write failed). */
export function countUnwrittenBundle(outcome: 'rejected' | 'failed'): void {
  ingestBundles.inc({ outcome });
}

export const webhookDeliveries = new Counter({
  name: 'tt_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: delivered, retried (will be tried again), failed (given up)',
  labelNames: ['outcome', 'status'] as const,
  registers,
});

export const webhookLatency = new Histogram({
  name: 'tt_webhook_delivery_latency_seconds',
  help: 'From the commit that enqueued a webhook delivery to its delivery',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 15, 60, 300, 3600],
  registers,
});

export function countWebhookDelivered(latencyMs: number): void {
  webhookDeliveries.inc({ outcome: 'delivered', status: '2xx' });
  webhookLatency.observe(latencyMs / 1000);
}

export function countWebhookAttemptFailed(status: number | null, final: boolean): void {
  webhookDeliveries.inc({ outcome: final ? 'failed' : 'retried', status: status === null ? 'none' : `${Math.floor(status / 100)}xx` });
}

export const webhookTrials = new Counter({
  name: 'tt_webhook_trials_total',
  help: "Webhook sends a client asked for (POST .../test, .../redeliver) by kind and the receiver's status class",
  labelNames: ['kind', 'status'] as const,
  registers,
});

export function countWebhookTrial(kind: 'test' | 'redeliver', status: number | null): void {
  webhookTrials.inc({ kind, status: status === null ? 'none' : `${Math.floor(status / 100)}xx` });
}

export const accountFeedPages = new Counter({
  name: 'tt_account_feed_pages_total',
  help: 'Pages of the account change feed served, by phase: listing (no cursor yet) or changes',
  labelNames: ['phase'] as const,
  registers,
});

export const accountFeedEntries = new Counter({
  name: 'tt_account_feed_entries_total',
  help: 'Shipments named in account change feed pages, by phase',
  labelNames: ['phase'] as const,
  registers,
});

export function countAccountFeedPage(phase: 'listing' | 'changes', entries: number): void {
  accountFeedPages.inc({ phase });
  accountFeedEntries.inc({ phase }, entries);
}

let processMetricsStarted = false;

/** Node's process metrics (CPU, memory, event loop lag, GC, handles) on the process registry; once per process. */
export function startProcessMetrics(): void {
  if (processMetricsStarted) return;
  processMetricsStarted = true;
  collectDefaultMetrics({ register: processRegistry });
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/**
 * A Kysely log hook that observes every statement's duration, or `given`
 * unchanged when metrics are off: without a hook Kysely skips its timing
 * path, so metrics off costs nothing per statement.
 */
export function withStatementMetrics(given: LogConfig | undefined, enabled: boolean): LogConfig | undefined {
  if (!enabled) return given;
  if (Array.isArray(given)) throw new Error('statement metrics need a log function, not a level list');
  const forward = given as ((event: LogEvent) => void) | undefined;
  return (event: LogEvent) => {
    dbStatementDuration.observe(
      { statement: statementKind(event), outcome: event.level === 'error' ? 'error' : 'ok' },
      event.queryDurationMillis / 1000,
    );
    forward?.(event);
  };
}

/** SelectQueryNode -> select; raw SQL (migrations, `select 1`) -> raw. */
function statementKind(event: LogEvent): string {
  switch (event.query.query.kind) {
    case 'SelectQueryNode':
      return 'select';
    case 'InsertQueryNode':
      return 'insert';
    case 'UpdateQueryNode':
      return 'update';
    case 'DeleteQueryNode':
      return 'delete';
    case 'RawNode':
      return 'raw';
    default:
      return 'other';
  }
}

/** How long the exceptions gauge reuses one COUNT query: scrapes every few seconds must not each scan the table. */
export const EXCEPTION_COUNTS_TTL_MS = 15_000;

/**
 * Gauges read from one app's database on scrape: exceptions by type and
 * status (one GROUP BY, cached EXCEPTION_COUNTS_TTL_MS), and the MySQL pool
 * where the driver exposes it. `onError` hears a failed count; the gauge is
 * then empty rather than stale.
 */
export function createDatabaseMetrics(
  database: Database,
  options: { now?: () => number; onError?: (err: unknown) => void } = {},
): Registry {
  const registry = new Registry();
  const now = options.now ?? Date.now;
  let cached: { at: number; rows: { type: string; status: string; count: number }[] } | undefined;

  new Gauge({
    name: 'tt_exceptions',
    help: 'Stored exceptions by exception type and status (DETECTED, RESOLVED); counted at most every 15 s',
    labelNames: ['type', 'status'] as const,
    registers: [registry],
    async collect() {
      if (!cached || now() - cached.at >= EXCEPTION_COUNTS_TTL_MS) {
        try {
          cached = { at: now(), rows: await countExceptionsByTypeAndStatus(database.db) };
        } catch (err) {
          cached = undefined;
          this.reset();
          options.onError?.(err);
          return;
        }
      }
      this.reset();
      for (const row of cached.rows) this.set({ type: row.type, status: row.status }, row.count);
    },
  });

  // Data that goes nowhere (docs/carriers.md "Carrier onboarding"): events linked to no shipment, events refused and kept.
  const byCarrierGauge = (name: string, help: string, count: () => Promise<{ carrierCode: string; count: number }[]>) => {
    let counted: { at: number; rows: { carrierCode: string; count: number }[] } | undefined;
    new Gauge({
      name,
      help,
      labelNames: ['carrier'] as const,
      registers: [registry],
      async collect() {
        if (!counted || now() - counted.at >= EXCEPTION_COUNTS_TTL_MS) {
          try {
            counted = { at: now(), rows: await count() };
          } catch (err) {
            counted = undefined;
            this.reset();
            options.onError?.(err);
            return;
          }
        }
        this.reset();
        for (const { carrier, count: n } of boundedCarriers(counted.rows)) this.set({ carrier }, n);
      },
    });
  };
  byCarrierGauge('tt_unlinked_events', 'Stored events linked to no shipment (yet), by carrier; counted at most every 15 s', () =>
    countUnlinkedEventsByCarrier(database.db),
  );
  byCarrierGauge(
    'tt_rejected_events',
    'Carrier events refused (poll, notification) and kept for a replay, by carrier; counted at most every 15 s',
    () => countRejectedEventsByCarrier(database.db),
  );

  // Tracking requests by status (docs/tracking-requests.md), the five statuses always present.
  let requests: { at: number; rows: { status: string; count: number }[] } | undefined;
  new Gauge({
    name: 'tt_tracking_requests',
    help: 'Tracking requests by status (PENDING, TRACKING, AWAITING_CARRIER_DATA, FAILED, STOPPED); counted at most every 15 s',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      if (!requests || now() - requests.at >= EXCEPTION_COUNTS_TTL_MS) {
        try {
          requests = { at: now(), rows: await countRequestsByStatus(database.db) };
        } catch (err) {
          requests = undefined;
          this.reset();
          options.onError?.(err);
          return;
        }
      }
      this.reset();
      for (const status of REQUEST_STATUSES) this.set({ status }, 0);
      for (const row of requests.rows) this.set({ status: row.status }, row.count);
    },
  });

  if (database.poolStats) {
    const stats = database.poolStats;
    new Gauge({
      name: 'tt_db_pool_connections',
      help: 'MySQL pool connections: open (idle or in use) and idle',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const s = stats();
        this.set({ state: 'open' }, s.open);
        this.set({ state: 'idle' }, s.idle);
      },
    });
    new Gauge({
      name: 'tt_db_pool_waiting_requests',
      help: 'Queries waiting for a free MySQL pool connection',
      registers: [registry],
      collect() {
        this.set(stats().waiting);
      },
    });
    new Gauge({
      name: 'tt_db_pool_size',
      help: 'Maximum MySQL pool connections (TT_DB_POOL_SIZE)',
      registers: [registry],
      collect() {
        this.set(stats().limit);
      },
    });
  }
  return registry;
}

/** Carriers with the most events first; past 50 carriers the rest add up under `other` (bounded labels). */
function boundedCarriers(rows: readonly { carrierCode: string; count: number }[]): { carrier: string; count: number }[] {
  const sorted = [...rows].sort((a, b) => b.count - a.count || (a.carrierCode < b.carrierCode ? -1 : 1));
  const kept = sorted.slice(0, 50).map((r) => ({ carrier: r.carrierCode, count: r.count }));
  const rest = sorted.slice(50).reduce((sum, r) => sum + r.count, 0);
  return rest > 0 ? [...kept, { carrier: 'other', count: rest }] : kept;
}
