import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_SCOPE, SUBSCRIBE_SCOPE, TRACK_SCOPE } from '../src/auth/scopes.js';
import { dialects } from './support/databases.js';
import { enqueuePushTriggers } from '../src/store/push/push-outbox.js';
import { createSandboxApp, SANDBOX_SEEDED_AT, type SandboxApp } from './support/sandbox-app.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * One pagination shape (docs/graphql.md, Pagination: connections): every list that pages is a Relay connection.
 * Paged to its end, forward and (where the order allows) backward, each yields every item once, in the order of
 * the list it replaces; cursors carry their query; the filters are enums; the earlier page shapes are deprecated
 * with their replacement named, and keep working.
 */
interface Page<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount?: number;
}

describe.each(dialects)('Relay connections on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  let token: string;
  let receiver: WebhookReceiver;

  async function graphql(query: string, variables: Record<string, unknown> = {}) {
    const response = await f.graphql(query, variables, token);
    return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
  }

  /** Every node of a connection field, paged forward (`first`, `after`) or backward (`last`, `before`) to its end. */
  async function pageThrough<T>(field: string, selection: string, size: number, backward = false, args = '') {
    const nodes: T[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 200; pages++) {
      const paging = backward ? `last: ${size}, before: $cursor` : `first: ${size}, after: $cursor`;
      const { body } = await graphql(
        `query($cursor: String) { page: ${field}(${paging}${args}) {
          edges { cursor node { ${selection} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
        { cursor },
      );
      expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
      const page = body.data.page as Page<T>;
      expect(page.edges.length).toBeLessThanOrEqual(size);
      if (backward) nodes.unshift(...page.edges.map((e) => e.node));
      else nodes.push(...page.edges.map((e) => e.node));
      const more = backward ? page.pageInfo.hasPreviousPage : page.pageInfo.hasNextPage;
      if (!more) return nodes;
      cursor = backward ? page.pageInfo.startCursor : page.pageInfo.endCursor;
    }
    throw new Error(`${field} never ended`);
  }

  beforeAll(async () => {
    if (!enabled) return;
    f = await createSandboxApp(name);
    receiver = await WebhookReceiver.start();
    await f.app.clients.setScope(f.demo.client_id, SUBSCRIBE_SCOPE, true);
    await f.app.clients.setScope(f.demo.client_id, TRACK_SCOPE, true);
    token = (await f.app.tokens.issueToken({ clientId: f.demo.client_id, scope: `${READ_SCOPE} ${SUBSCRIBE_SCOPE} ${TRACK_SCOPE}` }))
      .access_token;
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  it.skipIf(!enabled)('eventsConnection: forward and backward to the end, every event once, in the order of events', async () => {
    const { body } = await graphql('{ events(limit: 1000) { events { eventID } nextPage } }');
    const all = (body.data.events.events as { eventID: string }[]).map((e) => e.eventID);
    expect(body.data.events.nextPage).toBeNull();
    expect(all.length).toBeGreaterThan(10);

    const forward = await pageThrough<{ eventID: string }>('eventsConnection', 'eventID', 7);
    expect(forward.map((e) => e.eventID)).toEqual(all);
    const backward = await pageThrough<{ eventID: string }>('eventsConnection', 'eventID', 5, true);
    expect(backward.map((e) => e.eventID)).toEqual(all);
  });

  it.skipIf(!enabled)('eventsConnection: filters are enums, and a cursor carries its filters', async () => {
    const filtered = await pageThrough<{ eventType: string }>('eventsConnection', 'eventType', 4, false, ', eventType: [TRANSPORT]');
    expect(filtered.length).toBeGreaterThan(0);
    expect(new Set(filtered.map((e) => e.eventType))).toEqual(new Set(['TRANSPORT']));

    // Refused when the document is validated: nothing runs.
    const typo = await graphql('{ eventsConnection(eventType: [TRANSPROT]) { edges { cursor } } }');
    expect(typo.body.data).toBeUndefined();
    expect(typo.body.errors?.[0]?.message).toMatch(/TRANSPROT/);

    const first = await graphql('{ eventsConnection(first: 2, eventType: [TRANSPORT]) { pageInfo { endCursor } } }');
    const cursor = first.body.data.eventsConnection.pageInfo.endCursor as string;
    const changed = await graphql(
      'query($c: String) { eventsConnection(first: 2, after: $c, eventType: [SHIPMENT]) { edges { cursor } } }',
      {
        c: cursor,
      },
    );
    expect(changed.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(changed.body.errors?.[0]?.message).toMatch(/^eventType differs from the query the cursor carries/);
    const forged = await graphql('{ eventsConnection(first: 2, after: "bm90LWEtY3Vyc29y") { edges { cursor } } }');
    expect(forged.body.errors?.[0]?.message).toMatch(/^after is not a page cursor/);
  });

  it.skipIf(!enabled)('shipmentsConnection and accountChangesConnection list every shipment once, in one order', async () => {
    const { body } = await graphql('{ shipments(first: 500) { nodes { carrierBookingReference } } }');
    const all = (body.data.shipments.nodes as { carrierBookingReference: string }[]).map((s) => s.carrierBookingReference);
    expect(all.length).toBeGreaterThan(4);
    const shipments = await pageThrough<{ carrierBookingReference: string }>('shipmentsConnection', 'carrierBookingReference', 2);
    expect(shipments.map((s) => s.carrierBookingReference)).toEqual(all);
    // The edge carries what the deprecated field's nodes did beside the shipment.
    const old = await graphql('{ shipments(first: 1) { nodes { version updatedDateTime } } }');
    const edge = await graphql('{ shipmentsConnection(first: 1) { edges { version updatedDateTime } } }');
    expect(edge.body.data.shipmentsConnection.edges[0]).toEqual(old.body.data.shipments.nodes[0]);
    const changes = await pageThrough<{ carrierBookingReference: string }>('accountChangesConnection', 'carrierBookingReference', 3);
    expect(changes.map((s) => s.carrierBookingReference)).toEqual(all);

    // Caught up: an empty page still says where to poll from.
    let end: string | null = null;
    for (let more = true; more;) {
      const listing = await graphql(
        'query($c: String) { accountChangesConnection(first: 50, after: $c) { pageInfo { hasNextPage endCursor } } }',
        {
          c: end,
        },
      );
      expect(listing.body.errors, JSON.stringify(listing.body.errors)).toBeUndefined();
      ({ hasNextPage: more, endCursor: end } = listing.body.data.accountChangesConnection.pageInfo);
    }
    const poll = await graphql(
      'query($c: String) { accountChangesConnection(after: $c) { edges { cursor } pageInfo { hasNextPage endCursor } } }',
      {
        c: end,
      },
    );
    expect(poll.body.data.accountChangesConnection).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: expect.any(String) } });
  });

  it.skipIf(!enabled)('eventSubscriptionsConnection: both ways to the end, with totalCount; its filters are enums', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { body } = await graphql(
        `
          mutation ($r: EventSubscriptionRequest!) {
            createEventSubscription(request: $r) {
              subscriptionID
              eventType
            }
          }
        `,
        { r: { callbackUrl: `${receiver.url}/s${i}`, secret: Buffer.alloc(32, i + 1).toString('base64'), eventType: ['TRANSPORT'] } },
      );
      expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
      expect(body.data.createEventSubscription.eventType).toEqual(['TRANSPORT']);
      created.push(body.data.createEventSubscription.subscriptionID);
    }
    const listed = await graphql('{ eventSubscriptions(limit: 1000) { subscriptions { subscriptionID } } }');
    const all = (listed.body.data.eventSubscriptions.subscriptions as { subscriptionID: string }[]).map((x) => x.subscriptionID);
    expect([...all].sort()).toEqual([...created].sort());
    const forward = await pageThrough<{ subscriptionID: string }>('eventSubscriptionsConnection', 'subscriptionID', 2);
    expect(forward.map((s) => s.subscriptionID)).toEqual(all);
    const backward = await pageThrough<{ subscriptionID: string }>('eventSubscriptionsConnection', 'subscriptionID', 2, true);
    expect(backward.map((s) => s.subscriptionID)).toEqual(all);
    const counted = await graphql('{ eventSubscriptionsConnection(first: 1) { totalCount } }');
    expect(counted.body.data.eventSubscriptionsConnection.totalCount).toBe(5);

    const typo = await graphql(
      `mutation { createEventSubscription(request: { callbackUrl: "${receiver.url}/x", eventType: [TRANSPROT] }) { subscriptionID } }`,
    );
    expect(typo.body.data).toBeUndefined();
    expect(typo.body.errors?.[0]?.message).toMatch(/TRANSPROT/);
    // A code of the enum that DCSA 2.2 does not publish: refused by the filter's check, naming the field.
    const notPublished = await graphql(
      `
        mutation ($r: EventSubscriptionRequest!) {
          createEventSubscription(request: $r) {
            subscriptionID
          }
        }
      `,
      { r: { callbackUrl: `${receiver.url}/y`, secret: Buffer.alloc(32, 9).toString('base64'), shipmentEventTypeCode: ['PENC'] } },
    );
    expect(notPublished.body.errors?.[0]?.extensions?.details?.[0]).toMatchObject({ property: 'shipmentEventTypeCode' });
  });

  it.skipIf(!enabled)('trackingRequestsConnection: every request once, oldest first', async () => {
    await f.app.services.carriers.addCarrier({ carrierCode: 'MAEU', eventsUrl: `${receiver.url}/events` });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { body } = await graphql(
        `
          mutation ($r: TrackingRequestInput!) {
            createTrackingRequest(request: $r) {
              trackingRequest {
                trackingRequestID
              }
            }
          }
        `,
        { r: { transportDocumentReference: `MAEUCONN${i}`, carrierCode: 'MAEU' } },
      );
      expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
      made.push(body.data.createTrackingRequest.trackingRequest.trackingRequestID);
    }
    const { body } = await graphql('{ trackingRequests(limit: 500) { trackingRequests { trackingRequestID } } }');
    const all = (body.data.trackingRequests.trackingRequests as { trackingRequestID: string }[]).map((r) => r.trackingRequestID);
    expect(all).toEqual(expect.arrayContaining(made));
    const paged = await pageThrough<{ trackingRequestID: string }>('trackingRequestsConnection', 'trackingRequestID', 2);
    expect(paged.map((r) => r.trackingRequestID)).toEqual(all);
  });

  it.skipIf(!enabled)(
    'webhookSubscriptionsConnection and webhookDeliveriesConnection: every item once, in the order of the lists',
    async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { body } = await graphql(
          'mutation ($r: WebhookSubscriptionRequest!) { createWebhookSubscription(request: $r) { subscription { subscriptionID } } }',
          { r: { billOfLadingNumber: 'MAEU262150002', callbackUrl: `${receiver.url}/w${i}` } },
        );
        expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
        made.push(body.data.createWebhookSubscription.subscription.subscriptionID);
      }
      const listed = await graphql('{ webhookSubscriptions { subscriptionID } }');
      const all = (listed.body.data.webhookSubscriptions as { subscriptionID: string }[]).map((x) => x.subscriptionID);
      expect(all).toEqual(expect.arrayContaining(made));
      const paged = await pageThrough<{ subscriptionID: string }>('webhookSubscriptionsConnection', 'subscriptionID', 2);
      expect(paged.map((x) => x.subscriptionID)).toEqual(all);

      // Five changes of the shipment, committed as an ingest commits them: a delivery each, per subscription.
      const shipment = await f.t.database.db
        .selectFrom('shipment')
        .select('id')
        .where('bill_of_lading_number', '=', 'MAEU262150002')
        .executeTakeFirstOrThrow();
      const changes = [1, 2, 3, 4, 5].map((n) => ({
        triggerType: 'EVENT_TRIGGER' as const,
        eventID: `c0de0000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        exceptionID: null,
      }));
      await enqueuePushTriggers(f.t.database.db, new Map([[shipment.id, changes]]), SANDBOX_SEEDED_AT);
      const subscription = made[0]!;
      const log = await graphql('query ($s: String!) { webhookDeliveries(subscriptionID: $s) { deliveryID } }', { s: subscription });
      const deliveries = (log.body.data.webhookDeliveries as { deliveryID: string }[]).map((d) => d.deliveryID);
      expect(deliveries).toHaveLength(5);
      const byPage = await pageThrough<{ deliveryID: string }>(
        'webhookDeliveriesConnection',
        'deliveryID',
        2,
        false,
        `, subscriptionID: "${subscription}"`,
      );
      expect(byPage.map((d) => d.deliveryID)).toEqual(deliveries);
      const pending = await pageThrough<{ status: string }>(
        'webhookDeliveriesConnection',
        'status',
        3,
        false,
        `, subscriptionID: "${subscription}", status: PENDING`,
      );
      expect(pending).toHaveLength(5);
      expect(pending.every((d) => d.status === 'PENDING')).toBe(true);

      // Another client's subscription is as unknown as a missing one; a forged cursor is a clear refusal.
      const stranger = await f.tokenFor('acct-a', { subscribe: true });
      const theirs = await f.graphql(
        'query ($s: String!) { webhookDeliveriesConnection(subscriptionID: $s) { edges { cursor } } }',
        { s: subscription },
        stranger.token,
      );
      expect(((await theirs.json()) as { errors?: any[] }).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      for (const field of [
        `webhookDeliveriesConnection(subscriptionID: "${subscription}", after: "bm90LWEtY3Vyc29y")`,
        'webhookSubscriptionsConnection(after: "bm90LWEtY3Vyc29y")',
      ]) {
        const forged = await graphql(`{ ${field} { edges { cursor } } }`);
        expect(forged.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
        expect(forged.body.errors?.[0]?.message).toMatch(/after is not a cursor/);
      }
    },
  );

  it.skipIf(!enabled)('the earlier page shapes are deprecated, each naming a replacement that exists', async () => {
    const { body } = await graphql(
      '{ __schema { queryType { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } } }',
    );
    const fields = body.data.__schema.queryType.fields as { name: string; isDeprecated: boolean; deprecationReason: string | null }[];
    const deprecated = Object.fromEntries(fields.filter((x) => x.isDeprecated).map((x) => [x.name, x.deprecationReason]));
    expect(deprecated).toEqual({
      shipments: 'Use shipmentsConnection',
      accountChanges: 'Use accountChangesConnection',
      events: 'Use eventsConnection',
      eventSubscriptions: 'Use eventSubscriptionsConnection',
      trackingRequests: 'Use trackingRequestsConnection',
      webhookSubscriptions: 'Use webhookSubscriptionsConnection',
      webhookDeliveries: 'Use webhookDeliveriesConnection',
      eventSubscriptionDeliveries: 'Use eventSubscriptionDeliveriesConnection',
    });
    const names = new Set(fields.map((x) => x.name));
    for (const reason of Object.values(deprecated)) expect(names.has(reason!.replace('Use ', ''))).toBe(true);
  });
});
