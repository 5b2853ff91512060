import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_SCOPE, SUBSCRIBE_SCOPE, TRACK_SCOPE } from '../src/auth/scopes.js';
import { TrackingFetcher } from '../src/carriers/tracking-fetcher.js';
import { requestTracking } from '../src/carriers/tracking-request-service.js';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { FakeDcsaPublisher } from './support/fake-dcsa-publisher.js';
import { CONTAINER_A, rawEquipmentEvent, rawShipmentEvent, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * Tracking requests (docs/tracking-requests.md) end to end on each store, against a fake DCSA publisher that
 * filters its events by reference: a known bill of lading becomes TRACKING with its events and its shipment
 * derived from them, raises ETA_DELAY pushed to a webhook; an unknown one waits, then fails; two clients on one
 * reference share one fetch stream and one shipment; a 429 is honoured; nothing is visible to another tenant.
 * The fetcher's clock runs ahead of the app's by `ahead` ms, so giving up and waiting cost no wall-clock time.
 */

type Json = Record<string, any>;

/** The events the publisher holds for voyage `n`: booking BKG<n>, bill of lading MAEUBL<n>. */
function voyage(n: number, base: number): Json[] {
  const booking = `BKG${n}`;
  const bl = `MAEUBL${n}`;
  const docs = [
    { documentReferenceType: 'BKG', documentReferenceValue: booking },
    { documentReferenceType: 'TRD', documentReferenceValue: bl },
  ];
  const call = (port: string) => ({
    ...(rawTransportEvent(0).transportCall as Json),
    UNLocationCode: port,
    transportCallID: `TC-${port}-${n}`,
  });
  return [
    rawShipmentEvent(base, { documentID: booking, documentReferences: [docs[1]] }),
    rawTransportEvent(base + 1, {
      eventClassifierCode: 'PLN',
      transportEventTypeCode: 'DEPA',
      eventCreatedDateTime: '2024-02-21T08:00:00+01:00',
      eventDateTime: '2024-03-06T06:00:00+01:00',
      transportCall: call('NLRTM'),
      documentReferences: docs,
    }),
    rawTransportEvent(base + 2, {
      eventClassifierCode: 'PLN',
      eventCreatedDateTime: '2024-02-21T08:00:00+01:00',
      eventDateTime: '2024-03-28T06:00:00+08:00',
      transportCall: call('SGSIN'),
      documentReferences: docs,
    }),
    rawEquipmentEvent(base + 3, {
      equipmentEventTypeCode: 'GTIN',
      eventCreatedDateTime: '2024-03-01T10:15:00+01:00',
      eventDateTime: '2024-03-01T10:00:00+01:00',
      equipmentReference: CONTAINER_A,
      transportCall: call('NLRTM'),
      documentReferences: docs,
    }),
  ];
}

/** The carrier's new estimate: arrival 48 h after the plan. */
function delay(n: number, id: number): Json {
  const call = { ...(rawTransportEvent(0).transportCall as Json), UNLocationCode: 'SGSIN', transportCallID: `TC-SGSIN-${n}` };
  return rawTransportEvent(id, {
    eventCreatedDateTime: '2024-03-02T08:00:00+01:00',
    eventDateTime: '2024-03-30T06:00:00+08:00',
    transportCall: call,
    documentReferences: [
      { documentReferenceType: 'BKG', documentReferenceValue: `BKG${n}` },
      { documentReferenceType: 'TRD', documentReferenceValue: `MAEUBL${n}` },
    ],
  });
}

describe.each(dialects)('tracking requests on $name', ({ name, enabled }) => {
  let f: TestApp;
  let publisher: FakeDcsaPublisher;
  let ahead = 0;
  const clock = () => new Date(Date.now() + ahead);
  const sleeps: number[] = [];
  let fetcher: TrackingFetcher;
  /** Two clients of different accounts (tenants), both allowed to track and subscribe. */
  let acme: string;
  let globex: string;

  const clients = new Map<string, string>();
  const issue = async (clientId: string) =>
    (await f.app.tokens.issueToken({ clientId, scope: `${READ_SCOPE} ${SUBSCRIBE_SCOPE} ${TRACK_SCOPE}` })).access_token;
  async function trackerToken(account: string): Promise<string> {
    const creds = await f.app.clients.createClient({ name: `tracker of ${account}`, account });
    await f.app.clients.setScope(creds.client_id, TRACK_SCOPE, true);
    await f.app.clients.setScope(creds.client_id, SUBSCRIBE_SCOPE, true);
    clients.set(account, creds.client_id);
    return issue(creds.client_id);
  }
  /** Moves the clock on; the tokens of the two clients are issued again (an hour's lifetime). */
  async function advance(ms: number): Promise<void> {
    ahead += ms;
    acme = await issue(clients.get('acme') as string);
    globex = await issue(clients.get('globex') as string);
  }
  const track = async (token: string, body: Json) => {
    const response = await f.send('POST', '/v2/tracking-requests', token, body);
    return { status: response.status, body: (await response.json()) as Json };
  };
  const read = async (token: string, id: string) => {
    const response = await f.get(`/v2/tracking-requests/${id}`, token);
    return { status: response.status, body: (await response.json()) as Json };
  };
  /** The publisher's requests for one reference. */
  const asked = (reference: string) => publisher.requests.filter((r) => r.includes(`=${encodeURIComponent(reference)}`));

  const fetchLog: Record<string, unknown>[] = [];
  beforeAll(async () => {
    if (!enabled) return;
    publisher = await FakeDcsaPublisher.start();
    publisher.events = [
      ...voyage(100, 100),
      ...voyage(200, 200),
      ...voyage(300, 300),
      ...voyage(400, 400),
      ...voyage(500, 500),
      ...voyage(600, 600),
    ];
    f = await createTestApp(name, { now: clock });
    await f.app.services.carriers.addCarrier({ carrierCode: 'MAEU', eventsUrl: publisher.eventsUrl });
    await f.app.services.carriers.addCarrier({ carrierCode: 'MSCU', eventsUrl: publisher.eventsUrl });
    await f.app.services.carriers.setReferencePrefixes('MSCU', ['MEDU', 'MSCU']);
    fetcher = new TrackingFetcher({
      database: f.t.database,
      carriers: f.app.services.carriers,
      config: f.config,
      now: clock,
      // Kept so that a failing expectation can say what the fetcher met (quiet otherwise).
      log: (level, message, fields) => void fetchLog.push({ level, message, ...fields }),
      sleep: async (ms) => void sleeps.push(ms),
    });
    acme = await trackerToken('acme');
    globex = await trackerToken('globex');
  });
  afterAll(async () => {
    await f?.destroy();
    await publisher?.close();
  });

  it.skipIf(!enabled)('tracks a known bill of lading: TRACKING with its events, ETA_DELAY pushed to a webhook', async () => {
    const created = await track(acme, { transportDocumentReference: 'MAEUBL100' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'PENDING',
      carrierCode: 'MAEU',
      transportDocumentReference: 'MAEUBL100',
      eventsReceived: 0,
    });
    const id = created.body.trackingRequestID as string;
    // The same reference again: the same request, not a second one.
    const again = await track(acme, { transportDocumentReference: 'MAEUBL100', carrierCode: 'MAEU' });
    expect(again).toMatchObject({ status: 200, body: { trackingRequestID: id } });

    await fetcher.runOnce();
    const tracking = await read(acme, id);
    expect(tracking.body).toMatchObject({
      status: 'TRACKING',
      eventsReceived: 4,
      shipment: { carrierCode: 'MAEU', carrierBookingReference: 'BKG100', billOfLadingNumber: 'MAEUBL100' },
    });
    expect(tracking.body.trackingSinceDateTime).toBeDefined();
    expect(asked('MAEUBL100')[0]).toMatch(/^\/v2\/events\?transportDocumentReference=MAEUBL100&limit=\d+$/);

    // The shipment from the events alone: identifiers, ports, containers, the route from the events.
    const lookup = await f.get('/v2/shipments?billOfLadingNumber=MAEUBL100', acme);
    expect(lookup.status).toBe(200);
    const snapshot = ((await lookup.json()) as Json).shipmentTracking as Json;
    expect(snapshot).toMatchObject({
      carrierCode: 'MAEU',
      carrierBookingReference: 'BKG100',
      portOfLoading: { unLocationCode: 'NLRTM' },
      portOfDischarge: { unLocationCode: 'SGSIN' },
    });
    expect(snapshot.containers.map((c: Json) => c.containerNumber)).toEqual([CONTAINER_A]);
    expect(snapshot.transportEvents).toHaveLength(2);
    expect(snapshot.exceptions).toEqual([]);

    // A webhook on the shipment, then the carrier publishes a 48 h later arrival.
    const subscribed = await f.send('POST', '/v2/subscriptions', acme, {
      callbackUrl: 'http://127.0.0.1:9/hook',
      billOfLadingNumber: 'MAEUBL100',
    });
    expect(subscribed.status).toBe(201);
    const subscriptionID = ((await subscribed.json()) as Json).subscriptionID as string;
    publisher.events.push(delay(100, 190));
    await advance(2 * 86_400_000);
    await fetcher.runOnce();
    expect((await read(acme, id)).body).toMatchObject({ status: 'TRACKING', eventsReceived: 5 });
    // Later fetches ask from the watermark (minus the overlap), not for everything again.
    expect(asked('MAEUBL100').at(-1)).toContain('eventCreatedDateTime:gte=');
    const after = ((await (await f.get('/v2/shipments?billOfLadingNumber=MAEUBL100', acme)).json()) as Json).shipmentTracking as Json;
    expect(after.exceptions.map((e: Json) => e.exceptionType)).toEqual(['ETA_DELAY']);
    const deliveries = (await (await f.get(`/v2/subscriptions/${subscriptionID}/deliveries`, acme)).json()) as Json[];
    expect(deliveries.map((d) => d.triggerType)).toContain('EXCEPTION_DETECTED');
  });

  it.skipIf(!enabled)('waits for an unknown bill of lading, then fails after the give-up time', async () => {
    const created = await track(acme, { transportDocumentReference: 'MAEUNOPE1' });
    const id = created.body.trackingRequestID as string;
    await fetcher.runOnce();
    expect((await read(acme, id)).body).toMatchObject({ status: 'AWAITING_CARRIER_DATA', eventsReceived: 0 });
    expect((await read(acme, id)).body.failureReason).toBeUndefined();
    await advance(f.config.tracking.giveUpHours * 3_600_000 + 60_000);
    await fetcher.runOnce();
    const failed = (await read(acme, id)).body;
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toMatch(/no events for this reference within/);
    expect(failed.nextFetchDateTime).toBeUndefined();
    // A failed request is not fetched again.
    const count = asked('MAEUNOPE1').length;
    await advance(86_400_000);
    await fetcher.runOnce();
    expect(asked('MAEUNOPE1')).toHaveLength(count);
  });

  it.skipIf(!enabled)('shares one fetch stream and one shipment between two clients, and fetches a reference once at a time', async () => {
    const a = await track(acme, { transportDocumentReference: 'MAEUBL200' });
    const b = await track(globex, { transportDocumentReference: 'MAEUBL200', carrierCode: 'MAEU' });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.trackingRequestID).not.toBe(a.body.trackingRequestID);
    // Two fetchers (two instances) run at once: the claim lets one of them fetch the reference.
    const other = new TrackingFetcher({
      database: f.t.database,
      carriers: f.app.services.carriers,
      config: f.config,
      now: clock,
      log: () => undefined,
    });
    await Promise.all([fetcher.runOnce(), other.runOnce()]);
    expect(asked('MAEUBL200')).toHaveLength(1);
    for (const [token, id] of [
      [acme, a.body.trackingRequestID],
      [globex, b.body.trackingRequestID],
    ] as const) {
      expect((await read(token, id)).body).toMatchObject({ status: 'TRACKING', shipment: { carrierBookingReference: 'BKG200' } });
      expect((await f.get('/v2/shipments?billOfLadingNumber=MAEUBL200', token)).status).toBe(200);
    }
    expect(
      await f.t.database.db.selectFrom('shipment').select('id').where('carrier_booking_reference', '=', 'BKG200').execute(),
    ).toHaveLength(1);

    // A third client joining later is granted the same shipment at the next fetch, still one stream.
    const initech = await trackerToken('initech');
    const c = await track(initech, { transportDocumentReference: 'MAEUBL200' });
    await fetcher.runOnce();
    expect((await read(initech, c.body.trackingRequestID)).body).toMatchObject({ status: 'TRACKING' });
    expect((await f.get('/v2/shipments?billOfLadingNumber=MAEUBL200', initech)).status).toBe(200);
    expect(asked('MAEUBL200')).toHaveLength(2);
  });

  it.skipIf(!enabled)("honours the carrier's 429 and Retry-After, then fetches", async () => {
    const created = await track(globex, { carrierBookingReference: 'BKG300', carrierCode: 'MAEU' });
    const id = created.body.trackingRequestID as string;
    publisher.script = { [publisher.requests.length]: { status: 429, retryAfter: '120' } };
    await fetcher.runOnce();
    const waiting = (await read(globex, id)).body;
    expect(waiting.status).toBe('PENDING');
    expect(Date.parse(waiting.nextFetchDateTime) - clock().getTime()).toBeGreaterThanOrEqual(110_000);
    expect(asked('BKG300')).toHaveLength(1);
    // Not due yet: nothing is asked, by this fetcher or another.
    await fetcher.runOnce();
    expect(asked('BKG300')).toHaveLength(1);
    await advance(121_000);
    await fetcher.runOnce();
    expect(asked('BKG300')).toHaveLength(2);
    expect((await read(globex, id)).body).toMatchObject({ status: 'TRACKING', shipment: { carrierBookingReference: 'BKG300' } });
  });

  it.skipIf(!enabled)("never shows another client's requests or tracked shipments (404), and stops on DELETE", async () => {
    const mine = await track(acme, { transportDocumentReference: 'MAEUBL400' });
    const id = mine.body.trackingRequestID as string;
    const results = await fetcher.runOnce();
    expect((await read(acme, id)).body.status, JSON.stringify({ results, log: fetchLog.slice(-10) })).toBe('TRACKING');
    expect((await read(globex, id)).status).toBe(404);
    expect((await f.send('DELETE', `/v2/tracking-requests/${id}`, globex)).status).toBe(404);
    expect((await f.get('/v2/shipments?billOfLadingNumber=MAEUBL400', globex)).status).toBe(404);
    const listed = (await (await f.get('/v2/tracking-requests?limit=500', globex)).json()) as Json[];
    expect(listed.map((r) => r.trackingRequestID)).not.toContain(id);
    expect(listed.every((r) => r.transportDocumentReference !== 'MAEUBL100' && r.transportDocumentReference !== 'MAEUBL400')).toBe(true);

    expect((await f.send('DELETE', `/v2/tracking-requests/${id}`, acme)).status).toBe(204);
    expect((await read(acme, id)).body).toMatchObject({ status: 'STOPPED', stopReason: 'DELETED' });
    const count = asked('MAEUBL400').length;
    await advance(7 * 86_400_000);
    await fetcher.runOnce();
    expect(asked('MAEUBL400')).toHaveLength(count);
    // Tracking it again is a new request.
    const again = await track(acme, { transportDocumentReference: 'MAEUBL400' });
    expect(again.status).toBe(201);
    expect(again.body.trackingRequestID).not.toBe(id);
  });

  it.skipIf(!enabled)('merges a later bundle into the shipment made from events: the bundle wins, one shipment', async () => {
    const created = await track(acme, { transportDocumentReference: 'MAEUBL500' });
    await fetcher.runOnce();
    expect((await read(acme, created.body.trackingRequestID)).body.status).toBe('TRACKING');
    // The operator's bundle for the same booking: a customer reference, a vessel name of its own, another account.
    await f.ingest(
      {
        carrierCode: 'MAEU',
        shipments: [
          {
            carrierCode: 'MAEU',
            carrierBookingReference: 'BKG500',
            billOfLadingNumber: 'MAEUBL500',
            vesselName: 'FROM THE BUNDLE',
            portOfLoading: { UNLocationCode: 'NLRTM' },
            portOfDischarge: { UNLocationCode: 'SGSIN' },
            references: { customer_name: 'ACME Corp' },
            accounts: ['operators'],
            containers: [{ containerNumber: CONTAINER_A, references: { free_time_exp_dt: '2024-04-10T00:00:00+08:00' } }],
          },
        ],
      },
      clock(),
    );
    const shipments = await f.t.database.db.selectFrom('shipment').select('id').where('carrier_booking_reference', '=', 'BKG500').execute();
    expect(shipments).toHaveLength(1);
    // A later fetch with news re-derives from the events: the bundle's statement stands.
    publisher.events.push(delay(500, 590));
    await advance(2 * 86_400_000);
    await fetcher.runOnce();
    const tracking = ((await (await f.get('/v2/shipments?billOfLadingNumber=MAEUBL500', acme)).json()) as Json).shipmentTracking as Json;
    expect(tracking).toMatchObject({ vesselName: 'FROM THE BUNDLE', references: { customer_name: 'ACME Corp' } });
    expect(tracking.containers[0].references.free_time_exp_dt).toBeDefined();
    expect(tracking.exceptions.map((e: Json) => e.exceptionType)).toContain('ETA_DELAY');
  });

  it.skipIf(!enabled)('follows a shipment a bundle described first: its data kept, granted to the client that tracks it', async () => {
    await f.ingest(
      {
        carrierCode: 'MAEU',
        shipments: [
          {
            carrierCode: 'MAEU',
            carrierBookingReference: 'BKG600',
            billOfLadingNumber: 'MAEUBL600',
            vesselName: 'FROM THE BUNDLE',
            portOfDischarge: { UNLocationCode: 'SGSIN' },
            references: {},
            accounts: ['operators'],
            containers: [],
          },
        ],
      },
      clock(),
    );
    expect((await f.get('/v2/shipments?billOfLadingNumber=MAEUBL600', globex)).status).toBe(404);
    const created = await track(globex, { transportDocumentReference: 'MAEUBL600' });
    await fetcher.runOnce();
    expect((await read(globex, created.body.trackingRequestID)).body).toMatchObject({
      status: 'TRACKING',
      shipment: { carrierBookingReference: 'BKG600' },
    });
    const tracking = ((await (await f.get('/v2/shipments?billOfLadingNumber=MAEUBL600', globex)).json()) as Json).shipmentTracking as Json;
    expect(tracking.vesselName).toBe('FROM THE BUNDLE');
    expect(tracking.transportEvents.length).toBeGreaterThan(0);
    expect(
      await f.t.database.db.selectFrom('shipment').select('id').where('carrier_booking_reference', '=', 'BKG600').execute(),
    ).toHaveLength(1);
  });

  it.skipIf(!enabled)('refuses bad input clearly: no reference, two, an unknown prefix, an ambiguous one, no scope', async () => {
    const bad = async (body: Json, token = acme) => {
      const response = await f.send('POST', '/v2/tracking-requests', token, body);
      return { status: response.status, errors: (((await response.json()) as Json).errors ?? []) as Json[] };
    };
    expect(await bad({})).toMatchObject({ status: 400 });
    expect(await bad({ transportDocumentReference: 123 })).toMatchObject({ status: 400 });
    expect(await bad({ transportDocumentReference: null, equipmentReference: null })).toMatchObject({ status: 400 });
    expect(await bad({ transportDocumentReference: 'MAEUBL100', colour: 'red' })).toMatchObject({ status: 400 });
    expect(await bad({ transportDocumentReference: 'X'.repeat(21) })).toMatchObject({ status: 400 });
    for (const raw of ['[]', 'null', '{', '"MAEUBL100"']) {
      const response = await f.app.fetch(`${BASE}/v2/tracking-requests`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${acme}`, 'Content-Type': 'application/json' },
        body: raw,
      });
      expect(response.status, raw).toBe(400);
    }
    expect((await f.get('/v2/tracking-requests/not-a-uuid', acme)).status).toBe(404);
    expect((await f.get(`/v2/tracking-requests/${'x'.repeat(300)}`, acme)).status).toBe(400);
    expect((await f.get('/v2/tracking-requests?limit=9999', acme)).status).toBe(400);
    expect(await bad({ transportDocumentReference: 'A1', equipmentReference: CONTAINER_A })).toMatchObject({ status: 400 });
    expect(await bad({ equipmentReference: 'MSKU1234566' })).toMatchObject({ status: 400 });
    const unknown = await bad({ transportDocumentReference: 'ZZZZ1' });
    expect(unknown.errors[0]?.errorCodeMessage).toMatch(/configured: MAEU, MSCU/);
    // Two carriers claiming one prefix: the client must say which.
    await f.app.services.carriers.setReferencePrefixes('MAEU', ['MAEU', 'MSCU']);
    const ambiguous = await bad({ transportDocumentReference: 'MSCU12345' });
    expect(ambiguous.errors[0]).toMatchObject({ property: 'carrierCode' });
    expect(ambiguous.errors[0]?.errorCodeMessage).toMatch(/several carriers \(MAEU, MSCU\)/);
    await f.app.services.carriers.setReferencePrefixes('MAEU', null);
    expect((await track(acme, { transportDocumentReference: 'MEDU7654321' })).body).toMatchObject({ carrierCode: 'MSCU' });
    expect(await bad({ transportDocumentReference: 'MAEUBL100', carrierCode: 'ZIMU' })).toMatchObject({ status: 400 });
    const reader = (await f.tokenFor('acme')).token;
    expect((await f.send('POST', '/v2/tracking-requests', reader, { transportDocumentReference: 'MAEUBL100' })).status).toBe(403);
    expect(
      (await f.app.fetch(`${BASE}/v2/tracking-requests`, { method: 'PUT', headers: { Authorization: `Bearer ${acme}` } })).status,
    ).toBe(405);
  });

  it.skipIf(!enabled)('caps the live requests of a client (TT_MAX_TRACKING_REQUESTS_PER_CLIENT): a clear 400 past it', async () => {
    const config = { tracking: { ...f.config.tracking, maxRequestsPerClient: 1 } };
    const principal = { clientId: 'capped-client', accountIds: ['capped'], scopes: [TRACK_SCOPE] };
    const first = await requestTracking(f.t.database, config, principal, { transportDocumentReference: 'MAEUBL100' }, clock());
    expect(first.created).toBe(true);
    // The same reference again is not a second request, so the cap does not refuse it.
    expect((await requestTracking(f.t.database, config, principal, { transportDocumentReference: 'MAEUBL100' }, clock())).created).toBe(
      false,
    );
    const refused: Json = await requestTracking(
      f.t.database,
      config,
      principal,
      { transportDocumentReference: 'MAEUBL200' },
      clock(),
    ).catch((err: unknown) => err as Json);
    expect(refused.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(refused.message).toMatch(/at most 1 active tracking requests/);
  });

  it.skipIf(!enabled)('pages through a client’s requests with a cursor, each once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response: Response = await f.get(`/v2/tracking-requests?limit=2${cursor ? `&cursor=${cursor}` : ''}`, acme);
      expect(response.status).toBe(200);
      seen.push(...((await response.json()) as Json[]).map((r) => r.trackingRequestID as string));
      cursor = response.headers.get('next-page-cursor');
    } while (cursor);
    const all = (await (await f.get('/v2/tracking-requests?limit=500', acme)).json()) as Json[];
    expect(seen).toEqual(all.map((r) => r.trackingRequestID));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(4);
    expect((await f.get('/v2/tracking-requests?cursor=nope', acme)).status).toBe(400);
  });

  it.skipIf(!enabled)('answers over GraphQL with the same policy', async () => {
    const response = await f.graphql(
      `mutation { createTrackingRequest(request: { transportDocumentReference: "MAEUBL100" }) { created trackingRequest { status carrierCode } } }`,
      {},
      acme,
    );
    expect(((await response.json()) as Json).data).toEqual({
      createTrackingRequest: { created: false, trackingRequest: { status: 'TRACKING', carrierCode: 'MAEU' } },
    });
    const reader = (await f.tokenFor('acme')).token;
    const refused = (await (await f.graphql('{ trackingRequests { nextCursor } }', {}, reader)).json()) as Json;
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
