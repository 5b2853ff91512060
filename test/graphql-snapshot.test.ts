import type { Plugin } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { omitAbsent } from '../src/http-messages/rest-body.js';
import { SHIPMENT_DOCUMENT } from '../src/executor/shipment-document.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { C1, cmduBundle, containerNumber, maeuBackfillBundle, maeuBundle } from './support/fixture-bundle.js';

describe.each(dialects)('GraphQL snapshot on $name', ({ name, enabled }) => {
  let f: TestApp;
  let t: TestDatabase;
  let token: string;
  let queries = 0;
  const executed: string[] = [];
  const observer: Plugin = {
    onExecute({ args }) {
      executed.push(args.operationName ?? '(anonymous)');
    },
  };

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name, {
      log: (event) => {
        if (event.level === 'query') queries++;
      },
    });
    // The client cache is on (its default) so that counts show the lookup alone; the
    // snapshot cache is off so that they show what a lookup loads (test/snapshot-cache.test.ts covers it).
    f = await createTestApp(name, { testDatabase: t, plugins: [observer], clientCacheTtlMs: 60_000, snapshotCacheBytes: 0 });
    await f.ingest(maeuBundle());
    await f.ingest(cmduBundle());
    await f.ingest(maeuBackfillBundle());
    ({ token } = await f.tokenFor('acct-a'));
  });
  afterAll(async () => {
    await f?.destroy();
    await t?.destroy();
  });

  async function graphql(query: string, variables: Record<string, unknown> = {}) {
    const response = await f.graphql(query, variables, token);
    return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
  }

  async function countQueries(run: () => Promise<unknown>): Promise<number> {
    const before = queries;
    await run();
    return queries - before;
  }

  it.skipIf(!enabled)('REST and GraphQL return the same snapshot, and REST runs through the Yoga executor', async () => {
    executed.length = 0;
    const rest = (await (await f.get('/v2/shipments?billOfLadingNumber=MAEU1001BL', token)).json()) as any;
    expect(executed).toEqual(['RestShipmentLookup']);
    const { body } = await graphql(SHIPMENT_DOCUMENT, { billOfLadingNumber: 'MAEU1001BL' });
    const viaGraphql = omitAbsent(body.data.shipment) as any;
    expect(viaGraphql.shipmentTracking).toEqual(rest.shipmentTracking);
    expect(viaGraphql.transmissionHeader.transmissionID).not.toBe(rest.transmissionHeader.transmissionID);
  });

  it.skipIf(!enabled)('rejects the same invalid input on GraphQL as on REST, with the code REST maps to 400', async () => {
    const { body } = await graphql('{ shipment(carrierBookingReference: "MAEU-BKG-1001") { shipmentTracking { eta } } }');
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const { body: missing } = await graphql('{ shipment(billOfLadingNumber: "NOPE") { shipmentTracking { eta } } }');
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const anonymous = await f.graphql('{ shipment(billOfLadingNumber: "MAEU1001BL") { shipmentTracking { eta } } }');
    expect(anonymous.status).toBe(401);
  });

  it.skipIf(!enabled)('an eta-only query is one SQL round trip; a full snapshot a fixed number', async () => {
    const eta = '{ shipment(billOfLadingNumber: "MAEU1001BL") { shipmentTracking { eta } } }';
    await graphql(eta); // warm: the client cache and the transmission id block
    let result: Awaited<ReturnType<typeof graphql>> | undefined;
    expect(await countQueries(async () => (result = await graphql(eta)))).toBe(1);
    expect(result?.body.data.shipment.shipmentTracking.eta).toBe('2026-12-01T09:00:00.000Z');
    const full = await countQueries(() => graphql(SHIPMENT_DOCUMENT, { billOfLadingNumber: 'MAEU1001BL' }));
    expect(full).toBeLessThanOrEqual(4);

    // A much larger shipment costs the same number of round trips.
    const containers = Array.from({ length: 12 }, (_, i) => containerNumber(`TGHU${String(100000 + i)}`));
    const events = containers.flatMap((c, i) =>
      ['GTOT', 'GTIN', 'LOAD', 'DISC'].map((code, j) => ({
        eventID: `10000000-0000-4000-8000-${String(i * 10 + j).padStart(12, '0')}`,
        eventType: 'EQUIPMENT',
        eventClassifierCode: 'ACT',
        eventDateTime: `2026-10-${String(10 + j).padStart(2, '0')}T08:00:00Z`,
        eventCreatedDateTime: `2026-10-${String(10 + j).padStart(2, '0')}T08:05:00Z`,
        equipmentEventTypeCode: code,
        equipmentReference: c,
        emptyIndicatorCode: 'LADEN',
        eventLocation: { UNLocationCode: 'NLRTM' },
        documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BIG-1' }],
      })),
    );
    await f.ingest({
      carrierCode: 'MAEU',
      shipments: [
        {
          carrierBookingReference: 'BIG-1',
          billOfLadingNumber: 'BIGBL1',
          carrierCode: 'MAEU',
          references: {},
          accounts: ['acct-a'],
          containers: containers.map((c) => ({ containerNumber: c, isoType: '45G1', references: {} })),
        },
      ],
      events,
    });
    const big = await countQueries(() => graphql(SHIPMENT_DOCUMENT, { billOfLadingNumber: 'BIGBL1' }));
    expect(big).toBe(full);
  });

  it.skipIf(!enabled)('does not load container histories for a query that does not select them', async () => {
    const n = await countQueries(() =>
      graphql(
        '{ shipment(equipmentReference: "' +
          C1 +
          '") { shipmentTracking { carrierBookingReference etd eta exceptions { exceptionID } } } }',
      ),
    );
    // One statement: the shipment's row with REST's stored rendering, which the exceptions are projected from
    // (src/executor/rest-projection.ts); none for the containers' histories, nor one of its own for the exceptions.
    expect(n).toBe(1);
  });
});

describe.each(dialects)('transmission IDs on $name', ({ name, enabled }) => {
  it.skipIf(!enabled)('two app instances on one database never issue the same transmissionID', async () => {
    const a = await createTestApp(name);
    const b = await createTestApp(name, { testDatabase: a.t });
    try {
      await a.ingest(maeuBundle());
      const { token } = await a.tokenFor('acct-a');
      const requests = Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? a : b).get('/v2/shipments?billOfLadingNumber=MAEU1001BL', token).then((r) => r.json()),
      );
      const ids = (await Promise.all(requests)).map((body: any) => body.transmissionHeader.transmissionID as string);
      expect(ids.every((id) => /^TXN-\d+$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      // A restart (a new instance) continues with fresh IDs as well.
      const c = await createTestApp(name, { testDatabase: a.t });
      const after = (await (await c.get('/v2/shipments?billOfLadingNumber=MAEU1001BL', token)).json()) as any;
      expect(ids).not.toContain(after.transmissionHeader.transmissionID);
    } finally {
      await a.destroy();
    }
  });
});
