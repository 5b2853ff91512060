import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * Global object identification (docs/graphql.md, Object identification): every cached object has an opaque `id`
 * built from its own identifiers, the same on both stores and after a restart, and node(id:)/nodes(ids:) answer
 * under the rule of the object's direct lookup. Another tenant's ID, a forged one, an unknown one and a deleted
 * subscription get the same answer (null) at the same cost, so an ID leaks nothing.
 */
const OWNER = 'acct-node-owner';
const OTHER = 'acct-node-other';
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const arrival = (n: number, classifier: 'PLN' | 'EST' | 'ACT', at: string) => ({
  eventID: `0de00000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  eventType: 'TRANSPORT',
  eventClassifierCode: classifier,
  eventDateTime: at,
  eventCreatedDateTime: `2026-10-0${n}T00:00:00Z`,
  transportEventTypeCode: 'ARRI',
  documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'NODE:1' }],
  transportCall: {
    transportCallID: 'TC-NODE',
    modeOfTransport: 'VESSEL',
    UNLocationCode: 'NLRTM',
    vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
  },
});

const BUNDLE = {
  carrierCode: 'EGLV',
  shipments: [
    {
      // A booking with a colon: the key of the ID still splits right.
      carrierBookingReference: 'NODE:1',
      billOfLadingNumber: 'NODEBL1',
      carrierCode: 'EGLV',
      portOfLoading: { unLocationCode: 'CNSHA' },
      portOfDischarge: { unLocationCode: 'NLRTM' },
      containers: [{ containerNumber: 'MSKU1234565', isoType: '45G1' }],
      accounts: [OWNER],
    },
    {
      carrierBookingReference: 'NODE-2',
      carrierCode: 'EGLV',
      portOfLoading: { unLocationCode: 'CNSHA' },
      portOfDischarge: { unLocationCode: 'NLRTM' },
      accounts: [OTHER],
    },
  ],
  // The estimate 40 h after the plan raises ETA_DELAY: an exception to identify.
  events: [arrival(1, 'PLN', '2026-10-20T06:00:00Z'), arrival(2, 'EST', '2026-10-21T22:00:00Z')],
};

const SHIPMENT_FIELDS = `
  id carrierBookingReference
  containers { id containerNumber }
  exceptions { id exceptionID exceptionType }
  transportEvents { id eventID }
`;

describe.each(dialects)('global IDs and node(id:) on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let f: TestApp;
  let owner: string;
  let other: string;
  let ids: { shipment: string; container: string; exception: string; event: string; subscription: string; delivery: string };

  async function query(token: string, document: string, variables: Record<string, unknown> = {}) {
    const response = await f.graphql(document, variables, token);
    return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] }, response };
  }

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    f = await createTestApp(name, { testDatabase: t });
    owner = (await f.tokenFor(OWNER, { subscribe: true })).token;
    other = (await f.tokenFor(OTHER, { subscribe: true })).token;
    await f.ingest(BUNDLE);
    const created = await query(
      owner,
      `mutation { createWebhookSubscription(request: { billOfLadingNumber: "NODEBL1", callbackUrl: "http://127.0.0.1:9/hook" }) {
        subscription { id subscriptionID } } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const subscription = created.body.data.createWebhookSubscription.subscription;
    // A change after the subscription: one delivery in its log.
    await f.ingest({ carrierCode: 'EGLV', events: [arrival(3, 'ACT', '2026-10-22T06:00:00Z')] });
    const lookedUp = await query(
      owner,
      `query($s: String!) {
        shipment(carrierCode: "EGLV", carrierBookingReference: "NODE:1") { shipmentTracking { ${SHIPMENT_FIELDS} } }
        webhookDeliveries(subscriptionID: $s) { id deliveryID }
      }`,
      { s: subscription.subscriptionID },
    );
    expect(lookedUp.body.errors).toBeUndefined();
    const tracking = lookedUp.body.data.shipment.shipmentTracking;
    ids = {
      shipment: tracking.id,
      container: tracking.containers[0].id,
      exception: tracking.exceptions[0].id,
      event: tracking.transportEvents[0].id,
      subscription: subscription.id,
      delivery: lookedUp.body.data.webhookDeliveries[0].id,
    };
  });
  afterAll(async () => {
    await f?.destroy();
    await t?.destroy();
  });

  it.skipIf(!enabled)('are built from the objects own identifiers: the same on every store', async () => {
    const { body } = await query(
      owner,
      `{ shipment(carrierCode: "EGLV", carrierBookingReference: "NODE:1") { shipmentTracking { ${SHIPMENT_FIELDS} } } }`,
    );
    const tracking = body.data.shipment.shipmentTracking;
    // Literal values: both stores must give exactly these.
    expect(tracking.id).toBe(base64('ShipmentTracking:EGLV:NODE:1'));
    expect(tracking.containers[0].id).toBe(base64('Container:EGLV:NODE:1:MSKU1234565'));
    expect(tracking.exceptions[0].id).toBe(base64(`Exception:${tracking.exceptions[0].exceptionID}`));
    expect(tracking.transportEvents[0].id).toBe(base64(`TransportEvent:${tracking.transportEvents[0].eventID}`));
  });

  it.skipIf(!enabled)('survive a restart: another app on the same database gives the same IDs', async () => {
    const again = await createTestApp(name, { testDatabase: t });
    try {
      const token = (await again.tokenFor(OWNER)).token;
      const response = await again.graphql(
        `{ shipment(carrierCode: "EGLV", carrierBookingReference: "NODE:1") { shipmentTracking { ${SHIPMENT_FIELDS} } } }`,
        {},
        token,
      );
      const tracking = ((await response.json()) as any).data.shipment.shipmentTracking;
      expect([tracking.id, tracking.containers[0].id, tracking.exceptions[0].id, tracking.transportEvents[0].id]).toEqual([
        ids.shipment,
        ids.container,
        ids.exception,
        ids.event,
      ]);
    } finally {
      await again.app.close();
    }
  });

  it.skipIf(!enabled)('node(id:) fetches each kind of object again, as its direct lookup shows it', async () => {
    const { body } = await query(
      owner,
      `query($ids: [ID!]!) { nodes(ids: $ids) {
        __typename id
        ... on ShipmentTracking { carrierBookingReference }
        ... on Container { containerNumber }
        ... on Exception { exceptionType }
        ... on TransportEvent { transportEventTypeCode }
        ... on WebhookSubscription { billOfLadingNumber }
        ... on WebhookDelivery { triggerType }
      } }`,
      { ids: [ids.shipment, ids.container, ids.exception, ids.event, ids.subscription, ids.delivery] },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes).toEqual([
      { __typename: 'ShipmentTracking', id: ids.shipment, carrierBookingReference: 'NODE:1' },
      { __typename: 'Container', id: ids.container, containerNumber: 'MSKU1234565' },
      { __typename: 'Exception', id: ids.exception, exceptionType: 'ETA_DELAY' },
      { __typename: 'TransportEvent', id: ids.event, transportEventTypeCode: 'ARRI' },
      { __typename: 'WebhookSubscription', id: ids.subscription, billOfLadingNumber: 'NODEBL1' },
      { __typename: 'WebhookDelivery', id: ids.delivery, triggerType: expect.any(String) },
    ]);
  });

  it.skipIf(!enabled)("another tenant's ID, a forged one and an unknown one: the same null at the same cost", async () => {
    const forged = [
      'not base64 at all!',
      base64('Nope:1'),
      base64('ShipmentTracking:EGLV:NODE-404'),
      base64('ShipmentTracking:EGLV'),
      base64('Container:EGLV:NODE-2:MSKU1234565'),
      base64('Exception:00000000-0000-4000-8000-000000000000'),
      base64('__Schema:x'),
      // A non-canonical spelling of a real ID (no padding): one object answers to one ID.
      ids.shipment.replace(/=+$/, ''),
      'x'.repeat(199),
    ];
    const answers = [];
    for (const id of [...Object.values(ids), ...forged]) {
      const token = forged.includes(id) ? owner : other;
      const first = await query(token, 'query($id: ID!) { node(id: $id) { id } }', { id });
      const second = await query(token, 'query($id: ID!) { node(id: $id) { id } }', { id });
      const remaining = (r: Response) => Number(r.headers.get('ratelimit-remaining'));
      // extensions.cost carries the quota left and its reset, which move with every request: compare what the
      // document cost and what it counted, and the rest of the answer whole.
      const { extensions, ...body } = first.body as typeof first.body & {
        extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: { cost?: number } } };
      };
      answers.push({
        status: first.status,
        body,
        documentCost: extensions?.cost?.requestedQueryCost,
        counted: extensions?.cost?.throttleStatus?.cost,
        // What the second request cost: the remaining quota moves by the same step for every ID.
        cost: remaining(first.response) - remaining(second.response),
      });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 200, body: { data: { node: null } }, counted: 1, cost: 1 });
    expect(answers[0]?.documentCost).toBeGreaterThan(0);
  });

  it.skipIf(!enabled)('a deleted subscription is as unknown as any, and its deliveries with it', async () => {
    const created = await query(
      owner,
      `mutation { createWebhookSubscription(request: { billOfLadingNumber: "NODEBL1", callbackUrl: "http://127.0.0.1:9/gone" }) {
        subscription { id subscriptionID } } }`,
    );
    const { id, subscriptionID } = created.body.data.createWebhookSubscription.subscription;
    expect((await query(owner, 'query($id: ID!) { node(id: $id) { id } }', { id })).body.data.node).toEqual({ id });
    await query(owner, 'mutation($s: String!) { deleteWebhookSubscription(subscriptionID: $s) }', { s: subscriptionID });
    const gone = (await query(owner, 'query($id: ID!) { node(id: $id) { id } }', { id })).body;
    expect({ data: gone.data, errors: gone.errors }).toEqual({ data: { node: null }, errors: undefined });
  });

  it.skipIf(!enabled)('an ID beyond the token: a read-only token gets null for a subscription', async () => {
    const readOnly = (await f.tokenFor(OWNER)).token;
    const { body } = await query(readOnly, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: [ids.shipment, ids.subscription],
    });
    expect({ data: body.data, errors: body.errors }).toEqual({ data: { nodes: [{ id: ids.shipment }, null] }, errors: undefined });
  });

  it.skipIf(!enabled)('node needs a token, and nodes at most 100 IDs', async () => {
    const anonymous = await f.graphql('query($id: ID!) { node(id: $id) { id } }', { id: ids.shipment });
    expect(anonymous.status).toBe(401);
    const tooMany = await query(owner, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: new Array(101).fill(ids.shipment) });
    expect(tooMany.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
