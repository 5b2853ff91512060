import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_SCOPE, SUBSCRIBE_SCOPE, TRACK_SCOPE } from '../src/auth/scopes.js';
import { TrackingFetcher } from '../src/carriers/tracking-fetcher.js';
import { ingestBundle, type IngestSummary } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { markStandIns } from '../db/migrations/016-shipment-identity.js';
import { createTestApp, drainDeliveries, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { FakeDcsaPublisher } from './support/fake-dcsa-publisher.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { CONTAINER_C, rawEquipmentEvent, rawShipmentEvent, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * One shipment per bill of lading of a carrier (docs/architecture.md, Identity), on each store. A client tracks a
 * bill of lading whose carrier's events name no booking, so the bill of lading stands in for the booking; a bundle
 * then describes the same bill of lading under its real booking. It stays one shipment: found by the bill of
 * lading, the real booking and the stand-in; its exception IDs, webhook subscription and ETag history go on; the
 * merge is one SHIPMENT_MERGED change in the account feed and the webhook's deliveries. Also: the other order, the
 * same bundle again (nothing changes), and the two statements ingested at the same time (one shipment each time).
 */

type Json = Record<string, any>;

const TRD = (bl: string) => [{ documentReferenceType: 'TRD', documentReferenceValue: bl }];
const call = (port: string, n: number) => ({
  ...(rawTransportEvent(0).transportCall as Json),
  UNLocationCode: port,
  transportCallID: `TC-${port}-${n}`,
});

/** A voyage whose events name its bill of lading MAEUBL<n> and no booking at all. */
function bareVoyage(n: number): Json[] {
  const bl = `MAEUBL${n}`;
  const base = n * 10;
  return [
    rawShipmentEvent(base, { documentTypeCode: 'TRD', documentID: bl }),
    rawTransportEvent(base + 1, {
      eventClassifierCode: 'PLN',
      transportEventTypeCode: 'DEPA',
      eventCreatedDateTime: '2024-02-21T08:00:00+01:00',
      eventDateTime: '2024-03-06T06:00:00+01:00',
      transportCall: call('NLRTM', n),
      documentReferences: TRD(bl),
    }),
    rawTransportEvent(base + 2, {
      eventClassifierCode: 'PLN',
      eventCreatedDateTime: '2024-02-21T08:00:00+01:00',
      eventDateTime: '2024-03-28T06:00:00+08:00',
      transportCall: call('SGSIN', n),
      documentReferences: TRD(bl),
    }),
    rawEquipmentEvent(base + 3, {
      equipmentEventTypeCode: 'GTIN',
      eventCreatedDateTime: '2024-03-01T10:15:00+01:00',
      eventDateTime: '2024-03-01T10:00:00+01:00',
      equipmentReference: CONTAINER_C,
      transportCall: call('NLRTM', n),
      documentReferences: TRD(bl),
    }),
  ];
}

/** The carrier's new estimate for voyage n: arrival 48 h after the plan (ETA_DELAY). */
const delay = (n: number) =>
  rawTransportEvent(n * 10 + 4, {
    eventCreatedDateTime: '2024-03-02T08:00:00+01:00',
    eventDateTime: '2024-03-30T06:00:00+08:00',
    transportCall: call('SGSIN', n),
    documentReferences: TRD(`MAEUBL${n}`),
  });

/** The vessel's actual departure from Rotterdam (a new milestone: EVENT_TRIGGER). */
const departed = (n: number) =>
  rawTransportEvent(n * 10 + 5, {
    eventClassifierCode: 'ACT',
    transportEventTypeCode: 'DEPA',
    eventCreatedDateTime: '2024-03-06T07:00:00+01:00',
    eventDateTime: '2024-03-06T06:30:00+01:00',
    transportCall: call('NLRTM', n),
    documentReferences: TRD(`MAEUBL${n}`),
  });

/** The shipper's bundle: the same bill of lading under its real booking BKG<n>. */
const realBundle = (n: number, accounts = ['acme']) => ({
  carrierCode: 'MAEU',
  shipments: [
    {
      carrierCode: 'MAEU',
      carrierBookingReference: `BKG${n}`,
      billOfLadingNumber: `MAEUBL${n}`,
      vesselName: 'FROM THE BUNDLE',
      portOfLoading: { UNLocationCode: 'NLRTM' },
      portOfDischarge: { UNLocationCode: 'SGSIN' },
      references: { customer_name: 'ACME Corp' },
      accounts,
      containers: [{ containerNumber: CONTAINER_C }],
    },
  ],
});

describe.each(dialects)('one shipment per bill of lading on $name', ({ name, enabled }) => {
  let f: TestApp;
  let publisher: FakeDcsaPublisher;
  let receiver: WebhookReceiver;
  let fetcher: TrackingFetcher;
  let ahead = 0;
  const clock = () => new Date(Date.now() + ahead);
  let clientId: string;
  let token: string;

  const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Json });
  const shipmentsOf = (bl: string) =>
    f.t.database.db.selectFrom('shipment').select(['id', 'carrier_booking_reference']).where('bill_of_lading_number', '=', bl).execute();
  const ingest = async (raw: Json, standIn = false): Promise<IngestSummary> => {
    const parsed = parseBundle(raw);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    // What the tracking fetcher states of a shipment it derived with the tracked reference standing in for the booking.
    if (standIn) parsed.bundle.shipments = parsed.bundle.shipments.map((s) => ({ ...s, derivedBooking: 'STAND_IN' as const }));
    return ingestBundle(f.t.database, parsed.bundle, { now: clock, thresholds: f.config.thresholds });
  };
  /** The account feed from no cursor to its end: the cursor to keep. */
  async function feedCursor(): Promise<string> {
    let next: string | null = null;
    for (;;) {
      const page: Json = (await json(await f.get(`/v2/changes?limit=1000${next ? `&after=${next}` : ''}`, token))).body;
      next = page.next as string;
      if (!page.hasMore) return next;
    }
  }
  async function advance(ms: number): Promise<void> {
    ahead += ms;
    token = (await f.app.tokens.issueToken({ clientId, scope: `${READ_SCOPE} ${SUBSCRIBE_SCOPE} ${TRACK_SCOPE}` })).access_token;
  }

  beforeAll(async () => {
    if (!enabled) return;
    publisher = await FakeDcsaPublisher.start();
    receiver = await WebhookReceiver.start();
    publisher.events = [...bareVoyage(700), ...bareVoyage(800)];
    f = await createTestApp(name, { now: clock });
    await f.app.services.carriers.addCarrier({ carrierCode: 'MAEU', eventsUrl: publisher.eventsUrl });
    fetcher = new TrackingFetcher({
      database: f.t.database,
      carriers: f.app.services.carriers,
      config: f.config,
      now: clock,
      log: () => undefined,
      sleep: async () => undefined,
    });
    const creds = await f.app.clients.createClient({ name: 'tracker', account: 'acme' });
    await f.app.clients.setScope(creds.client_id, TRACK_SCOPE, true);
    await f.app.clients.setScope(creds.client_id, SUBSCRIBE_SCOPE, true);
    clientId = creds.client_id;
    await advance(0);
  });
  afterAll(async () => {
    await f?.destroy();
    await publisher?.close();
    await receiver?.close();
  });

  it.skipIf(!enabled)(
    'a tracked bill of lading with no booking, then the real booking: one shipment, nothing a client saw lost',
    async () => {
      const created = await json(await f.send('POST', '/v2/tracking-requests', token, { transportDocumentReference: 'MAEUBL700' }));
      expect(created.status).toBe(201);
      const requestId = created.body.trackingRequestID as string;
      await fetcher.runOnce();
      // The bill of lading stands in for the booking the events never named.
      expect((await json(await f.get(`/v2/tracking-requests/${requestId}`, token))).body).toMatchObject({
        status: 'TRACKING',
        shipment: { carrierCode: 'MAEU', carrierBookingReference: 'MAEUBL700', billOfLadingNumber: 'MAEUBL700' },
      });
      // A webhook on the shipment, named by its stand-in booking; then an ETA_DELAY.
      const subscribed = await json(
        await f.send('POST', '/v2/subscriptions', token, {
          callbackUrl: receiver.url,
          carrierCode: 'MAEU',
          carrierBookingReference: 'MAEUBL700',
        }),
      );
      expect(subscribed.status).toBe(201);
      const subscriptionID = subscribed.body.subscriptionID as string;
      publisher.events.push(delay(700));
      await advance(2 * 86_400_000);
      await fetcher.runOnce();
      const before = await f.get('/v2/shipments?billOfLadingNumber=MAEUBL700', token);
      const etagBefore = before.headers.get('etag') as string;
      const snapshotBefore = ((await before.json()) as Json).shipmentTracking as Json;
      const exceptionIds = (snapshotBefore.exceptions as Json[]).map((e) => e.exceptionID as string);
      expect((snapshotBefore.exceptions as Json[]).map((e) => [e.exceptionType, e.status])).toEqual([['ETA_DELAY', 'DETECTED']]);
      const [standIn] = await shipmentsOf('MAEUBL700');
      const cursor = await feedCursor();

      const summary = await ingest(realBundle(700));
      expect(summary).toMatchObject({ shipmentsCreated: 0, shipmentsUpdated: 1 });

      // One shipment, the same row, under its real booking.
      expect(await shipmentsOf('MAEUBL700')).toEqual([{ id: standIn!.id, carrier_booking_reference: 'BKG700' }]);
      for (const path of [
        '/v2/shipments?billOfLadingNumber=MAEUBL700',
        '/v2/shipments?carrierCode=MAEU&carrierBookingReference=BKG700',
        // The stand-in a client saw keeps finding it.
        '/v2/shipments?carrierCode=MAEU&carrierBookingReference=MAEUBL700',
        '/v2/shipments?carrierCode=MAEU&carrierBookingReference=MAEUBL700&billOfLadingNumber=MAEUBL700',
      ]) {
        const found = await json(await f.get(path, token));
        expect(found.status, path).toBe(200);
        expect(found.body.shipmentTracking, path).toMatchObject({
          carrierBookingReference: 'BKG700',
          billOfLadingNumber: 'MAEUBL700',
          vesselName: 'FROM THE BUNDLE',
        });
        // The same exceptions, under the same IDs.
        expect((found.body.shipmentTracking.exceptions as Json[]).map((e) => e.exceptionID)).toEqual(exceptionIds);
      }
      // The ETag history goes on: the old tag gets the new body, the new one a 304.
      const after = await f.get('/v2/shipments?billOfLadingNumber=MAEUBL700', token, { 'If-None-Match': etagBefore });
      expect(after.status).toBe(200);
      const etagAfter = after.headers.get('etag') as string;
      expect(etagAfter).not.toBe(etagBefore);
      const byStandIn = await f.get('/v2/shipments?carrierCode=MAEU&carrierBookingReference=MAEUBL700', token, {
        'If-None-Match': etagAfter,
      });
      expect(byStandIn.status).toBe(304);

      // The merge is in the account feed, once, under the shipment's real booking.
      const feed = (await json(await f.get(`/v2/changes?after=${cursor}`, token))).body;
      expect(feed.changes.map((c: Json) => [c.carrierBookingReference, c.changes.map((t: Json) => t.triggerType)])).toEqual([
        ['BKG700', ['SHIPMENT_MERGED']],
      ]);

      // The tracking request follows the same shipment; the next fetch with news keeps it one shipment.
      expect((await json(await f.get(`/v2/tracking-requests/${requestId}`, token))).body.shipment).toMatchObject({
        carrierBookingReference: 'BKG700',
      });
      publisher.events.push(departed(700));
      await advance(86_400_000);
      await fetcher.runOnce();
      expect(await shipmentsOf('MAEUBL700')).toHaveLength(1);
      // The webhook subscription goes on: the merge, then the departure, to the same subscription.
      const deliveries = (await json(await f.get(`/v2/subscriptions/${subscriptionID}/deliveries`, token))).body as unknown as Json[];
      // Sent as any change: the shipment's snapshot under its real booking, signed like the others.
      await drainDeliveries(f);
      const bodies = receiver.accepted.map((r) => r.json as Json);
      expect(bodies.map((b) => [b.transmissionHeader.triggerType, b.shipmentTracking.carrierBookingReference])).toEqual([
        ['EXCEPTION_DETECTED', expect.any(String)],
        ['SHIPMENT_MERGED', 'BKG700'],
        ['EVENT_TRIGGER', 'BKG700'],
      ]);
      expect(receiver.accepted[1]!.headers['tracking-signature']).toBeDefined();
      // Newest first: the ETA_DELAY before the merge, the merge, the departure after it.
      expect(deliveries.map((d) => d.triggerType)).toEqual(['EVENT_TRIGGER', 'SHIPMENT_MERGED', 'EXCEPTION_DETECTED']);
      expect(deliveries[2]!.exceptionID).toBe(exceptionIds[0]);
      const latest = await json(await f.get('/v2/shipments?carrierCode=MAEU&carrierBookingReference=BKG700', token));
      expect((latest.body.shipmentTracking.exceptions as Json[]).map((e) => e.exceptionID).slice(0, exceptionIds.length)).toEqual(
        exceptionIds,
      );

      // The same bundle again changes nothing: no shipment, no version, no change in the feed.
      const cursorAgain = await feedCursor();
      const etagNow = (await f.get('/v2/shipments?billOfLadingNumber=MAEUBL700', token)).headers.get('etag') as string;
      expect(await ingest(realBundle(700))).toMatchObject({ shipmentsCreated: 0, shipmentsUpdated: 0, shipmentsRefreshed: 0 });
      expect((await f.get('/v2/shipments?billOfLadingNumber=MAEUBL700', token, { 'If-None-Match': etagNow })).status).toBe(304);
      expect((await json(await f.get(`/v2/changes?after=${cursorAgain}`, token))).body.changes).toEqual([]);
      expect(await shipmentsOf('MAEUBL700')).toHaveLength(1);
    },
  );

  it.skipIf(!enabled)('the other order: the real booking first, then the tracked bill of lading joins it', async () => {
    await ingest(realBundle(800, ['operators']));
    const created = await json(await f.send('POST', '/v2/tracking-requests', token, { transportDocumentReference: 'MAEUBL800' }));
    await fetcher.runOnce();
    expect((await json(await f.get(`/v2/tracking-requests/${created.body.trackingRequestID}`, token))).body).toMatchObject({
      status: 'TRACKING',
      shipment: { carrierBookingReference: 'BKG800', billOfLadingNumber: 'MAEUBL800' },
    });
    // A stand-in statement derived before the fetcher saw the bundle (a race) joins it too.
    expect(
      await ingest({ carrierCode: 'MAEU', shipments: [{ ...realBundle(800).shipments[0], carrierBookingReference: 'MAEUBL800' }] }, true),
    ).toMatchObject({ shipmentsCreated: 0 });
    expect(await shipmentsOf('MAEUBL800')).toEqual([expect.objectContaining({ carrier_booking_reference: 'BKG800' })]);
    expect((await f.get('/v2/shipments?billOfLadingNumber=MAEUBL800', token)).status).toBe(200);
    expect((await f.get('/v2/shipments?carrierCode=MAEU&carrierBookingReference=BKG800', token)).status).toBe(200);
    // The bill of lading was never a booking of this shipment.
    expect((await f.get('/v2/shipments?carrierCode=MAEU&carrierBookingReference=MAEUBL800', token)).status).toBe(404);
  });

  it.skipIf(!enabled)('a stand-in stored before migration 016 is recognised, and merges with its real booking', async () => {
    publisher.events.push(...bareVoyage(850));
    await json(await f.send('POST', '/v2/tracking-requests', token, { transportDocumentReference: 'MAEUBL850' }));
    await fetcher.runOnce();
    // A bundle's shipment whose booking is its bill of lading (some carriers number both alike) is no stand-in.
    await ingest({ carrierCode: 'MAEU', shipments: [{ ...realBundle(860).shipments[0], carrierBookingReference: 'MAEUBL860' }] });
    // As stored before the migration: no shipment marked.
    await f.t.database.db.updateTable('shipment').set({ booking_stand_in: 0 }).execute();
    await markStandIns(f.t.database.db);
    const marked = await f.t.database.db
      .selectFrom('shipment')
      .select('carrier_booking_reference')
      .where('booking_stand_in', '=', 1)
      .where('bill_of_lading_number', 'in', ['MAEUBL850', 'MAEUBL860'])
      .execute();
    expect(marked).toEqual([{ carrier_booking_reference: 'MAEUBL850' }]);
    await ingest(realBundle(850));
    await ingest(realBundle(860));
    expect(await shipmentsOf('MAEUBL850')).toEqual([expect.objectContaining({ carrier_booking_reference: 'BKG850' })]);
    // Two real bookings of one bill of lading stay two shipments.
    expect((await shipmentsOf('MAEUBL860')).map((s) => s.carrier_booking_reference).sort()).toEqual(['BKG860', 'MAEUBL860']);
  });

  it.skipIf(!enabled)('the stand-in and the real booking ingested at the same time: one shipment every time', async () => {
    const numbers = [901, 902, 903, 904, 905, 906];
    const standIn = (n: number) => ({
      carrierCode: 'MAEU',
      shipments: [
        {
          ...realBundle(n).shipments[0],
          carrierBookingReference: `MAEUBL${n}`,
          vesselName: 'FROM EVENTS',
          updatedDateTime: '1970-01-01T00:00:04Z',
        },
      ],
    });
    await Promise.all(numbers.flatMap((n) => [ingest(standIn(n), true), ingest(realBundle(n))]));
    for (const n of numbers) {
      expect(await shipmentsOf(`MAEUBL${n}`), `MAEUBL${n}`).toEqual([expect.objectContaining({ carrier_booking_reference: `BKG${n}` })]);
      const found = await json(await f.get(`/v2/shipments?billOfLadingNumber=MAEUBL${n}`, token));
      expect(found.body.shipmentTracking.vesselName).toBe('FROM THE BUNDLE');
    }
  });
});
