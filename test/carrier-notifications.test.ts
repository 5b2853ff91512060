import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app/create-app.js';
import { createLogger } from '../src/observability/logger.js';
import { OPERATOR_INGEST_SCOPE } from '../src/auth/scopes.js';
import { connectDatabase } from '../src/db/connect.js';
import { notificationKey, signNotification } from '../src/carriers/notification-signature.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { CARRIER, eventId, rawShipment, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * Carrier events over HTTP on each store: DCSA 2.2 notifications pushed to
 * /v2/carrier-notifications/{carrierCode} (signed, idempotent, the ingest
 * pipeline's validation and exceptions), and bundles posted by an operator
 * to /v2/operator/ingest.
 */

const ACCOUNT = 'acme';
const PLANNED = '2024-03-30T06:00:00+08:00';

describe.each(dialects)('carrier notifications on $name', ({ name, enabled }) => {
  let f: TestApp;
  let key: Buffer;
  let secret: string;

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name, { config: testConfig({ TT_CARRIER_NOTIFICATION_MAX_BYTES: String(64 * 1024) }) });
    ({ secret } = await f.app.services.carriers.addCarrier({ carrierCode: CARRIER, name: 'Maersk' }));
    const k = notificationKey(secret);
    if (!k.ok) throw new Error(k.message);
    key = k.key;
    // Master data and the plan: the baseline an estimate is compared with (ETA_DELAY).
    await f.ingest({
      carrierCode: CARRIER,
      shipments: [rawShipment()],
      events: [rawTransportEvent(1, { eventClassifierCode: 'PLN', eventDateTime: PLANNED })],
    });
  });
  afterAll(async () => f?.destroy());

  function notify(body: string, signature: string | null, code = CARRIER, headers: Record<string, string> = {}) {
    return f.app.fetch(`${BASE}/v2/carrier-notifications/${code}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(signature !== null ? { 'Notification-Signature': signature } : {}), ...headers },
      body,
    });
  }
  const signed = (events: unknown[]) => {
    const body = JSON.stringify(events, null, 2); // whitespace and newlines are signed too
    return [body, signNotification(body, key)] as const;
  };
  async function storedEvents(): Promise<number> {
    const row = await f.t.database.db
      .selectFrom('event')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it.skipIf(!enabled)('answers HEAD for an active carrier (the DCSA callback check) and 404 otherwise', async () => {
    expect((await f.app.fetch(`${BASE}/v2/carrier-notifications/${CARRIER}`, { method: 'HEAD' })).status).toBe(204);
    expect((await f.app.fetch(`${BASE}/v2/carrier-notifications/ZZZZ`, { method: 'HEAD' })).status).toBe(404);
    expect((await notify('[]', 'sha256=00', '%E0%A4%A')).status).toBe(404);
    const wrongMethod = await f.app.fetch(`${BASE}/v2/carrier-notifications/${CARRIER}`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('HEAD, POST');
  });

  it.skipIf(!enabled)('stores a correctly signed notification, shows it in the next lookup and raises ETA_DELAY', async () => {
    const before = await storedEvents();
    // Thirty hours late against the plan, with a local offset as DCSA publishes it.
    const [body, signature] = signed([
      rawTransportEvent(2, {
        eventClassifierCode: 'EST',
        eventDateTime: '2024-03-31T12:00:00+08:00',
        eventCreatedDateTime: '2024-03-10T09:00:00+01:00',
      }),
    ]);
    const response = await notify(body, signature);
    expect(response.status, await response.clone().text()).toBe(204);
    expect(await storedEvents()).toBe(before + 1);

    const { token } = await f.tokenFor(ACCOUNT);
    const lookup = await f.get(`/v2/shipments?carrierCode=${CARRIER}&carrierBookingReference=BKG100`, token);
    expect(lookup.status).toBe(200);
    const { shipmentTracking } = (await lookup.json()) as {
      shipmentTracking: { eta: string; exceptions: { exceptionType: string; status: string; relatedEventID: string }[] };
    };
    expect(shipmentTracking.eta).toBe('2024-03-31T04:00:00.000Z');
    expect(shipmentTracking.exceptions).toEqual([
      expect.objectContaining({ exceptionType: 'ETA_DELAY', status: 'DETECTED', relatedEventID: eventId(2) }),
    ]);

    // A carrier's retry of the same notification: 204, nothing stored twice.
    expect((await notify(body, signature)).status).toBe(204);
    expect(await storedEvents()).toBe(before + 1);
  });

  it.skipIf(!enabled)('refuses a wrong, malformed or missing signature with 401 and stores nothing', async () => {
    const before = await storedEvents();
    const [body, signature] = signed([rawTransportEvent(3)]);
    const otherKey = Buffer.alloc(32, 7);
    for (const bad of [
      signNotification(body, otherKey),
      signNotification(`${body} `, key),
      'sha256=abc',
      signature.replace('sha256=', 'sha1='),
      null,
    ]) {
      const response = await notify(body, bad);
      expect(response.status).toBe(401);
      const error = (await response.json()) as { statusCode: number; errors: { errorCode: number; property: string }[] };
      expect(error).toMatchObject({ statusCode: 401, errors: [{ errorCode: 7001, property: 'Notification-Signature' }] });
    }
    // A signature of another carrier's secret does not open this one.
    expect((await notify(body, signature, 'ZZZZ')).status).toBe(404);
    expect(await storedEvents()).toBe(before);
  });

  it.skipIf(!enabled)('validates every event as the ingest does: 400 naming index and field, nothing stored', async () => {
    const before = await storedEvents();
    const [body, signature] = signed([
      rawTransportEvent(4),
      rawTransportEvent(5, { eventDateTime: '2024-03-30T06:00:00' }),
      rawTransportEvent(6, { transportCall: { UNLocationCode: 'xx', modeOfTransport: 'VESSEL' } }),
    ]);
    const response = await notify(body, signature);
    expect(response.status).toBe(400);
    const error = (await response.json()) as { errors: { property: string; jsonPath: string }[] };
    expect(error.errors.map((e) => e.property)).toEqual(expect.arrayContaining(['[1].eventDateTime', '[2].transportCall.UNLocationCode']));
    expect(error.errors.find((e) => e.property === '[1].eventDateTime')?.jsonPath).toBe('$[1].eventDateTime');
    expect(await storedEvents()).toBe(before);

    for (const [text, message] of [
      ['{"events": []}', 'JSON array'],
      ['[1,', 'not valid JSON'],
    ] as const) {
      const refused = await notify(text, signNotification(text, key));
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { errors: { errorCodeMessage: string }[] }).errors[0]?.errorCodeMessage).toContain(message);
    }
    const [typed, typedSignature] = signed([rawTransportEvent(7)]);
    expect((await notify(typed, typedSignature, CARRIER, { 'Content-Type': 'text/plain' })).status).toBe(415);
  });

  it.skipIf(!enabled)('refuses a body over the limit with 413 while reading it', async () => {
    const events = Array.from({ length: 200 }, (_, i) => rawTransportEvent(100 + i));
    const [body, signature] = signed(events);
    expect(body.length).toBeGreaterThan(64 * 1024);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const response = await f.app.fetch(`${BASE}/v2/carrier-notifications/${CARRIER}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Notification-Signature': signature },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it.skipIf(!enabled)(
    'accepts concurrent notifications on two instances over the same shipments (lock conflicts are retried)',
    async () => {
      // A second instance with its own connection pool, as another process would have. (SQLite: one instance,
      // since two connections of one process to one file cannot wait for each other's write transactions.)
      const connection = name === 'mysql' ? connectDatabase(f.t.url, { poolSize: 4 }) : f.t.database;
      const other = name === 'mysql' ? await createApp({ config: f.config, database: connection, logger: createLogger('silent') }) : f.app;
      try {
        const before = await storedEvents();
        const bodies = Array.from({ length: 8 }, (_, b) =>
          signed(
            Array.from({ length: 15 }, (_, i) =>
              rawTransportEvent(500 + b * 15 + i, { eventDateTime: `2024-03-30T${String(6 + (i % 12)).padStart(2, '0')}:00:00+08:00` }),
            ),
          ),
        );
        const statuses = await Promise.all(
          bodies.map(([body, signature], i) =>
            (i % 2 === 0 ? f.app : other)
              .fetch(`${BASE}/v2/carrier-notifications/${CARRIER}`, {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', 'Notification-Signature': signature },
                body,
              })
              .then((r) => r.status),
          ),
        );
        expect(statuses).toEqual(bodies.map(() => 204));
        expect(await storedEvents()).toBe(before + 120);
      } finally {
        if (other !== f.app) await other.close();
        if (connection !== f.t.database) await connection.close();
      }
    },
  );

  it.skipIf(!enabled)('stops verifying the old secret after a rotation, and refuses a disabled carrier', async () => {
    await f.app.services.carriers.addCarrier({ carrierCode: 'ONEY' });
    const rotated = await f.app.services.carriers.rotateSecret('ONEY');
    const newKey = notificationKey(rotated!);
    if (!newKey.ok) throw new Error('rotated secret');
    const body = '[]';
    expect((await notify(body, signNotification(body, newKey.key), 'ONEY')).status).toBe(204);
    expect((await notify(body, signNotification(body, key), 'ONEY')).status).toBe(401);
    await f.app.services.carriers.disableCarrier('ONEY');
    expect((await notify(body, signNotification(body, newKey.key), 'ONEY')).status).toBe(404);
    expect((await f.app.fetch(`${BASE}/v2/carrier-notifications/ONEY`, { method: 'HEAD' })).status).toBe(404);
  });
});

describe.each(dialects)('operator ingest on $name', ({ name, enabled }) => {
  let f: TestApp;

  beforeAll(async () => {
    if (enabled) f = await createTestApp(name);
  });
  afterAll(async () => f?.destroy());

  async function operatorToken(): Promise<string> {
    const creds = await f.app.clients.createClient({ name: 'ops pipeline', account: 'ops' });
    await f.app.clients.setScope(creds.client_id, OPERATOR_INGEST_SCOPE, true);
    const response = await f.app.fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: creds.client_id,
        client_secret: creds.client_secret,
        scope: OPERATOR_INGEST_SCOPE,
      }).toString(),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  it.skipIf(!enabled)('ingests a bundle with the CLI summary, for tokens with tracking-operator.ingest only', async () => {
    const bundle = { carrierCode: CARRIER, shipments: [rawShipment()], events: [rawTransportEvent(1)] };
    expect((await f.send('POST', '/v2/operator/ingest', undefined, bundle)).status).toBe(401);
    const reader = await f.tokenFor(ACCOUNT);
    const forbidden = await f.send('POST', '/v2/operator/ingest', reader.token, bundle);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('www-authenticate')).toContain('insufficient_scope');

    const token = await operatorToken();
    const first = await f.send('POST', '/v2/operator/ingest', token, bundle);
    expect(first.status, await first.clone().text()).toBe(200);
    expect(await first.json()).toMatchObject({ shipmentsCreated: 1, eventsStored: 1, eventsAlreadyStored: 0, shipmentsRefreshed: 1 });
    const again = await f.send('POST', '/v2/operator/ingest', token, bundle);
    expect(await again.json()).toMatchObject({ shipmentsCreated: 0, eventsStored: 0, eventsAlreadyStored: 1 });

    const invalid = await f.send('POST', '/v2/operator/ingest', token, {
      carrierCode: CARRIER,
      events: [rawTransportEvent(2, { eventID: 'nope' })],
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { errors: { property: string }[] }).errors.map((e) => e.property)).toEqual(['events[0].eventID']);
    const broken = await f.app.fetch(`${BASE}/v2/operator/ingest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{"carrierCode": "MAEU",\n "events": [}',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { errors: { errorCodeMessage: string }[] }).errors[0]?.errorCodeMessage).toContain('line 2');
  });
});
