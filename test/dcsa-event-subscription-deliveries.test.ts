import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listDeliveries } from '../src/store/push/delivery-queue.js';
import { createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { CARRIER, eventId, rawShipment, rawTransportEvent } from './support/ingest-fixtures.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * The delivery log of a DCSA event subscription (docs/dcsa-events.md, Notifications):
 * GET /v2/event-subscriptions/{id}/deliveries shows its owner the notifications the webhook outbox sent, with the
 * statuses, attempts and query parameters of GET /v2/subscriptions/{id}/deliveries; another client's, an unknown
 * and a webhook subscription's id are the same 404, and each deliveries route shows only its own kind.
 */
// Retries a minute apart: a failed attempt stays PENDING with its next try in the log while the test reads it.
const SLOW_RETRY = { baseDelayMs: 60_000, maxDelayMs: 120_000, retryPeriodMs: 3_600_000 };
const SECRET = Buffer.alloc(32, 7).toString('base64');
const S = '/v2/event-subscriptions';

interface Delivery {
  deliveryID: string;
  status: string;
  attempts: number;
  lastStatus?: number;
  lastError?: string;
  nextAttemptDateTime?: string;
  createdDateTime: string;
  deliveredDateTime?: string;
}

describe.each(dialects)('DCSA event subscription deliveries on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  let n = 500;
  // The service's clock runs ahead of the real one by this much: moved on by the test to make a retry due.
  let ahead = 0;

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name, { config: testConfig(), webhooks: { retry: SLOW_RETRY }, now: () => new Date(Date.now() + ahead) });
    await f.ingest({ carrierCode: CARRIER, shipments: [rawShipment()] });
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
    await sql`update webhook_subscription set status = 'DELETED'`.execute(f.t.database.db);
    await sql`update webhook_delivery set status = 'FAILED' where status = 'PENDING'`.execute(f.t.database.db);
  });

  const create = async () => {
    const created = await f.send('POST', S, token, { callbackUrl: receiver.url, secret: SECRET, eventType: ['TRANSPORT'] });
    expect(created.status).toBe(201);
    return ((await created.json()) as { subscriptionID: string }).subscriptionID;
  };
  const notify = async () => {
    await f.ingest({ carrierCode: CARRIER, events: [rawTransportEvent(++n, { eventID: eventId(n) })] });
    // Retries are a minute apart, so the rounds end once every due notification was tried.
    for (let i = 0; i < 10; i++) if ((await f.app.deliveries.runOnce()).claimed === 0) break;
  };
  const deliveries = async (id: string, query = '', bearer = token) => {
    const answer = await f.get(`${S}/${id}/deliveries${query}`, bearer);
    expect(answer.headers.get('api-version')).toBe('2.2.0');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    return { status: answer.status, body: (await answer.json()) as any };
  };

  it.skipIf(!enabled)('shows its owner each notification: delivered, failing with its next try, and given up', async () => {
    const id = await create();
    await notify();
    const posts = () => receiver.received.filter((r) => r.method === 'POST');
    expect(posts()).toHaveLength(1);
    const delivered = await deliveries(id);
    expect(delivered.status).toBe(200);
    expect(delivered.body).toEqual([
      {
        deliveryID: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'DELIVERED',
        attempts: 1,
        lastStatus: 200,
        createdDateTime: expect.any(String),
        deliveredDateTime: expect.any(String),
      },
    ]);
    // The same entry the operator's `tracking delivery list` shows.
    const [operatorView] = await listDeliveries(f.t.database.db, { subscriptionId: id, limit: 10 });
    expect(operatorView).toMatchObject({ deliveryID: delivered.body[0].deliveryID, triggerType: 'DCSA_NOTIFICATION', status: 'DELIVERED' });

    receiver.answer = ({ method }) => (method === 'HEAD' ? 200 : 503);
    await notify();
    expect(posts()).toHaveLength(2);
    const failing = await deliveries(id);
    expect(failing.body).toHaveLength(2);
    const [newest] = failing.body as Delivery[];
    expect(newest).toMatchObject({ status: 'PENDING', attempts: 1, lastStatus: 503 });
    expect(newest?.deliveredDateTime).toBeUndefined();

    expect(Date.parse(newest?.nextAttemptDateTime ?? '')).toBeGreaterThan(Date.now() + 30_000);

    // A later notification waits behind it (in order per subscription); once its retry is due, a 410 gives it up.
    await notify();
    expect(posts()).toHaveLength(2);
    receiver.answer = ({ method }) => (method === 'HEAD' ? 200 : 410);
    ahead += 3 * 60_000;
    for (let i = 0; i < 10; i++) if ((await f.app.deliveries.runOnce()).claimed === 0) break;
    expect(posts()).toHaveLength(3);
    const all = (await deliveries(id)).body as Delivery[];
    expect(all.map((d) => d.status)).toEqual(['FAILED', 'FAILED', 'DELIVERED']);
    expect(all[1]).toMatchObject({ deliveryID: newest?.deliveryID, attempts: 2, lastStatus: 410 });
    expect(all[1]?.nextAttemptDateTime).toBeUndefined();

    // The query parameters of the webhook delivery log: status and limit, newest first.
    expect(((await deliveries(id, '?status=FAILED')).body as Delivery[]).map((d) => d.deliveryID)).toEqual([
      all[0]?.deliveryID,
      all[1]?.deliveryID,
    ]);
    expect(((await deliveries(id, '?status=DELIVERED&limit=5')).body as Delivery[]).map((d) => d.deliveryID)).toEqual([all[2]?.deliveryID]);
    expect((await deliveries(id, '?status=PENDING')).body).toEqual([]);
    expect(((await deliveries(id, '?limit=1')).body as Delivery[]).map((d) => d.deliveryID)).toEqual([all[0]?.deliveryID]);
  });

  it.skipIf(!enabled)(
    'answers 404 alike for another client, an unknown id and a webhook subscription; each route keeps its kind',
    async () => {
      const id = await create();
      await notify();
      expect((await deliveries(id)).body).toHaveLength(1);
      const notFound = (answer: { status: number; body: any }) => [answer.status, answer.body.errors];
      const expected = [404, [{ reason: 'notFound', message: expect.any(String) }]];

      const stranger = (await f.tokenFor('acme', { subscribe: true })).token;
      const foreign = await deliveries(id, '', stranger);
      const unknown = await deliveries(crypto.randomUUID());
      expect(notFound(foreign)).toEqual(expected);
      expect(notFound(unknown)).toEqual(notFound(foreign));

      const webhook = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, billOfLadingNumber: 'MAEUBL100' });
      expect(webhook.status).toBe(201);
      const webhookID = ((await webhook.json()) as { subscriptionID: string }).subscriptionID;
      expect((await f.get(`/v2/subscriptions/${webhookID}/deliveries`, token)).status).toBe(200);
      expect(notFound(await deliveries(webhookID))).toEqual(notFound(unknown));
      // The other way round: the webhook route does not show a DCSA subscription's notifications.
      expect((await f.get(`/v2/subscriptions/${id}/deliveries`, token)).status).toBe(404);
    },
  );

  it.skipIf(!enabled)('refuses bad parameters, ids and methods in the 2.2 error body', async () => {
    const id = await create();
    const refused = async (path: string, pattern: RegExp) => {
      const answer = await f.get(path, token);
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { errors: { message: string }[] };
      expect(body.errors.map((e) => e.message).join(' ')).toMatch(pattern);
    };
    await refused(`${S}/${id}/deliveries?status=LOST`, /^status must be one of PENDING, DELIVERED, FAILED/);
    await refused(`${S}/${id}/deliveries?limit=0`, /limit must be 1 to 500/);
    await refused(`${S}/${id}/deliveries?limit=x`, /^limit must be an integer from 1 to 500/);
    await refused(`${S}/${id}/deliveries?page=2`, /^Unknown query parameter page; allowed: status, limit/);
    await refused(`${S}/not-a-uuid/deliveries`, /^subscriptionID in the path must be a UUID/);
    const post = await f.send('POST', `${S}/${id}/deliveries`, token, {});
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET']);
    expect((await f.get(`${S}/${id}/deliveries`)).status).toBe(401);
    expect((await f.get(`${S}/${id}/deliveries`, (await f.tokenFor('acme')).token)).status).toBe(403);
  });

  it.skipIf(!enabled)('GraphQL: eventSubscriptionDeliveries, and each delivery a Node only its owner fetches', async () => {
    const id = await create();
    await notify();
    const list = await f.graphql(
      'query ($id: String!) { eventSubscriptionDeliveries(subscriptionID: $id) { id deliveryID status attempts } }',
      { id },
      token,
    );
    const { data } = (await list.json()) as { data: { eventSubscriptionDeliveries: { id: string; deliveryID: string }[] } };
    const [delivery] = data.eventSubscriptionDeliveries;
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    const node = async (bearer: string) =>
      (
        (await (
          await f.graphql(
            'query ($id: ID!) { node(id: $id) { __typename ... on EventSubscriptionDelivery { deliveryID } } }',
            { id: delivery?.id },
            bearer,
          )
        ).json()) as any
      ).data.node;
    expect(await node(token)).toEqual({ __typename: 'EventSubscriptionDelivery', deliveryID: delivery?.deliveryID });
    expect(await node((await f.tokenFor('acme', { subscribe: true })).token)).toBeNull();
    // The webhook field does not answer for a DCSA subscription.
    const webhook = await f.graphql('query ($id: String!) { webhookDeliveries(subscriptionID: $id) { deliveryID } }', { id }, token);
    expect(((await webhook.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe('NOT_FOUND');
    // The connection answers the same log, page by page; the webhook connection not at all.
    const connection = await f.graphql(
      'query ($id: String!) { eventSubscriptionDeliveriesConnection(subscriptionID: $id, first: 1) { edges { cursor node { id deliveryID } } pageInfo { hasNextPage endCursor } } }',
      { id },
      token,
    );
    const page = ((await connection.json()) as any).data.eventSubscriptionDeliveriesConnection;
    expect(page.edges.map((e: { node: unknown }) => e.node)).toEqual([{ id: delivery?.id, deliveryID: delivery?.deliveryID }]);
    expect(page.pageInfo).toEqual({ hasNextPage: data.eventSubscriptionDeliveries.length > 1, endCursor: page.edges[0].cursor });
    const asWebhook = await f.graphql(
      'query ($id: String!) { webhookDeliveriesConnection(subscriptionID: $id) { edges { cursor } } }',
      { id },
      token,
    );
    expect(((await asWebhook.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe('NOT_FOUND');
  });
});
