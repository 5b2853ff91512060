import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app/create-app.js';
import { createLogger } from '../src/observability/logger.js';
import { connectDatabase, type Database } from '../src/db/connect.js';
import { BASE } from './support/app-fixture.js';
import { TEST_MYSQL_URL } from './support/databases.js';
import { createSandboxApp, SANDBOX_SEEDED_AT, type SandboxApp } from './support/sandbox-app.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { randomUUID } from 'node:crypto';
import { OPERATOR_INGEST_SCOPE } from '../src/auth/scopes.js';
import { notificationKey, signNotification } from '../src/carriers/notification-signature.js';
import { CARRIER, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * A database outage (docs/architecture.md, Limits and failure): the service talks to MariaDB
 * through a TCP proxy the test cuts (a dead server) and freezes (a server
 * stopped by SIGSTOP: connections open, nothing answers). Every route
 * answers 503 with Retry-After while the database still does not answer (its
 * deadline, not the database, ends the wait) instead of hanging or answering
 * 500, /ready turns 503 and back, and the same process recovers when the
 * database comes back. How long the 503s take is printed, not asserted: it
 * depends on the machine's load (the deadlines are TIMEOUTS; figures belong
 * in the bench).
 *
 * MySQL/MariaDB only: SQLite is a file in the process, with no connection
 * to lose (its busy file is covered by test/concurrent-ingest.test.ts).
 */
const TIMEOUTS = { connectMs: 500, acquireMs: 500, statementMs: 1000, sqliteBusyMs: 0 };

describe.skipIf(!TEST_MYSQL_URL)('database outage through a TCP proxy (mysql)', () => {
  let f: SandboxApp;
  let proxy: TcpProxy;
  let database: Database;
  let app: App;

  beforeAll(async () => {
    f = await createSandboxApp('mysql');
    const target = new URL(f.t.url);
    proxy = await new TcpProxy(target.hostname, Number(target.port || 3306)).start();
    database = connectDatabase(proxy.proxiedUrl(f.t.url), { poolSize: 4, timeouts: TIMEOUTS });
    app = await createApp({
      config: f.config,
      database,
      logger: createLogger('silent'),
      clientCacheTtlMs: 0,
      now: () => SANDBOX_SEEDED_AT,
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await proxy?.close();
    await f?.destroy();
  });

  const routes = {
    lookup: () => app.fetch(`${BASE}/v2/shipments?billOfLadingNumber=MAEU262150002`, { headers: { Authorization: `Bearer ${f.token}` } }),
    token: () =>
      app.fetch(`${BASE}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: f.demo.client_id,
          client_secret: f.demo.client_secret,
        }).toString(),
      }),
    graphql: () =>
      app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${f.token}` },
        body: JSON.stringify({ query: '{ shipment(billOfLadingNumber: "MAEU262150002") { transmissionHeader { transmissionID } } }' }),
      }),
    subscriptions: () => app.fetch(`${BASE}/v2/subscriptions`, { headers: { Authorization: `Bearer ${f.token}` } }),
    ready: () => app.fetch(`${BASE}/ready`),
  };

  async function timed(route: keyof typeof routes): Promise<{ status: number; ms: number; response: Response; text: string }> {
    const started = performance.now();
    const response = await routes[route]();
    const text = await response.text();
    return { status: response.status, ms: Math.round(performance.now() - started), response, text };
  }

  async function allAnswer(status: number): Promise<void> {
    for (const route of Object.keys(routes) as (keyof typeof routes)[]) {
      if (route === 'subscriptions' && status === 200) continue; // needs the subscribe scope: 403, still an answer
      expect((await timed(route)).status, route).toBe(status);
    }
  }

  /**
   * Answers 503 while the database is still down or frozen (so a deadline ended the wait, not the database), with
   * Retry-After and the route's own body, nothing of the driver in it.
   */
  async function expectUnavailable(): Promise<Record<string, number>> {
    const figures: Record<string, number> = {};
    const outage = proxy.mode;
    await Promise.all(
      (Object.keys(routes) as (keyof typeof routes)[]).map(async (route) => {
        const { status, ms, response, text } = await timed(route);
        figures[route] = ms;
        expect(proxy.mode, route).toBe(outage);
        expect(status, `${route}: ${text}`).toBe(503);
        expect(response.headers.get('retry-after'), route).toMatch(/^\d+$/);
        expect(text, route).not.toMatch(/ECONN|ETIMEDOUT|PROTOCOL_|127\.0\.0\.1|node_modules|\bat .*:\d+:\d+/);
        const body = JSON.parse(text) as Record<string, unknown>;
        if (route === 'lookup' || route === 'subscriptions') {
          expect(body).toMatchObject({ statusCode: 503, statusCodeText: 'Service Unavailable', errors: [{ errorCode: 7003 }] });
          expect(body.providerCorrelationReference).toBe(response.headers.get('x-correlation-id'));
        }
        if (route === 'token') expect(body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
        if (route === 'graphql') {
          expect(body).toMatchObject({ errors: [{ extensions: { code: 'SERVICE_UNAVAILABLE', correlationId: expect.any(String) } }] });
        }
      }),
    );
    return figures;
  }

  async function recovers(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while ((await timed('ready')).status !== 200) {
      if (Date.now() > deadline) throw new Error('did not recover');
      await new Promise((r) => setTimeout(r, 100));
    }
    await allAnswer(200);
  }

  it('answers normally through the proxy', async () => {
    await allAnswer(200);
  });

  it('a frozen database: 503 with Retry-After at the deadlines, then recovery without a restart', async () => {
    proxy.freeze();
    const first = await expectUnavailable();
    // Pooled connections were destroyed at their deadline; new ones hang in the handshake: the acquire deadline.
    const second = await expectUnavailable();
    console.log('frozen database, ms to answer 503:', JSON.stringify({ first, second }));
    proxy.restore();
    await recovers();
  });

  /**
   * The two ingest routes read the database before the body (the carrier's secret, the client): the outage
   * starts while the body is read, so the ingest's own write is what fails. Nothing is stored, and the answer is
   * 503 with Retry-After and the DCSA error body, not 500.
   */
  it('the ingest routes: a database lost during the request is 503 with Retry-After, nothing stored', async () => {
    const { secret } = await app.services.carriers.addCarrier({ carrierCode: 'ONEY', name: 'ONE' });
    const key = notificationKey(secret);
    if (!key.ok) throw new Error(key.message);
    await app.clients.setScope(f.demo.client_id, OPERATOR_INGEST_SCOPE, true);
    const { access_token: operator } = await app.tokens.issueToken({ clientId: f.demo.client_id, scope: OPERATOR_INGEST_SCOPE });
    const eventIds = [randomUUID(), randomUUID()];
    const notification = JSON.stringify([rawTransportEvent(1, { eventID: eventIds[0] })]);
    const bundle = JSON.stringify({ carrierCode: CARRIER, events: [rawTransportEvent(2, { eventID: eventIds[1] })] });
    /** A body whose bytes flow only once the handler reads it, and the database is cut just then. */
    const cutWhileRead = (text: string) =>
      new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            proxy.cut();
            controller.enqueue(new TextEncoder().encode(text));
            controller.close();
          },
        },
        // Nothing is pulled before the handler reads.
        { highWaterMark: 0 },
      );
    const post = async (path: string, headers: Record<string, string>, text: string) => {
      const response = await app.fetch(`${BASE}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: cutWhileRead(text),
        duplex: 'half',
      } as RequestInit);
      return { response, body: (await response.json()) as Record<string, unknown> };
    };
    for (const send of [
      () => post('/v2/carrier-notifications/ONEY', { 'Notification-Signature': signNotification(notification, key.key) }, notification),
      () => post('/v2/operator/ingest', { Authorization: `Bearer ${operator}` }, bundle),
    ]) {
      const sent = await send();
      expect(proxy.mode).toBe('cut');
      expect(sent.response.status, JSON.stringify(sent.body)).toBe(503);
      expect(sent.response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(sent.body).toMatchObject({ statusCode: 503, statusCodeText: 'Service Unavailable', errors: [{ errorCode: 7003 }] });
      expect(JSON.stringify(sent.body)).not.toMatch(/ECONN|PROTOCOL_|127\.0\.0\.1|node_modules/);
      proxy.restore();
      await recovers();
    }
    expect(await f.t.database.db.selectFrom('event').select('event_id').where('event_id', 'in', eventIds).execute()).toEqual([]);
  });

  it('a dead database: 503 at once, then recovery without a restart', async () => {
    proxy.cut();
    const figures = await expectUnavailable();
    console.log('dead database, ms to answer 503:', JSON.stringify(figures));
    proxy.restore();
    await recovers();
  });
});
