import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { notificationKey, verifyNotification } from '../src/carriers/notification-signature.js';
import { createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { checkedAnswer, DcsaValidator } from './support/dcsa-validator.js';
import { CARRIER, eventId, rawEquipmentEvent, rawShipment, rawShipmentEvent, rawTransportEvent } from './support/ingest-fixtures.js';
import { WebhookReceiver, type Received } from './support/webhook-receiver.js';

/**
 * DCSA Track & Trace 2.2 event subscriptions (docs/dcsa-events.md: Consuming the service as a DCSA publisher): the routes as
 * the standard defines them, and their notifications through the webhook outbox: the HEAD check before the
 * first one, Notification-Signature under the Base64-decoded secret, Subscription-ID and API-Version, the
 * filters and the tenant rule, 410, secret changes and deletion. Answers and notifications are validated
 * against the standard.
 */
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5, retryPeriodMs: 60_000 };
const SECRET = Buffer.alloc(32, 7).toString('base64');
const NEW_SECRET = Buffer.alloc(48, 9).toString('base64');
const S = '/v2/event-subscriptions';
const ONE = '/v2/event-subscriptions/{subscriptionID}';

describe.each(dialects)('DCSA event subscriptions on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  let n = 100;
  const validator = new DcsaValidator();

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name, { config: testConfig({ TT_MAX_SUBSCRIPTIONS_PER_CLIENT: '3' }), webhooks: { retry: FAST_RETRY } });
    await f.ingest({
      carrierCode: CARRIER,
      shipments: [
        rawShipment(),
        rawShipment({ carrierBookingReference: 'BKG300', billOfLadingNumber: 'MAEUBL300', accounts: ['other'], containers: [] }),
      ],
    });
    token = (await f.tokenFor('acme', { subscribe: true })).token;
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });
  afterEach(async () => {
    if (!enabled) return;
    receiver.answer = () => 200;
    receiver.received.length = 0;
    // Each test starts without subscriptions.
    await sql`update webhook_subscription set status = 'DELETED'`.execute(f.t.database.db);
    await sql`update webhook_delivery set status = 'FAILED' where status = 'PENDING'`.execute(f.t.database.db);
  });

  /** A request to a DCSA route, its answer validated against the standard. */
  async function call(method: string, path: string, template: string, body?: unknown, bearer: string | null = token) {
    const answer = await checkedAnswer(validator, method, template, await f.send(method, path, bearer ?? undefined, body));
    expect(answer.problems, `${method} ${path} ${answer.status}`).toEqual([]);
    return answer;
  }
  const create = async (body: Record<string, unknown>) => {
    const answer = await call('POST', S, S, { secret: SECRET, ...body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as { subscriptionID: string } & Record<string, unknown>;
  };
  const message = (answer: { body: any }) => (answer.body as { errors: { message: string }[] }).errors.map((e) => e.message).join(' ');
  const ingest = (events: unknown[], shipments: unknown[] = []) => f.ingest({ carrierCode: CARRIER, shipments, events });
  const deliver = async () => {
    for (let i = 0; i < 10; i++) if ((await f.app.deliveries.runOnce()).claimed === 0) break;
  };
  const posts = () => receiver.received.filter((r) => r.method === 'POST');
  const next = () => eventId(++n);

  /** A notification as a subscriber checks it: the standard's headers and body, and the signature under `secret`. */
  function expectNotification(r: Received, subscriptionID: string, secret = SECRET) {
    expect(validator.notification(r.headers, r.json)).toEqual([]);
    expect(r.headers['subscription-id']).toBe(subscriptionID);
    expect(r.headers['api-version']).toBe('2.2.0');
    const key = notificationKey(secret);
    if (!key.ok) throw new Error(key.message);
    expect(verifyNotification(r.headers['notification-signature'] as string, Buffer.from(r.body), key.key)).toBe('valid');
  }

  it.skipIf(!enabled)('creates, lists, reads, replaces, re-keys and deletes a subscription as the standard defines them', async () => {
    const created = await create({ callbackUrl: receiver.url, eventType: ['TRANSPORT'], carrierBookingReference: 'BKG100' });
    expect(created).toEqual({
      subscriptionID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      callbackUrl: receiver.url,
      eventType: ['TRANSPORT'],
      carrierBookingReference: 'BKG100',
    });
    expect(JSON.stringify(created)).not.toContain(SECRET);
    const second = await create({ callbackUrl: `${receiver.url}?shipperRef=2`, bookingReference: 'BKG100', carrierVoyageNumber: '401E' });
    expect(second).toMatchObject({ carrierBookingReference: 'BKG100', exportVoyageNumber: '401E' });

    const list = await call('GET', `${S}?limit=1`, S);
    expect(list.status).toBe(200);
    expect((list.body as { subscriptionID: string }[]).map((s) => s.subscriptionID)).toEqual([created.subscriptionID]);
    expect(list.headers.get('current-page')).toBeTruthy();
    const page2 = await call('GET', `${S}?cursor=${list.headers.get('next-page')}`, S);
    expect((page2.body as { subscriptionID: string }[]).map((s) => s.subscriptionID)).toEqual([second.subscriptionID]);
    expect(page2.headers.get('prev-page') && page2.headers.get('first-page')).toBeTruthy();
    expect(page2.headers.get('next-page')).toBeNull();
    const sorted = await call('GET', `${S}?sort=callbackUrl:DESC`, S);
    expect((sorted.body as { subscriptionID: string }[])[0]?.subscriptionID).toBe(second.subscriptionID);

    const path = `${S}/${created.subscriptionID}`;
    expect((await call('GET', path, ONE)).body).toEqual(created);
    const replaced = await call('PUT', path, ONE, {
      subscriptionID: created.subscriptionID,
      callbackUrl: receiver.url,
      eventType: ['SHIPMENT'],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ subscriptionID: created.subscriptionID, callbackUrl: receiver.url, eventType: ['SHIPMENT'] });
    expect((await call('PUT', `${path}/secret`, `${ONE}/secret`, { secret: NEW_SECRET })).status).toBe(204);
    expect((await call('DELETE', path, ONE)).status).toBe(204);
    expect((await call('GET', path, ONE)).status).toBe(404);
    expect((await call('DELETE', path, ONE)).status).toBe(404);
    // DCSA subscriptions are not webhook subscriptions, and the other way round.
    expect(((await (await f.get('/v2/subscriptions', token)).json()) as unknown[]).length).toBe(0);
    expect((await f.get(`/v2/subscriptions/${second.subscriptionID}`, token)).status).toBe(404);
  });

  it.skipIf(!enabled)('refuses bad bodies naming the field, other clients, bad ids and methods, in the 2.2 error body', async () => {
    const refused = async (body: Record<string, unknown>, pattern: RegExp) => {
      const answer = await call('POST', S, S, body);
      expect(answer.status).toBe(400);
      expect(message(answer)).toMatch(pattern);
    };
    await refused({ callbackUrl: receiver.url }, /^secret is required/);
    await refused({ callbackUrl: receiver.url, secret: 'not base64!' }, /^secret must be Base64/);
    await refused({ callbackUrl: receiver.url, secret: Buffer.alloc(8).toString('base64') }, /^secret must decode to at least 32 bytes/);
    await refused({ secret: SECRET, callbackUrl: 'http://10.0.0.8/hook' }, /^callbackUrl /);
    await refused({ secret: SECRET, callbackUrl: receiver.url, colour: 'red' }, /^body: Field "colour" is not defined/);
    await refused(
      { secret: SECRET, callbackUrl: receiver.url, eventType: ['FOO'] },
      /^eventType must list values of SHIPMENT, TRANSPORT, EQUIPMENT/,
    );
    await refused({ secret: SECRET, callbackUrl: receiver.url, UNLocationCode: 'Rotterdam' }, /^UNLocationCode must be a UN\/LOCODE/);
    await refused({ secret: SECRET, callbackUrl: receiver.url, transportDocumentID: 'x' }, /not supported; use transportDocumentReference/);
    await refused({ secret: SECRET, callbackUrl: receiver.url, subscriptionID: crypto.randomUUID() }, /^subscriptionID is assigned/);
    await refused({ secret: SECRET, callbackUrl: 5 }, /^body field callbackUrl: .*String cannot represent/);

    const { subscriptionID } = await create({ callbackUrl: receiver.url });
    const path = `${S}/${subscriptionID}`;
    const put = async (body: Record<string, unknown>) => message(await call('PUT', path, ONE, body));
    expect(await put({ callbackUrl: receiver.url, secret: SECRET })).toMatch(/^secret may only be given when creating/);
    expect(await put({ callbackUrl: receiver.url, subscriptionID: crypto.randomUUID() })).toMatch(/differs from the one in the path/);
    expect(message(await call('PUT', `${path}/secret`, `${ONE}/secret`, { secret: SECRET, callbackUrl: 'x' }))).toMatch(
      /^body: Field "callbackUrl"/,
    );
    expect((await call('GET', `${S}/not-a-uuid`, ONE)).status).toBe(400);
    expect((await call('GET', `${S}?colour=red`, S)).status).toBe(400);

    const stranger = (await f.tokenFor('acme', { subscribe: true })).token;
    expect((await call('GET', path, ONE, undefined, stranger)).status).toBe(404);
    expect((await call('GET', S, S, undefined, null)).status).toBe(401);
    expect((await call('GET', S, S, undefined, (await f.tokenFor('acme')).token)).status).toBe(403);
    // 405: the error body of the resource's operations.
    const patch = await checkedAnswer(validator, 'GET', ONE, await f.send('PATCH', path, token));
    expect([patch.status, patch.headers.get('allow'), patch.problems]).toEqual([405, 'GET, PUT, DELETE', []]);
    const version = await checkedAnswer(validator, 'GET', S, await f.get(S, token, { 'API-Version': '3' }));
    expect([version.status, message(version)]).toEqual([400, expect.stringMatching(/^API-Version must be 2/)]);
  });

  it.skipIf(!enabled)('counts toward the per-client cap together with webhook subscriptions', async () => {
    const webhook = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, billOfLadingNumber: 'MAEUBL100' });
    expect(webhook.status).toBe(201);
    await create({ callbackUrl: receiver.url });
    await create({ callbackUrl: receiver.url });
    const over = await call('POST', S, S, { secret: SECRET, callbackUrl: receiver.url });
    expect([over.status, message(over)]).toEqual([
      400,
      expect.stringMatching(/at most 3 active subscriptions \(webhook and DCSA together\)/),
    ]);
    const webhookOver = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, billOfLadingNumber: 'MAEUBL100' });
    expect(webhookOver.status).toBe(400);
  });

  it.skipIf(!enabled)('checks the callback with HEAD, then notifies each ingest of matching visible events, signed, in order', async () => {
    const { subscriptionID } = await create({ callbackUrl: receiver.url, eventType: ['TRANSPORT', 'EQUIPMENT'] });
    const [shipmentEvent, transport, equipment, foreign] = [next(), next(), next(), next()];
    await ingest([
      rawShipmentEvent(n - 3, { eventID: shipmentEvent }),
      rawTransportEvent(n - 2, { eventID: transport }),
      rawEquipmentEvent(n - 1, { eventID: equipment }),
      rawTransportEvent(n, {
        eventID: foreign,
        documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG300' }],
      }),
    ]);
    await deliver();
    expect(receiver.received.map((r) => r.method)).toEqual(['HEAD', 'POST']);
    const [notification] = posts();
    expectNotification(notification as Received, subscriptionID);
    // Not the shipment event (filtered), not the other account's (tenant rule); UN/LOCODE in 2.2 spelling.
    expect((notification?.json as { eventID: string }[]).map((e) => e.eventID)).toEqual([transport, equipment]);
    expect(notification?.body).toContain('"UNLocationCode"');

    const later = next();
    await ingest([rawTransportEvent(n, { eventID: later, eventCreatedDateTime: '2024-03-09T08:00:00Z' })]);
    await deliver();
    expect(receiver.received.map((r) => r.method)).toEqual(['HEAD', 'POST', 'POST']);
    expect((posts()[1]?.json as { eventID: string }[]).map((e) => e.eventID)).toEqual([later]);
    // An ingest that matches nothing notifies nothing.
    await ingest([rawShipmentEvent(++n, { eventID: eventId(n) })]);
    await deliver();
    expect(posts()).toHaveLength(2);
  });

  it.skipIf(!enabled)(
    'sends nothing until the callback answers the HEAD check, retrying; a 410 stops the subscription until it is replaced',
    async () => {
      const { subscriptionID } = await create({ callbackUrl: receiver.url });
      receiver.answer = ({ method }) => (method === 'HEAD' ? 404 : 200);
      await ingest([rawTransportEvent(++n, { eventID: eventId(n) })]);
      await deliver();
      expect(posts()).toEqual([]);
      const [log] = (await f.app.deliveries.runOnce(), await listDeliveries(subscriptionID));
      expect(log).toMatchObject({
        status: 'PENDING',
        last_error: expect.stringMatching(/the HEAD check of the callback URL failed: HTTP 404/),
      });
      receiver.answer = () => 204;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await deliver();
      expect(posts()).toHaveLength(1);
      expect((await listDeliveries(subscriptionID))[0]).toMatchObject({ status: 'DELIVERED' });

      receiver.answer = () => 410;
      await ingest([rawTransportEvent(++n, { eventID: eventId(n) })]);
      await deliver();
      await ingest([rawTransportEvent(++n, { eventID: eventId(n) })]);
      await deliver();
      expect(posts()).toHaveLength(2);
      // Replaced with a new callback: active again, checked again.
      receiver.answer = () => 200;
      receiver.received.length = 0;
      const url = `${receiver.url}?v=2`;
      expect((await call('PUT', `${S}/${subscriptionID}`, ONE, { callbackUrl: url })).status).toBe(200);
      await ingest([rawTransportEvent(++n, { eventID: eventId(n) })]);
      await deliver();
      expect(receiver.received.map((r) => [r.method, r.url])).toEqual([
        ['HEAD', '/hook?v=2'],
        ['POST', '/hook?v=2'],
      ]);
    },
  );

  it.skipIf(!enabled)('signs with the new secret after a secret change, and sends nothing once deleted', async () => {
    const { subscriptionID } = await create({ callbackUrl: receiver.url });
    await ingest([rawTransportEvent(++n, { eventID: eventId(n) })]);
    await deliver();
    expectNotification(posts()[0] as Received, subscriptionID);
    expect((await call('PUT', `${S}/${subscriptionID}/secret`, `${ONE}/secret`, { secret: NEW_SECRET })).status).toBe(204);
    await ingest([rawTransportEvent(++n, { eventID: eventId(n) })]);
    await deliver();
    expectNotification(posts()[1] as Received, subscriptionID, NEW_SECRET);
    await ingest([rawTransportEvent(++n, { eventID: eventId(n) })]);
    expect((await call('DELETE', `${S}/${subscriptionID}`, ONE)).status).toBe(204);
    await deliver();
    expect(posts()).toHaveLength(2);
  });

  it.skipIf(!enabled)(
    "notifies the events stored before their shipment (or its bill of lading) once it comes, and filters by the shipment's references",
    async () => {
      const { subscriptionID } = await create({ callbackUrl: receiver.url, carrierBookingReference: 'BKG700' });
      const early = eventId(++n);
      await ingest([rawShipmentEvent(n, { eventID: early, documentID: 'BKG700' })]);
      await deliver();
      expect(posts()).toEqual([]);
      await ingest([], [rawShipment({ carrierBookingReference: 'BKG700', billOfLadingNumber: 'MAEUBL700', containers: [] })]);
      await deliver();
      expect((posts()[0]?.json as { eventID: string }[]).map((e) => e.eventID)).toEqual([early]);
      expectNotification(posts()[0] as Received, subscriptionID);
      // A bill of lading given to the shipment later links the events stored under it: they are notified then.
      const issued = eventId(++n);
      await ingest([
        rawShipmentEvent(n, { eventID: issued, shipmentEventTypeCode: 'ISSU', documentTypeCode: 'TRD', documentID: 'MAEUBL701' }),
      ]);
      await deliver();
      expect(posts()).toHaveLength(1);
      await ingest([], [rawShipment({ carrierBookingReference: 'BKG700', billOfLadingNumber: 'MAEUBL701', containers: [] })]);
      await deliver();
      expect(posts().map((r) => (r.json as { eventID: string }[]).map((e) => e.eventID))).toEqual([[early], [issued]]);
    },
  );

  async function listDeliveries(subscriptionID: string) {
    return f.t.database.db
      .selectFrom('webhook_delivery')
      .select(['status', 'last_error', 'attempts'])
      .where('subscription_id', '=', subscriptionID)
      .orderBy('id')
      .execute();
  }
});
