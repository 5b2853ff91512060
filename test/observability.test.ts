import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/observability/logger.js';
import { EXCEPTION_COUNTS_TTL_MS, processRegistry, withStatementMetrics } from '../src/observability/metrics.js';
import { correlationIdFor, traceIdOf } from '../src/observability/request-context.js';
import { buildSandboxBundle } from '../db/sandbox-bundle.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects } from './support/databases.js';
import { maeuBundle } from './support/fixture-bundle.js';

type Line = Record<string, unknown>;

/** A pino destination that keeps every line, parsed. */
function capture(): { destination: DestinationStream; lines: Line[] } {
  const lines: Line[] = [];
  return { destination: { write: (text: string) => void lines.push(JSON.parse(text) as Line) }, lines };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

describe('correlation ids from the caller', () => {
  it('takes a safe X-Request-ID, else a valid traceparent trace id, else a new UUID', () => {
    expect(correlationIdFor(new Headers({ 'X-Request-ID': 'req-42.a:b_c' }))).toBe('req-42.a:b_c');
    expect(correlationIdFor(new Headers({ 'X-Request-ID': 'abc', traceparent: TRACEPARENT }))).toBe('abc');
    expect(correlationIdFor(new Headers({ traceparent: TRACEPARENT }))).toBe(TRACE_ID);
    for (const unsafe of ['has space', 'x'.repeat(129), 'semi;colon', '<script>', '"quoted"', '']) {
      expect(correlationIdFor(new Headers({ 'X-Request-ID': unsafe }))).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it.each([
    ['ff version', `ff-${TRACE_ID}-00f067aa0ba902b7-01`],
    ['zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['zero parent id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['upper case', `00-${TRACE_ID.toUpperCase()}-00f067aa0ba902b7-01`],
    ['extra field on version 00', `${TRACEPARENT}-extra`],
    ['short', '00-abc-def-01'],
  ])('ignores an invalid traceparent (%s)', (_why, value) => {
    expect(traceIdOf(value)).toBeUndefined();
  });

  it('accepts a later traceparent version with extra fields', () => {
    expect(traceIdOf(`01-${TRACE_ID}-00f067aa0ba902b7-01-whatever`)).toBe(TRACE_ID);
  });
});

describe.each(dialects)('logs and metrics on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  let clientId: string;
  let clientSecret: string;
  const { destination, lines } = capture();

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name, { logger: createLogger('debug', destination) });
    await f.ingest(maeuBundle());
    for (const bundle of buildSandboxBundle(new Date())) await f.ingest(bundle);
    ({ token, clientId, clientSecret } = await f.tokenFor('acct-a'));
  });
  afterAll(async () => f?.destroy());

  const linesOf = (correlationId: string) => lines.filter((l) => l.correlationId === correlationId);

  it.skipIf(!enabled)('echoes an inbound X-Request-ID on the response, in the access log and in GraphQL errors', async () => {
    const response = await f.app.fetch(`${BASE}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Request-ID': 'trace-me-1' },
      body: JSON.stringify({ query: '{ shipment(billOfLadingNumber: "MAEU1001BL") { shipmentTracking { eta } } }' }),
    });
    expect(response.headers.get('x-request-id')).toBe('trace-me-1');
    expect(response.headers.get('x-correlation-id')).toBe('trace-me-1');
    const body = (await response.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED', correlationId: 'trace-me-1' });
    // Yoga's internal http extension stays internal.
    expect(body.errors[0]?.extensions.http).toBeUndefined();
    expect(linesOf('trace-me-1')).toContainEqual(
      expect.objectContaining({ level: 'debug', message: 'request', method: 'POST', route: '/graphql', status: 401 }),
    );
  });

  it.skipIf(!enabled)('puts a traceparent trace id in the DCSA error body and the refusal log line', async () => {
    const response = await f.get('/v2/shipments?billOfLadingNumber=NOPE0001', token, { traceparent: TRACEPARENT });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { providerCorrelationReference: string }).providerCorrelationReference).toBe(TRACE_ID);
    expect(response.headers.get('x-request-id')).toBe(TRACE_ID);
    expect(linesOf(TRACE_ID).map((l) => l.message)).toEqual(['request refused', 'request']);
  });

  it.skipIf(!enabled)('logs one access line per request: success at info with the client, path without query', async () => {
    const response = await f.get('/v2/shipments?billOfLadingNumber=MAEU1001BL', token, { 'X-Request-ID': 'ok-lookup' });
    expect(response.status).toBe(200);
    const access = linesOf('ok-lookup').filter((l) => l.message === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ level: 'info', method: 'GET', route: '/v2/shipments', status: 200, clientId });
    expect(access[0]?.durationMs).toEqual(expect.any(Number));
    expect(access[0]).toMatchObject({ time: expect.stringMatching(/Z$/) });
  });

  it.skipIf(!enabled)('never logs tokens, secrets or Authorization headers', async () => {
    await f.app.fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Request-ID': 'grant-1' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
    });
    expect(linesOf('grant-1')).toContainEqual(expect.objectContaining({ message: 'request', status: 200, clientId }));
    const all = JSON.stringify(lines);
    expect(all).not.toContain(token);
    expect(all).not.toContain(clientSecret);
    expect(all).not.toMatch(/Bearer /);
  });

  it.skipIf(!enabled)('serves the named series on /metrics with bounded labels', async () => {
    await f.get('/v2/shipments?billOfLadingNumber=MAEU1001BL', token);
    await f.app.fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'wrong' }).toString(),
    });
    await f.graphql('query NamedLookup { shipment(billOfLadingNumber: "MAEU1001BL") { shipmentTracking { eta } } }', {}, token);
    await f.get('/no/such/path/123');

    const response = await f.get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    const series = (pattern: RegExp) => text.split('\n').filter((l) => pattern.test(l));

    expect(series(/^tt_http_requests_total\{method="GET",route="\/v2\/shipments",status="200"\} [1-9]/)).toHaveLength(1);
    expect(series(/^tt_http_request_duration_seconds_bucket\{.*route="\/v2\/shipments",status="200"/).length).toBeGreaterThan(0);
    expect(series(/^tt_http_requests_total\{method="GET",route="other",status="404"\} [1-9]/)).toHaveLength(1);
    expect(text).not.toContain('/no/such/path');
    expect(series(/^tt_oauth_token_grants_total [1-9]/)).toHaveLength(1);
    expect(series(/^tt_oauth_token_refusals_total\{error="invalid_client"\} [1-9]/)).toHaveLength(1);
    expect(series(/^graphql_envelop_request\{operationType="query",operationName="RestShipmentLookup"\} [1-9]/)).toHaveLength(1);
    expect(series(/^graphql_envelop_request\{operationType="query",operationName="NamedLookup"\} [1-9]/)).toHaveLength(1);
    expect(series(/^graphql_envelop_request\{operationType="mutation",operationName="RestIssueToken"\} [1-9]/)).toHaveLength(1);
    // The sandbox data has exceptions of several types in both states.
    expect(series(/^tt_exceptions\{type="ROLLOVER",status="DETECTED"\} [1-9]/)).toHaveLength(1);
    expect(series(/^tt_exceptions\{type="ETA_DELAY",status="RESOLVED"\} [1-9]/)).toHaveLength(1);
    expect(series(/^process_cpu_user_seconds_total /)).toHaveLength(1);
    // No query text or field paths in any label.
    expect(text).not.toMatch(/shipmentTracking|billOfLadingNumber|path="/);
    if (name === 'mysql') {
      expect(series(/^tt_db_pool_connections\{state="open"\} \d+/)).toHaveLength(1);
      expect(series(/^tt_db_pool_size 4$/)).toHaveLength(1);
    } else {
      expect(text).not.toContain('tt_db_pool');
    }
  });

  it.skipIf(!enabled)('counts exceptions from the database at most every 15 s', async () => {
    expect(EXCEPTION_COUNTS_TTL_MS).toBe(15_000);
    const count = async () =>
      Number(/^tt_exceptions\{type="ROLLOVER",status="DETECTED"\} (\d+)/m.exec(await (await f.get('/metrics')).text())?.[1]);
    const before = await count();
    await f.t.database.db.deleteFrom('tracking_exception').where('exception_type', '=', 'ROLLOVER').execute();
    // Cached: the deletion is not seen within the TTL.
    expect(await count()).toBe(before);
  });
});

describe.each(dialects)('SQL statement metrics on $name', ({ name, enabled }) => {
  it.skipIf(!enabled)('observes each statement through the Kysely log hook, and installs none when metrics are off', async () => {
    expect(withStatementMetrics(undefined, false)).toBeUndefined();
    const t = await createTestDatabase(name, { log: withStatementMetrics(undefined, true) });
    try {
      const count = async (statement: string) => {
        const metric = await processRegistry.getSingleMetric('tt_db_statement_duration_seconds')!.get();
        return (
          metric.values.find(
            (v) =>
              (v as { metricName?: string }).metricName?.endsWith('_count') &&
              v.labels.statement === statement &&
              v.labels.outcome === 'ok',
          )?.value ?? 0
        );
      };
      const before = await count('select');
      await t.database.db.selectFrom('shipment').select('id').execute();
      await t.database.db.selectFrom('shipment').select('id').execute();
      expect((await count('select')) - before).toBe(2);
    } finally {
      await t.destroy();
    }
  });
});

describe.each(dialects)('/metrics protection on $name', ({ name, enabled }) => {
  it.skipIf(!enabled)('requires the bearer token when TT_METRICS_TOKEN is set; is absent when TT_METRICS is off', async () => {
    const token = 'scrape-token-0123456789';
    const guarded = await createTestApp(name, { config: testConfig({ TT_METRICS_TOKEN: token }) });
    try {
      expect((await guarded.get('/metrics')).status).toBe(401);
      expect((await guarded.get('/metrics', 'wrong-token-0123456789')).status).toBe(401);
      const ok = await guarded.get('/metrics', token);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('tt_http_requests_total');

      const separate = await createTestApp(name, {
        testDatabase: guarded.t,
        config: testConfig({ TT_METRICS_PORT: '9464' }),
      });
      // Served by serve's own listener on TT_METRICS_PORT, never on the API port.
      expect((await separate.get('/metrics')).status).toBe(404);

      const off = await createTestApp(name, { testDatabase: guarded.t, config: testConfig({ TT_METRICS: 'false' }) });
      expect((await off.get('/metrics')).status).toBe(404);
      expect(off.app.metricsRegistry).toBeUndefined();
    } finally {
      await guarded.destroy();
    }
  });
});
