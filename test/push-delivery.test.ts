import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../src/domain/push/webhook-signature.js';
import { claimDeliveries } from '../src/store/push/delivery-queue.js';
import { createTestApp, drainDeliveries, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { documentedVerifier } from './support/docs.js';

/**
 * Push delivery (issue 11) end to end on each store: a client subscribes
 * through REST, carrier bundles are ingested, the delivery worker sends to a
 * real HTTP receiver on loopback.
 */

const ACCOUNT = 'acct-push';
const BOOKING = 'PUSH-1';
const BL = 'PUSHBL1';
const PLANNED = '2026-10-20T06:00:00.000Z';
/** Fast retries for tests: the policy's shape, milliseconds instead of seconds. */
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5, retryPeriodMs: 60_000 };

let n = 0;
function arrival(classifier: 'PLN' | 'EST' | 'ACT', at: string, created: string) {
  n++;
  return {
    eventID: `0b5e0000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    eventType: 'TRANSPORT',
    eventClassifierCode: classifier,
    eventDateTime: at,
    eventCreatedDateTime: created,
    transportEventTypeCode: 'ARRI',
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: BOOKING }],
    transportCall: {
      transportCallID: 'TC-SGSIN-1',
      modeOfTransport: 'VESSEL',
      UNLocationCode: 'SGSIN',
      vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
    },
  };
}
const shipment = {
  carrierBookingReference: BOOKING,
  billOfLadingNumber: BL,
  carrierCode: 'EGLV',
  portOfLoading: { unLocationCode: 'CNSHA' },
  portOfDischarge: { unLocationCode: 'SGSIN' },
  accounts: [ACCOUNT],
};

const hours = (h: number) => new Date(Date.parse(PLANNED) + h * 3_600_000).toISOString();

describe.each(dialects)('webhook push delivery on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  let clientId: string;

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name, { webhooks: { retry: FAST_RETRY } });
    ({ token, clientId } = await f.tokenFor(ACCOUNT, { subscribe: true }));
    await f.ingest({ carrierCode: 'EGLV', shipments: [shipment], events: [arrival('PLN', PLANNED, '2026-10-01T00:00:00Z')] });
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });
  afterEach(() => {
    if (receiver) receiver.answer = () => 200;
  });

  async function subscribe(body: Record<string, unknown> = {}) {
    const response = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, billOfLadingNumber: BL, ...body });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { subscriptionID: string; secret: string; status: string; triggerTypes: string[] };
  }

  const drain = () => drainDeliveries(f);

  it.skipIf(!enabled)('creates, reads and deletes subscriptions over REST, with the secret shown once', async () => {
    const created = await subscribe();
    expect(created).toMatchObject({
      callbackUrl: receiver.url,
      billOfLadingNumber: BL,
      status: 'ACTIVE',
      triggerTypes: ['EVENT_TRIGGER', 'EXCEPTION_DETECTED', 'EXCEPTION_RESOLVED', 'SHIPMENT_MERGED'],
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const one = (await (await f.send('GET', `/v2/subscriptions/${created.subscriptionID}`, token)).json()) as Record<string, unknown>;
    expect(one).toEqual({ ...created, secret: undefined });
    expect('secret' in one).toBe(false);
    const list = (await (await f.send('GET', '/v2/subscriptions', token)).json()) as { subscriptionID: string }[];
    expect(list.map((s) => s.subscriptionID)).toContain(created.subscriptionID);
    expect((await f.send('DELETE', `/v2/subscriptions/${created.subscriptionID}`, token)).status).toBe(204);
    expect((await f.send('GET', `/v2/subscriptions/${created.subscriptionID}`, token)).status).toBe(404);
    expect((await f.send('DELETE', `/v2/subscriptions/${created.subscriptionID}`, token)).status).toBe(404);
  });

  it.skipIf(!enabled)('keeps subscriptions to their owner, and asks for the subscribe scope', async () => {
    const created = await subscribe();
    const other = await f.tokenFor(ACCOUNT, { subscribe: true });
    expect((await f.send('GET', `/v2/subscriptions/${created.subscriptionID}`, other.token)).status).toBe(404);
    const readOnly = await f.tokenFor(ACCOUNT);
    const refused = await f.send('POST', '/v2/subscriptions', readOnly.token, { callbackUrl: receiver.url, billOfLadingNumber: BL });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope');
    // Authentication first: no token is 401 even with an invalid body.
    expect((await f.send('POST', '/v2/subscriptions', undefined, { callbackUrl: 'nope' })).status).toBe(401);
    // Another account's shipment is as unknown as a missing one.
    const stranger = await f.tokenFor('acct-stranger', { subscribe: true });
    const hidden = await f.send('POST', '/v2/subscriptions', stranger.token, { callbackUrl: receiver.url, billOfLadingNumber: BL });
    expect(hidden.status).toBe(404);
    await f.send('DELETE', `/v2/subscriptions/${created.subscriptionID}`, token);
  });

  it.skipIf(!enabled)('refuses a bad subscription request with the field named', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ callbackUrl: 'not a url' }, 'callbackUrl'],
      [{ callbackUrl: 'ftp://example.com/x' }, 'callbackUrl'],
      [{ callbackUrl: 'http://169.254.169.254/latest' }, 'callbackUrl'],
      [{ triggerTypes: ['MANUAL_TRIGGER'] }, 'triggerTypes'],
      [{ triggerTypes: ['SCHEDULED_TRIGGER'] }, 'scheduledIntervalSeconds'],
      [{ scheduledIntervalSeconds: 10 }, 'scheduledIntervalSeconds'],
      [{ secret: 'too-short' }, 'secret'],
      [{ billOfLadingNumber: 'x'.repeat(21) }, 'billOfLadingNumber'],
    ];
    for (const [change, property] of cases) {
      const response = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, billOfLadingNumber: BL, ...change });
      const body = (await response.json()) as any;
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(
        body.errors.map((e: any) => e.property),
        JSON.stringify(body),
      ).toContain(property);
    }
    const notJson = await f.app.fetch('http://tracking.test/v2/subscriptions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(notJson.status).toBe(415);
    const unknownField = await f.send('POST', '/v2/subscriptions', token, {
      callbackUrl: receiver.url,
      billOfLadingNumber: BL,
      colour: 'red',
    });
    expect(unknownField.status).toBe(400);
  });

  it.skipIf(!enabled)('pushes exactly the acceptance story: detected at +30 h, silent at +60 h, resolved, then the arrival', async () => {
    const { subscriptionID, secret } = await subscribe();
    const start = receiver.received.length;
    const late30 = arrival('EST', hours(30), '2026-10-10T00:00:00Z');
    await f.ingest({ carrierCode: 'EGLV', events: [late30] });
    await f.ingest({ carrierCode: 'EGLV', events: [arrival('EST', hours(60), '2026-10-12T00:00:00Z')] });
    const back = arrival('EST', hours(2), '2026-10-14T00:00:00Z');
    await f.ingest({ carrierCode: 'EGLV', events: [back] });
    const actual = arrival('ACT', hours(3), '2026-10-20T09:05:00Z');
    await f.ingest({ carrierCode: 'EGLV', events: [actual] });
    await drain();

    const got = receiver.received.slice(start);
    expect(got.map((r) => [r.json.transmissionHeader.triggerType, r.json.transmissionHeader.triggeredByEvent])).toEqual([
      ['EXCEPTION_DETECTED', late30.eventID],
      ['EXCEPTION_RESOLVED', back.eventID],
      ['EVENT_TRIGGER', actual.eventID],
    ]);
    const [detected, resolved] = got;
    // Signed with the subscription's secret, over the exact body: checked with the README's snippet too.
    const verifyTrackingSignature = await documentedVerifier();
    for (const r of got) {
      expect(verifyTrackingSignature(r.headers['tracking-signature'] as string, r.body, secret)).toBe(true);
      expect(verifyTrackingSignature(r.headers['tracking-signature'] as string, `${r.body} `, secret)).toBe(false);
      expect(verifySignature(r.headers['tracking-signature'] as string, secret, r.body, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verifySignature(r.headers['tracking-signature'] as string, 'whsec_wrong', r.body, Math.floor(Date.now() / 1000))).toBe(false);
      expect(r.headers['tracking-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers['tracking-transmission-id']).toBe(r.json.transmissionHeader.transmissionID);
      expect(r.json.transmissionHeader).toMatchObject({ receiverID: clientId, schemaVersion: '1.2', senderID: 'TRACK-AND-TRACE' });
      expect(r.json.transmissionHeader.transmissionID).toMatch(/^TXN-9\d{17}$/);
    }
    // The body is the lookup's Transmission: the same shipment, with the exception in its state at sending.
    const lookup = (await (await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token)).json()) as any;
    expect(resolved?.json.shipmentTracking).toEqual(lookup.shipmentTracking);
    expect(detected?.json.shipmentTracking.exceptions.map((e: any) => e.exceptionType)).toEqual(['ETA_DELAY']);

    // The delivery log says the same.
    const log = (await (await f.send('GET', `/v2/subscriptions/${subscriptionID}/deliveries`, token)).json()) as any[];
    expect(log.map((d) => [d.triggerType, d.status, d.attempts, d.lastStatus])).toEqual([
      ['EVENT_TRIGGER', 'DELIVERED', 1, 200],
      ['EXCEPTION_RESOLVED', 'DELIVERED', 1, 200],
      ['EXCEPTION_DETECTED', 'DELIVERED', 1, 200],
    ]);
    await f.send('DELETE', `/v2/subscriptions/${subscriptionID}`, token);
  });

  it.skipIf(!enabled)('retries a failing receiver in order: 500, 500, then 200, and the next delivery after it', async () => {
    const { subscriptionID } = await subscribe({ triggerTypes: ['EVENT_TRIGGER'] });
    let failures = 0;
    receiver.answer = () => (failures++ < 2 ? 500 : 200);
    const start = receiver.received.length;
    const first = {
      ...arrival('EST', hours(1), '2026-10-15T00:00:00Z'),
      transportCall: { ...arrival('EST', '', '').transportCall, transportCallID: 'TC-A' },
    };
    await f.ingest({ carrierCode: 'EGLV', events: [first] });
    const second = {
      ...arrival('EST', hours(1), '2026-10-15T01:00:00Z'),
      transportCall: { ...first.transportCall, transportCallID: 'TC-B' },
    };
    await f.ingest({ carrierCode: 'EGLV', events: [second] });
    await drain();
    const got = receiver.received.slice(start);
    expect(got.map((r) => [r.status, r.json.transmissionHeader.triggeredByEvent])).toEqual([
      [500, first.eventID],
      [500, first.eventID],
      [200, first.eventID],
      [200, second.eventID],
    ]);
    // Retries keep their transmissionID and delivery id: receivers de-duplicate on them.
    expect(new Set(got.slice(0, 3).map((r) => r.json.transmissionHeader.transmissionID)).size).toBe(1);
    expect(new Set(got.slice(0, 3).map((r) => r.headers['tracking-delivery-id'])).size).toBe(1);
    const log = (await (await f.send('GET', `/v2/subscriptions/${subscriptionID}/deliveries`, token)).json()) as any[];
    expect(log.map((d) => [d.status, d.attempts])).toEqual([
      ['DELIVERED', 1],
      ['DELIVERED', 3],
    ]);
    await f.send('DELETE', `/v2/subscriptions/${subscriptionID}`, token);
  });

  it.skipIf(!enabled)("keeps other subscriptions' deliveries flowing while one receiver is slow", async () => {
    // Each outcome is recorded as it comes in, and a second round runs beside the one waiting on the slow
    // receiver: the quick subscription's next delivery does not wait for the slow one's answer.
    const slow = await WebhookReceiver.start();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    slow.answer = async () => {
      await held;
      return 200;
    };
    const a = await subscribe({ callbackUrl: slow.url, triggerTypes: ['EVENT_TRIGGER'] });
    const b = await subscribe({ triggerTypes: ['EVENT_TRIGGER'] });
    const start = receiver.received.length;
    const events = ['TC-SLOW-1', 'TC-SLOW-2'].map((id, i) => ({
      ...arrival('EST', hours(1), `2026-10-19T0${i}:00:00Z`),
      transportCall: { ...arrival('EST', '', '').transportCall, transportCallID: id },
    }));
    for (const event of events) await f.ingest({ carrierCode: 'EGLV', events: [event] });
    f.app.deliveries.start();
    try {
      // The slow receiver holds its first delivery until released below: no time bound is needed to tell the order.
      while (receiver.received.length - start < 2) await new Promise((r) => setTimeout(r, 20));
      // Both of the quick receiver's deliveries arrived, in order, while the slow one still holds its first.
      expect(receiver.received.slice(start).map((r) => r.json.transmissionHeader.triggeredByEvent)).toEqual(events.map((e) => e.eventID));
      expect(slow.received).toHaveLength(0);
    } finally {
      release();
      slow.answer = () => 200;
      await f.app.deliveries.stop();
    }
    await drain();
    expect(slow.received.map((r) => r.json.transmissionHeader.triggeredByEvent)).toEqual(events.map((e) => e.eventID));
    for (const { subscriptionID } of [a, b]) await f.send('DELETE', `/v2/subscriptions/${subscriptionID}`, token);
    await slow.close();
  });

  it.skipIf(!enabled)('signs with the old and the new secret during a rotation overlap, then with the new one only', async () => {
    const { subscriptionID, secret: old } = await subscribe({ triggerTypes: ['EVENT_TRIGGER'] });
    const rotated = await f.send('POST', `/v2/subscriptions/${subscriptionID}/rotate-secret`, token, { overlapSeconds: 3600 });
    expect(rotated.status).toBe(200);
    const { secret: fresh, previousSecretExpiresDateTime } = (await rotated.json()) as {
      secret: string;
      previousSecretExpiresDateTime: string;
    };
    expect(fresh).not.toBe(old);
    expect(Date.parse(previousSecretExpiresDateTime) - Date.now()).toBeGreaterThan(3500_000);
    const deliver = async (id: string) => {
      const start = receiver.received.length;
      const event = {
        ...arrival('EST', hours(1), '2026-10-18T00:00:00Z'),
        transportCall: { ...arrival('EST', '', '').transportCall, transportCallID: id },
      };
      await f.ingest({ carrierCode: 'EGLV', events: [event] });
      await drain();
      const [r] = receiver.received.slice(start);
      return { header: r!.headers['tracking-signature'] as string, body: r!.body };
    };
    const now = () => Math.floor(Date.now() / 1000);
    const during = await deliver('TC-ROT-1');
    expect(during.header.match(/v1=/g)).toHaveLength(2);
    expect(verifySignature(during.header, old, during.body, now())).toBe(true);
    expect(verifySignature(during.header, fresh, during.body, now())).toBe(true);
    await f.send('POST', `/v2/subscriptions/${subscriptionID}/rotate-secret`, token, {
      overlapSeconds: 0,
      secret: 'my-own-secret-of-at-least-32-characters!',
    });
    const after = await deliver('TC-ROT-2');
    expect(after.header.match(/v1=/g)).toHaveLength(1);
    expect(verifySignature(after.header, 'my-own-secret-of-at-least-32-characters!', after.body, now())).toBe(true);
    expect(verifySignature(after.header, fresh, after.body, now())).toBe(false);
    await f.send('DELETE', `/v2/subscriptions/${subscriptionID}`, token);
  });

  it.skipIf(!enabled)('disables the subscription when the receiver answers 410 Gone', async () => {
    const { subscriptionID } = await subscribe({ triggerTypes: ['EVENT_TRIGGER'] });
    receiver.answer = () => 410;
    const event = {
      ...arrival('EST', hours(1), '2026-10-16T00:00:00Z'),
      transportCall: { ...arrival('EST', '', '').transportCall, transportCallID: 'TC-GONE' },
    };
    await f.ingest({ carrierCode: 'EGLV', events: [event] });
    await drain();
    const sub = (await (await f.send('GET', `/v2/subscriptions/${subscriptionID}`, token)).json()) as any;
    expect(sub).toMatchObject({ status: 'DISABLED', disabledReason: 'the receiver answered 410 Gone' });
    const before = receiver.received.length;
    const later = {
      ...event,
      eventID: '0b5e0000-0000-4000-8000-ffffffffffff',
      transportCall: { ...event.transportCall, transportCallID: 'TC-GONE-2' },
    };
    await f.ingest({ carrierCode: 'EGLV', events: [later] });
    await drain();
    expect(receiver.received.length).toBe(before);
  });

  it.skipIf(!enabled)('delivers after a worker died between claiming and sending (its lease runs out)', async () => {
    const { subscriptionID } = await subscribe({ triggerTypes: ['EVENT_TRIGGER'] });
    const event = {
      ...arrival('EST', hours(1), '2026-10-17T00:00:00Z'),
      transportCall: { ...arrival('EST', '', '').transportCall, transportCallID: 'TC-CRASH' },
    };
    await f.ingest({ carrierCode: 'EGLV', events: [event] });
    // A worker claims it, then dies: nothing is sent, nothing recorded. (A lease of ten minutes: no machine is slow enough to outlast it before the check.)
    const claimed = await claimDeliveries(f.t.database.db, {
      owner: 'dead-worker',
      limit: 10,
      now: new Date(),
      leaseMs: 600_000,
    });
    expect(claimed.map((c) => c.triggeredByEvent)).toContain(event.eventID);
    const start = receiver.received.length;
    await f.app.deliveries.runOnce();
    expect(receiver.received.length).toBe(start); // still leased
    // Its lease runs out (the time passes, here in the row rather than on the clock).
    await f.t.database.db
      .updateTable('webhook_delivery')
      .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
      .where('lease_owner', 'in', [...new Set(claimed.map((c) => c.lease))])
      .execute();
    await drain();
    expect(receiver.received.slice(start).map((r) => r.json.transmissionHeader.triggeredByEvent)).toEqual([event.eventID]);
    await f.send('DELETE', `/v2/subscriptions/${subscriptionID}`, token);
  });
});
