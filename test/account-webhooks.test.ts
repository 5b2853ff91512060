import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app/create-app.js';
import { createLogger } from '../src/observability/logger.js';
import { BASE, createTestApp, drainDeliveries, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { WebhookReceiver, type Received } from './support/webhook-receiver.js';
import { documentedVerifier } from './support/docs.js';

/**
 * Account-wide webhooks, subscription filters, test deliveries and redeliveries (issue 21,
 * docs/account-feed.md) on each store, through REST, with the delivery worker sending to a real receiver.
 */

const ACCOUNT = 'acct-wide';
const OTHER = 'acct-wide-other';
const PLANNED = '2026-10-20T06:00:00.000Z';
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5, retryPeriodMs: 60_000 };
const hours = (h: number) => new Date(Date.parse(PLANNED) + h * 3_600_000).toISOString();

let n = 0;
function arrival(booking: string, classifier: 'PLN' | 'EST' | 'ACT', at: string, created: string) {
  n++;
  return {
    eventID: `0acc0000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    eventType: 'TRANSPORT',
    eventClassifierCode: classifier,
    eventDateTime: at,
    eventCreatedDateTime: created,
    transportEventTypeCode: 'ARRI',
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: booking }],
    transportCall: {
      transportCallID: `TC-${booking}`,
      modeOfTransport: 'VESSEL',
      UNLocationCode: 'SGSIN',
      vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
    },
  };
}
const shipment = (booking: string, carrierCode: string, accounts: string[]) => ({
  carrierBookingReference: booking,
  billOfLadingNumber: `BL${booking.replace(/-/g, '')}`,
  carrierCode,
  portOfLoading: { unLocationCode: 'CNSHA' },
  portOfDischarge: { unLocationCode: 'SGSIN' },
  accounts,
});

describe.each(dialects)('account-wide webhooks on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name, { webhooks: { retry: FAST_RETRY } });
    ({ token } = await f.tokenFor(ACCOUNT, { subscribe: true }));
    ({ token: otherToken } = await f.tokenFor(OTHER, { subscribe: true }));
    await f.ingest({ carrierCode: 'EGLV', shipments: [shipment('WIDE-0', 'EGLV', [ACCOUNT])] });
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });
  afterEach(async () => {
    if (!enabled) return;
    receiver.answer = () => 200;
    // Each test's subscriptions go, so the next test's deliveries are its own.
    for (const as of [token, otherToken]) {
      const list = (await (await f.send('GET', '/v2/subscriptions', as)).json()) as { subscriptionID: string }[];
      for (const s of list) await f.send('DELETE', `/v2/subscriptions/${s.subscriptionID}`, as);
    }
  });

  async function subscribe(body: Record<string, unknown>, as = token) {
    const response = await f.send('POST', '/v2/subscriptions', as, { callbackUrl: receiver.url, ...body });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { subscriptionID: string; secret: string; coverage: string; triggerTypes: string[] };
  }

  const drain = () => drainDeliveries(f);

  const bookingOf = (r: Received) => r.json?.shipmentTracking?.carrierBookingReference as string;
  it.skipIf(!enabled)('covers a shipment linked to the account after the subscription was made, and no other tenant', async () => {
    const sub = await subscribe({});
    expect(sub.coverage).toBe('ACCOUNT');
    const start = receiver.received.length;
    await f.ingest({ carrierCode: 'EGLV', shipments: [shipment('WIDE-NEW', 'EGLV', [ACCOUNT]), shipment('WIDE-THEIRS', 'EGLV', [OTHER])] });
    await f.ingest({
      carrierCode: 'EGLV',
      events: [arrival('WIDE-NEW', 'PLN', PLANNED, '2026-10-01T00:00:00Z'), arrival('WIDE-THEIRS', 'PLN', PLANNED, '2026-10-01T00:00:00Z')],
    });
    await drain();
    const got = receiver.received.slice(start);
    // The account was given the shipment (GRANTED, a default trigger of an account-wide subscription), then its event.
    expect(got.map(bookingOf)).toEqual(['WIDE-NEW', 'WIDE-NEW']);
    expect(got.map((r) => r.json?.transmissionHeader.triggerType)).toEqual(['GRANTED', 'EVENT_TRIGGER']);
    const verify = await documentedVerifier();
    expect(verify(got[0]?.headers['tracking-signature'] as string, got[0]?.body as string, sub.secret)).toBe(true);
    // One subscription, one row in the delivery log per delivery, delivered.
    const log = (await (await f.send('GET', `/v2/subscriptions/${sub.subscriptionID}/deliveries`, token)).json()) as { status: string }[];
    expect(log.map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
  });

  it.skipIf(!enabled)('filters by trigger type, exception type and carrier, on account-wide and per-shipment subscriptions', async () => {
    await f.ingest({ carrierCode: 'EGLV', shipments: [shipment('WIDE-F1', 'EGLV', [ACCOUNT])] });
    await f.ingest({ carrierCode: 'MAEU', shipments: [shipment('WIDE-F2', 'MAEU', [ACCOUNT])] });
    const hook = (tag: string) => `${receiver.url}?s=${tag}`;
    const maeuOnly = await subscribe({ callbackUrl: hook('maeu'), carrierCodes: ['MAEU'] });
    const etaDelays = await subscribe({ callbackUrl: hook('eta'), triggerTypes: ['EXCEPTION_DETECTED'], exceptionTypes: ['ETA_DELAY'] });
    const demurrage = await subscribe({ callbackUrl: hook('dem'), exceptionTypes: ['DEMURRAGE_RISK'] });
    const perShipment = await subscribe({ callbackUrl: hook('one'), billOfLadingNumber: 'BLWIDEF1', carrierCodes: ['MAEU'] });
    expect(perShipment.coverage).toBe('SHIPMENT');
    const start = receiver.received.length;
    await f.ingest({ carrierCode: 'EGLV', events: [arrival('WIDE-F1', 'PLN', PLANNED, '2026-10-01T00:00:00Z')] });
    await f.ingest({ carrierCode: 'MAEU', events: [arrival('WIDE-F2', 'PLN', PLANNED, '2026-10-01T00:00:00Z')] });
    // 30 hours late: ETA_DELAY detected on WIDE-F1.
    await f.ingest({ carrierCode: 'EGLV', events: [arrival('WIDE-F1', 'EST', hours(30), '2026-10-10T00:00:00Z')] });
    await drain();
    const got = receiver.received.slice(start);
    const of = (tag: string) =>
      got.filter((r) => r.url.endsWith(`?s=${tag}`)).map((r) => [bookingOf(r), r.json.transmissionHeader.triggerType as string]);
    expect(of('maeu')).toEqual([['WIDE-F2', 'EVENT_TRIGGER']]);
    expect(of('eta')).toEqual([['WIDE-F1', 'EXCEPTION_DETECTED']]);
    // The exception filter drops other exception types and leaves other triggers alone.
    expect(of('dem').sort()).toEqual([
      ['WIDE-F1', 'EVENT_TRIGGER'],
      ['WIDE-F2', 'EVENT_TRIGGER'],
    ]);
    // A per-shipment subscription on an EGLV shipment that asks for MAEU only: nothing.
    expect(of('one')).toEqual([]);
    for (const s of [maeuOnly, etaDelays, demurrage]) expect(s.coverage).toBe('ACCOUNT');
  });

  it.skipIf(!enabled)('refuses requests that name no shipment clearly, or ask for what an account-wide one cannot do', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ carrierCode: 'EGLV' }, 'carrierCode'],
      [{ scheduledIntervalSeconds: 3600, triggerTypes: ['SCHEDULED_TRIGGER'] }, 'scheduledIntervalSeconds'],
      [{ carrierCodes: ['eglv'] }, 'carrierCodes'],
      [{ exceptionTypes: ['NOT_A_TYPE'] }, 'exceptionTypes'],
      [{ exceptionTypes: [] }, 'exceptionTypes'],
    ];
    for (const [body, property] of cases) {
      const response = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(await response.json()), JSON.stringify(body)).toContain(property);
    }
    const list = (await (await f.send('GET', '/v2/subscriptions', token)).json()) as unknown[];
    expect(list).toEqual([]);
  });

  it.skipIf(!enabled)('counts an account-wide subscription once toward the per-client cap', async () => {
    const capped = await createApp({
      config: testConfig({ TT_MAX_SUBSCRIPTIONS_PER_CLIENT: '2' }),
      database: f.t.database,
      logger: createLogger('silent'),
      clientCacheTtlMs: 0,
    });
    try {
      const create = (body: Record<string, unknown>) =>
        capped.fetch(`${BASE}/v2/subscriptions`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ callbackUrl: receiver.url, ...body }),
        });
      expect((await create({})).status).toBe(201);
      expect((await create({ billOfLadingNumber: 'BLWIDE0' })).status).toBe(201);
      const refused = await create({});
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain('at most 2 active subscriptions');
    } finally {
      await capped.close();
    }
  });

  it.skipIf(!enabled)('sends a signed test delivery of a current snapshot and answers with the status and latency', async () => {
    const sub = await subscribe({});
    const start = receiver.received.length;
    const response = await f.send('POST', `/v2/subscriptions/${sub.subscriptionID}/test`, token);
    expect(response.status, await response.clone().text()).toBe(200);
    const result = (await response.json()) as { status: number; latencyMs: number; delivered: boolean; test: boolean; deliveryID: string };
    expect(result).toMatchObject({ status: 200, delivered: true, test: true });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const got = receiver.received.slice(start);
    expect(got).toHaveLength(1);
    const sent = got[0] as Received;
    expect(sent.headers['tracking-test']).toBe('true');
    expect(sent.headers['tracking-delivery-id']).toBe(result.deliveryID);
    expect(sent.json.transmissionHeader.triggerType).toBe('MANUAL_TRIGGER');
    expect(typeof bookingOf(sent)).toBe('string');
    const verify = await documentedVerifier();
    expect(verify(sent.headers['tracking-signature'] as string, sent.body, sub.secret)).toBe(true);
    // Not in the delivery log.
    const log = (await (await f.send('GET', `/v2/subscriptions/${sub.subscriptionID}/deliveries`, token)).json()) as unknown[];
    expect(log).toEqual([]);
    // The receiver's failure is reported, not hidden.
    receiver.answer = () => 503;
    const failed = (await (await f.send('POST', `/v2/subscriptions/${sub.subscriptionID}/test`, token)).json()) as Record<string, unknown>;
    expect(failed).toMatchObject({ status: 503, delivered: false });
    // Another client's subscription is as unknown as a missing one.
    expect((await f.send('POST', `/v2/subscriptions/${sub.subscriptionID}/test`, otherToken)).status).toBe(404);
    expect((await f.send('GET', `/v2/subscriptions/${sub.subscriptionID}/test`, token)).status).toBe(405);
  });

  it.skipIf(!enabled)('redelivers a past delivery with the same delivery ID and transmissionID, as one more attempt', async () => {
    const sub = await subscribe({ billOfLadingNumber: 'BLWIDE0' });
    await f.ingest({ carrierCode: 'EGLV', events: [arrival('WIDE-0', 'PLN', PLANNED, '2026-10-01T00:00:00Z')] });
    // Pending: the worker's, not to be sent around it.
    const pending = (await (await f.send('GET', `/v2/subscriptions/${sub.subscriptionID}/deliveries`, token)).json()) as {
      deliveryID: string;
    }[];
    expect(pending).toHaveLength(1);
    const id = (pending[0] as { deliveryID: string }).deliveryID;
    expect((await f.send('POST', `/v2/subscriptions/${sub.subscriptionID}/deliveries/${id}/redeliver`, token)).status).toBe(409);
    const start = receiver.received.length;
    await drain();
    const first = receiver.received[start] as Received;
    const response = await f.send('POST', `/v2/subscriptions/${sub.subscriptionID}/deliveries/${id}/redeliver`, token);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ deliveryID: id, status: 200, delivered: true, test: false });
    const again = receiver.received.at(-1) as Received;
    expect(again.headers['tracking-delivery-id']).toBe(id);
    expect(again.headers['tracking-redelivery']).toBe('true');
    expect(again.json.transmissionHeader.transmissionID).toBe(first.json.transmissionHeader.transmissionID);
    expect(again.json.transmissionHeader.triggerType).toBe(first.json.transmissionHeader.triggerType);
    const verify = await documentedVerifier();
    expect(verify(again.headers['tracking-signature'] as string, again.body, sub.secret)).toBe(true);
    const log = (await (await f.send('GET', `/v2/subscriptions/${sub.subscriptionID}/deliveries`, token)).json()) as {
      deliveryID: string;
      attempts: number;
      status: string;
    }[];
    expect(log).toEqual([expect.objectContaining({ deliveryID: id, attempts: 2, status: 'DELIVERED' })]);
    expect((await f.send('POST', `/v2/subscriptions/${sub.subscriptionID}/deliveries/nope/redeliver`, token)).status).toBe(404);
    expect((await f.send('POST', `/v2/subscriptions/${sub.subscriptionID}/deliveries/${id}/redeliver`, otherToken)).status).toBe(404);
  });

  it.skipIf(!enabled)('keeps DCSA event subscriptions of the same account on their own path', async () => {
    const dcsa = await f.send('POST', '/v2/event-subscriptions', token, {
      callbackUrl: `${receiver.url}?s=dcsa`,
      secret: Buffer.alloc(32, 7).toString('base64'),
    });
    expect(dcsa.status, await dcsa.clone().text()).toBe(201);
    const dcsaID = ((await dcsa.json()) as { subscriptionID: string }).subscriptionID;
    const hook = await subscribe({ callbackUrl: `${receiver.url}?s=hook` });
    const start = receiver.received.length;
    await f.ingest({ carrierCode: 'EGLV', shipments: [shipment('WIDE-D', 'EGLV', [ACCOUNT])] });
    await f.ingest({ carrierCode: 'EGLV', events: [arrival('WIDE-D', 'PLN', PLANNED, '2026-10-01T00:00:00Z')] });
    await drain();
    const got = receiver.received.slice(start).filter((r) => r.method === 'POST');
    const toHook = got.filter((r) => r.url.endsWith('?s=hook'));
    const toDcsa = got.filter((r) => r.url.endsWith('?s=dcsa'));
    expect(toHook.map(bookingOf)).toEqual(['WIDE-D', 'WIDE-D']);
    expect(toHook[0]?.headers['tracking-signature']).toBeTruthy();
    expect(toDcsa.length).toBeGreaterThan(0);
    for (const r of toDcsa) {
      expect(r.headers['notification-signature']).toBeTruthy();
      expect(r.headers['tracking-signature']).toBeUndefined();
    }
    // Each kind's routes see their own: the DCSA subscription is no webhook subscription.
    const list = (await (await f.send('GET', '/v2/subscriptions', token)).json()) as { subscriptionID: string }[];
    expect(list.map((x) => x.subscriptionID)).toEqual([hook.subscriptionID]);
    expect((await f.send('POST', `/v2/subscriptions/${dcsaID}/test`, token)).status).toBe(404);
    expect((await f.send('DELETE', `/v2/event-subscriptions/${dcsaID}`, token)).status).toBe(204);
  });
});
