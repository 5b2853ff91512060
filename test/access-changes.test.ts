import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_SCOPE, SUBSCRIBE_SCOPE, TRACK_SCOPE } from '../src/auth/scopes.js';
import { TrackingFetcher } from '../src/carriers/tracking-fetcher.js';
import { BASE, createTestApp, drainDeliveries, type TestApp } from './support/app-fixture.js';
import { runCaptured, type CliRun } from './support/cli-run.js';
import { dialects } from './support/databases.js';
import { DcsaValidator } from './support/dcsa-validator.js';
import { FakeDcsaPublisher } from './support/fake-dcsa-publisher.js';
import { CARRIER, eventId, rawEquipmentEvent, rawShipment, rawShipmentEvent, rawTransportEvent } from './support/ingest-fixtures.js';
import { WebhookReceiver, type Received } from './support/webhook-receiver.js';

/**
 * Grants and revokes are changes (issue 34, docs/account-feed.md, docs/push.md, docs/dcsa-events.md), on each
 * store: an operator's grant and revoke, a bundle naming an account and a tracking request that builds a
 * shipment each reach the account's change feed (from a saved cursor), its account-wide webhooks (filtered) and
 * its DCSA event subscriptions (the shipment's past events, once), exactly once, and no other account.
 */

type Json = Record<string, any>;
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5, retryPeriodMs: 60_000 };
const SECRET = Buffer.alloc(32, 7).toString('base64');

describe.each(dialects)('grants and revokes as changes on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;
  const validator = new DcsaValidator();
  const env = () => ({ DATABASE_URL: f.t.url, TT_BASE_URL: BASE, TT_LOG_LEVEL: 'silent' });
  const run = (...args: string[]): Promise<CliRun> => runCaptured(args, { env: env(), database: f.t.database });

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name, { webhooks: { retry: FAST_RETRY } });
    // BKG100 with a shipment event, a transport event and an equipment event, seen by acme only.
    await f.ingest({
      carrierCode: CARRIER,
      shipments: [rawShipment(), rawShipment({ carrierBookingReference: 'BKG200', billOfLadingNumber: 'MAEUBL200', containers: [] })],
      events: [rawShipmentEvent(1), rawTransportEvent(2), rawEquipmentEvent(3)],
    });
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  /** A client of `account` that reads and subscribes: its token, an account-wide webhook and a DCSA subscription. */
  async function follower(account: string, webhook: Json = {}) {
    const { token } = await f.tokenFor(account, { subscribe: true });
    const hook = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: `${receiver.url}?wh=${account}`, ...webhook });
    expect(hook.status, await hook.clone().text()).toBe(201);
    const dcsa = await f.send('POST', '/v2/event-subscriptions', token, {
      callbackUrl: `${receiver.url}?dcsa=${account}`,
      secret: SECRET,
      eventType: ['TRANSPORT', 'EQUIPMENT'],
    });
    expect(dcsa.status, await dcsa.clone().text()).toBe(201);
    return { token, webhook: (await hook.json()) as Json };
  }
  /** The feed from `after` to its end, every page; include=snapshot. */
  async function feed(token: string, after?: string): Promise<{ entries: Json[]; next: string }> {
    const entries: Json[] = [];
    let cursor = after;
    for (;;) {
      const response = await f.get(`/v2/changes?limit=100&include=snapshot${cursor ? `&after=${cursor}` : ''}`, token);
      expect(response.status).toBe(200);
      const page = (await response.json()) as { changes: Json[]; next: string; hasMore: boolean };
      entries.push(...page.changes);
      cursor = page.next;
      if (!page.hasMore) return { entries, next: page.next };
    }
  }
  const triggers = (entries: Json[]) =>
    entries.flatMap((e) => (e.changes as Json[]).map((c) => `${e.carrierBookingReference as string} ${c.triggerType as string}`));
  const webhooksOf = (account: string, from: number) =>
    receiver.received.slice(from).filter((r) => r.method === 'POST' && r.url.includes(`wh=${account}`));
  const dcsaOf = (account: string, from: number) =>
    receiver.received.slice(from).filter((r) => r.method === 'POST' && r.url.includes(`dcsa=${account}`));
  const eventIds = (notifications: Received[]) => notifications.flatMap((r) => (r.json as Json[]).map((e) => e.eventID as string));

  it.skipIf(!enabled)(
    "an operator's grant, then revoke: GRANTED then REVOKED once each in the feed from a saved cursor, the account webhook and DCSA get theirs",
    async () => {
      const newco = await follower('newco');
      // Filtered like the others: one that asks only for milestones, one that asks only for another carrier's shipments.
      await f.send('POST', '/v2/subscriptions', newco.token, {
        callbackUrl: `${receiver.url}?wh=milestones`,
        triggerTypes: ['EVENT_TRIGGER'],
      });
      await f.send('POST', '/v2/subscriptions', newco.token, { callbackUrl: `${receiver.url}?wh=eglv`, carrierCodes: ['EGLV'] });
      expect(newco.webhook.triggerTypes).toEqual([
        'EVENT_TRIGGER',
        'EXCEPTION_DETECTED',
        'EXCEPTION_RESOLVED',
        'SHIPMENT_MERGED',
        'GRANTED',
        'REVOKED',
      ]);
      const acme = await f.tokenFor('acme');
      const saved = (await feed(newco.token)).next;
      expect((await feed(newco.token)).entries).toEqual([]);
      const acmeSaved = (await feed(acme.token)).next;
      const start = receiver.received.length;

      expect(await run('shipment', 'grant', CARRIER, 'BKG100', '--account', 'newco')).toMatchObject({
        code: 0,
        stdout: 'Account newco may see MAEU BKG100.\n',
      });
      await drainDeliveries(f);
      // The webhook: a Transmission of the shipment, triggerType GRANTED.
      const granted = webhooksOf('newco', start);
      expect(granted).toHaveLength(1);
      expect(granted[0]?.headers['tracking-trigger-type']).toBe('GRANTED');
      expect(granted[0]?.json.transmissionHeader.triggerType).toBe('GRANTED');
      expect(granted[0]?.json.shipmentTracking.carrierBookingReference).toBe('BKG100');
      expect(webhooksOf('milestones', start)).toEqual([]);
      expect(webhooksOf('eglv', start)).toEqual([]);
      // DCSA: the shipment's past events that match the filters (TRANSPORT, EQUIPMENT), in one notification.
      const past = dcsaOf('newco', start);
      expect(past).toHaveLength(1);
      expect(validator.notification(past[0]!.headers, past[0]!.json)).toEqual([]);
      expect(eventIds(past)).toEqual([eventId(2), eventId(3)]);
      // The feed from the saved cursor: GRANTED with the current snapshot.
      const afterGrant = await feed(newco.token, saved);
      expect(triggers(afterGrant.entries)).toEqual(['BKG100 GRANTED']);
      expect(afterGrant.entries[0]).toMatchObject({ billOfLadingNumber: 'MAEUBL100', version: expect.any(Number) });
      expect(afterGrant.entries[0]?.shipmentTracking?.carrierBookingReference).toBe('BKG100');

      const middle = receiver.received.length;
      expect((await run('shipment', 'revoke', CARRIER, 'BKG100', '--account', 'newco', '--reason', 'wrong forwarder')).code).toBe(0);
      await drainDeliveries(f);
      // The webhook: REVOKED, the shipment's identifiers and nothing more of it.
      const revoked = webhooksOf('newco', middle);
      expect(revoked).toHaveLength(1);
      expect(revoked[0]?.headers['tracking-trigger-type']).toBe('REVOKED');
      expect(revoked[0]?.json).toEqual({
        transmissionHeader: expect.objectContaining({ triggerType: 'REVOKED', triggeredByEvent: null }),
        revokedShipment: { carrierCode: CARRIER, carrierBookingReference: 'BKG100', billOfLadingNumber: 'MAEUBL100' },
      });
      expect(dcsaOf('newco', middle)).toEqual([]);
      // From the saved cursor: GRANTED then REVOKED, once each; the entry names the shipment only.
      const both = await feed(newco.token, saved);
      expect(triggers(both.entries)).toEqual(['BKG100 GRANTED', 'BKG100 REVOKED']);
      expect(Object.keys(both.entries[0] ?? {}).sort()).toEqual(
        ['billOfLadingNumber', 'carrierBookingReference', 'carrierCode', 'changedDateTime', 'changes'].sort(),
      );
      // From the cursor after the grant: REVOKED alone; from the end: nothing.
      expect(triggers((await feed(newco.token, afterGrant.next)).entries)).toEqual(['BKG100 REVOKED']);
      expect((await feed(newco.token, both.next)).entries).toEqual([]);
      // Another account learns nothing of newco's access.
      expect(triggers((await feed(acme.token, acmeSaved)).entries)).toEqual([]);
      // Granting an account that sees the shipment already changes nothing.
      expect((await run('shipment', 'grant', CARRIER, 'BKG100', '--account', 'acme')).stdout).toContain('(it did already)');

      // Given back: GRANTED again, but the DCSA subscriber gets no past event a second time; then the new ones.
      const again = receiver.received.length;
      expect((await run('shipment', 'grant', CARRIER, 'BKG100', '--account', 'newco')).code).toBe(0);
      await f.ingest({
        carrierCode: CARRIER,
        events: [rawTransportEvent(4, { eventClassifierCode: 'ACT', eventCreatedDateTime: '2024-03-30T08:00:00+08:00' })],
      });
      await drainDeliveries(f);
      expect(eventIds(dcsaOf('newco', again))).toEqual([eventId(4)]);
      expect(webhooksOf('newco', again).map((r) => r.json.transmissionHeader.triggerType)).toEqual(['GRANTED', 'EVENT_TRIGGER']);
      expect(triggers((await feed(newco.token, both.next)).entries)).toEqual(['BKG100 GRANTED', 'BKG100 EVENT_TRIGGER']);
      expect(triggers((await feed(acme.token, acmeSaved)).entries)).toEqual(['BKG100 EVENT_TRIGGER']);
    },
  );

  it.skipIf(!enabled)("a bundle naming the account: GRANTED, and the shipment's past events once, before the bundle's own", async () => {
    const bundleco = await follower('bundleco');
    const saved = (await feed(bundleco.token)).next;
    const start = receiver.received.length;
    await f.ingest({
      carrierCode: CARRIER,
      shipments: [
        rawShipment({ carrierBookingReference: 'BKG200', billOfLadingNumber: 'MAEUBL200', containers: [], accounts: ['bundleco'] }),
      ],
      events: [rawTransportEvent(20, { documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG200' }] })],
    });
    // Replayed: nothing more.
    await f.ingest({
      carrierCode: CARRIER,
      shipments: [
        rawShipment({ carrierBookingReference: 'BKG200', billOfLadingNumber: 'MAEUBL200', containers: [], accounts: ['bundleco'] }),
      ],
    });
    await drainDeliveries(f);
    expect(triggers((await feed(bundleco.token, saved)).entries)).toEqual(['BKG200 GRANTED', 'BKG200 EVENT_TRIGGER']);
    expect(webhooksOf('bundleco', start).map((r) => r.json.transmissionHeader.triggerType)).toEqual(['GRANTED', 'EVENT_TRIGGER']);
    // BKG200 had no event before: only the bundle's own, once.
    expect(eventIds(dcsaOf('bundleco', start))).toEqual([eventId(20)]);

    // BKG100's past events (those of the filters) come first, then the new event of the same bundle, each once.
    const next = receiver.received.length;
    await f.ingest({
      carrierCode: CARRIER,
      shipments: [rawShipment({ accounts: ['bundleco'] })],
      events: [rawEquipmentEvent(21, { equipmentEventTypeCode: 'DISC' })],
    });
    await drainDeliveries(f);
    const notified = eventIds(dcsaOf('bundleco', next));
    expect(notified).toEqual([eventId(2), eventId(3), eventId(4), eventId(21)]);
  });

  it.skipIf(!enabled)("a tracking request that builds a new shipment: GRANTED in the account's feed and to its webhook", async () => {
    const publisher = await FakeDcsaPublisher.start();
    try {
      const booking = 'BKG700';
      const docs = [
        { documentReferenceType: 'BKG', documentReferenceValue: booking },
        { documentReferenceType: 'TRD', documentReferenceValue: 'MAEUBL700' },
      ];
      publisher.events = [
        rawShipmentEvent(70, { documentID: booking, documentReferences: [docs[1]] }),
        rawTransportEvent(71, { eventClassifierCode: 'PLN', documentReferences: docs }),
      ];
      await f.app.services.carriers.addCarrier({ carrierCode: CARRIER, eventsUrl: publisher.eventsUrl });
      const creds = await f.app.clients.createClient({ name: 'tracker', account: 'trackco' });
      await f.app.clients.setScope(creds.client_id, TRACK_SCOPE, true);
      await f.app.clients.setScope(creds.client_id, SUBSCRIBE_SCOPE, true);
      const token = (await f.app.tokens.issueToken({ clientId: creds.client_id, scope: `${READ_SCOPE} ${SUBSCRIBE_SCOPE} ${TRACK_SCOPE}` }))
        .access_token;
      const hook = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: `${receiver.url}?wh=trackco` });
      expect(hook.status).toBe(201);
      const saved = (await feed(token)).next;
      const start = receiver.received.length;
      const created = await f.send('POST', '/v2/tracking-requests', token, { transportDocumentReference: 'MAEUBL700' });
      expect(created.status).toBe(201);
      const fetcher = new TrackingFetcher({
        database: f.t.database,
        carriers: f.app.services.carriers,
        config: f.config,
        log: () => undefined,
        sleep: async () => undefined,
      });
      await fetcher.runOnce();
      const id = ((await created.json()) as Json).trackingRequestID as string;
      expect(((await (await f.get(`/v2/tracking-requests/${id}`, token)).json()) as Json).status).toBe('TRACKING');
      await drainDeliveries(f);
      const changes = triggers((await feed(token, saved)).entries);
      expect(changes.filter((c) => c.endsWith('GRANTED'))).toEqual([`${booking} GRANTED`]);
      expect(changes[0]).toBe(`${booking} GRANTED`);
      const got = webhooksOf('trackco', start).map((r) => r.json.transmissionHeader.triggerType as string);
      expect(got.filter((t) => t === 'GRANTED')).toHaveLength(1);
      expect(got[0]).toBe('GRANTED');
    } finally {
      await publisher.close();
    }
  });
});
