import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SHIPMENT_DOCUMENT } from '../src/executor/shipment-document.js';
import { ShipmentSnapshot } from '../src/store/shipments/shipment-snapshot.js';
import { SnapshotCache } from '../src/store/shipments/snapshot-cache.js';
import { findShipment, type ShipmentRow } from '../src/store/shipments/shipment-lookup.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { C1, C2, maeuBundle } from './support/fixture-bundle.js';

/**
 * The snapshot cache (src/store/shipments/snapshot-cache.ts) is exact: a lookup reads
 * the shipment's version and uses a cached snapshot only of that version, so
 * an ingest is visible on the very next lookup, on every instance, without
 * any instance being told.
 */
describe.each(dialects)('snapshot cache on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let token: string;
  let queries = 0;
  const statements: string[] = [];

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name, {
      log: (event) => {
        if (event.level !== 'query') return;
        queries++;
        statements.push(event.query.sql);
      },
    });
    // Two instances on one database, as behind a load balancer.
    a = await createTestApp(name, { testDatabase: t, clientCacheTtlMs: 60_000 });
    b = await createTestApp(name, { testDatabase: t, clientCacheTtlMs: 60_000 });
    await a.ingest(maeuBundle());
    ({ token } = await a.tokenFor('acct-a'));
  });
  afterAll(async () => {
    await a?.destroy();
    await b?.destroy();
    await t?.destroy();
  });

  async function snapshot(app: TestApp, query = 'billOfLadingNumber=MAEU1001BL', bearer = token) {
    const response = await app.get(`/v2/shipments?${query}`, bearer);
    return { status: response.status, body: (await response.json()) as any };
  }

  async function count(run: () => Promise<unknown>): Promise<number> {
    const before = queries;
    await run();
    return queries - before;
  }

  it.skipIf(!enabled)('caches a shipment from its second lookup on: then the lookup statement alone, the same body', async () => {
    // The first lookup (the client's first request too) reads the stored rendering with the shipment's row (one
    // statement) and keeps nothing; the second reads it again and keeps it.
    const first = await snapshot(a);
    expect(a.app.services.snapshots.size).toBe(0);
    expect(await count(() => snapshot(a))).toBe(1);
    expect(a.app.services.snapshots.size).toBe(1);
    let third: Awaited<ReturnType<typeof snapshot>> | undefined;
    expect(await count(async () => (third = await snapshot(a)))).toBe(1);
    expect(third?.body.shipmentTracking).toEqual(first.body.shipmentTracking);
    expect(third?.body.transmissionHeader.transmissionID).not.toBe(first.body.transmissionHeader.transmissionID);
    // GraphQL shares the cache: the same snapshot. Its full selection is made from the rendering REST kept
    // (src/executor/rest-projection.ts): the lookup statement alone, the first time and the next.
    expect(await count(() => a.graphql(SHIPMENT_DOCUMENT, { billOfLadingNumber: 'MAEU1001BL' }, token))).toBe(1);
    expect(await count(() => a.graphql(SHIPMENT_DOCUMENT, { billOfLadingNumber: 'MAEU1001BL' }, token))).toBe(1);
    // A selection the projection does not answer (the global id is not in REST's body) walks the parsed columns
    // once (one statement), and keeps them: the next lookup reads nothing more.
    const walked = `query W($bl: String) { shipment(billOfLadingNumber: $bl) { shipmentTracking { id containers { containerNumber } } } }`;
    expect(await count(() => a.graphql(walked, { bl: 'MAEU1001BL' }, token))).toBe(2);
    expect(await count(() => a.graphql(walked, { bl: 'MAEU1001BL' }, token))).toBe(1);
  });

  it.skipIf(!enabled)("reads the stored rendering with the row unless the lookup may be a 304, and only of the row's version", async () => {
    const fresh = await createTestApp(name, { testDatabase: t, snapshotCacheBytes: 0, clientCacheTtlMs: 60_000 });
    const db = fresh.app.services.database.db;
    try {
      const read = async (headers: Record<string, string> = {}) => {
        const before = statements.length;
        const response = await fresh.get('/v2/shipments?billOfLadingNumber=MAEU1001BL', token, headers);
        return { status: response.status, etag: response.headers.get('etag'), text: await response.text(), sql: statements.slice(before) };
      };
      // The client's first request reads its grants and keys; from then on a lookup is its own statements.
      expect((await fresh.get('/v2/shipments?billOfLadingNumber=MAEU0999BL', token)).status).toBe(200);
      // A miss (the cache is off): one statement, the lookup, joined with the stored snapshot.
      const plain = await read();
      expect(plain.status).toBe(200);
      expect(plain.sql, plain.sql.join('\n')).toHaveLength(1);
      expect(plain.sql[0]).toMatch(/shipment_snapshot/);
      // A conditional poll needs the version alone: the lookup reads no rendering, current ETag or not.
      const conditional = await read({ 'If-None-Match': plain.etag as string });
      expect(conditional.status).toBe(304);
      expect(conditional.sql).toHaveLength(1);
      expect(conditional.sql[0]).not.toMatch(/shipment_snapshot/);
      const stale = await read({ 'If-None-Match': 'W/"stale"' });
      expect(stale.status).toBe(200);
      expect(stale.text.slice(stale.text.indexOf(',"shipmentTracking":'))).toBe(
        plain.text.slice(plain.text.indexOf(',"shipmentTracking":')),
      );
      // A stored snapshot of another version than the row's is not served: the shipment is assembled from its
      // parts, to the same body.
      const { id, version } = (await findShipment(db, { billOfLadingNumber: 'MAEU1001BL' }, ['acct-a'])) as ShipmentRow;
      // Read with the row, by key (keyed-lookups.ts) and by container (batched-lookups.ts): the row as without it,
      // plus the rendering, none of the joined columns left on it.
      for (const lookup of [{ billOfLadingNumber: 'MAEU1001BL' }, { equipmentReference: C1 }]) {
        const plainRow = (await findShipment(db, lookup, ['acct-a'])) as ShipmentRow;
        const { restRenderingZ, ...joinedRow } = (await findShipment(db, lookup, ['acct-a'], { restRendering: true })) as ShipmentRow;
        expect(Buffer.isBuffer(restRenderingZ)).toBe(true);
        expect(joinedRow).toEqual(plainRow);
      }
      await db
        .updateTable('shipment')
        .set({ version: version + 1 })
        .where('id', '=', id)
        .execute();
      try {
        const row = await findShipment(db, { billOfLadingNumber: 'MAEU1001BL' }, ['acct-a'], { restRendering: true });
        expect(row?.restRenderingZ).toBeNull();
        const assembled = await read();
        expect(assembled.sql.length).toBeGreaterThan(1);
        expect(assembled.text.slice(assembled.text.indexOf(',"shipmentTracking":'))).toBe(
          plain.text.slice(plain.text.indexOf(',"shipmentTracking":')),
        );
      } finally {
        await db.updateTable('shipment').set({ version }).where('id', '=', id).execute();
      }
    } finally {
      await fresh.destroy();
    }
  });

  it.skipIf(!enabled)('keeps the rendered body on the snapshot: a repeated lookup sends the same text, with its own header', async () => {
    const kept = vi.spyOn(ShipmentSnapshot.prototype, 'rendering');
    const text = async (app: TestApp, bearer = token) => (await app.get('/v2/shipments?billOfLadingNumber=MAEU1001BL', bearer)).text();
    const header = (body: string) => (JSON.parse(body) as any).transmissionHeader;
    const withoutHeader = (body: string) => body.slice(body.indexOf(',"shipmentTracking":'));
    try {
      const fresh = await createTestApp(name, { testDatabase: t });
      await text(fresh); // the shipment's first lookup: not cached
      const first = await text(fresh);
      expect(kept.mock.results.at(-1)?.value).toBeUndefined();
      const second = await text(fresh);
      // Kept as UTF-8 bytes, outside the V8 heap (ShipmentSnapshot.rendering).
      expect(Buffer.isBuffer(kept.mock.results.at(-1)?.value)).toBe(true);
      expect(withoutHeader(second)).toBe(withoutHeader(first));
      // Held compressed: the cache counts the shipment at less than its rendering alone (master data included).
      const rendering = Buffer.byteLength(withoutHeader(second), 'utf8');
      expect(fresh.app.services.snapshots.size).toBe(1);
      expect(fresh.app.services.snapshots.bytes).toBeLessThan(rendering / 2);
      // The header is the request's own, written as the executed document writes it.
      expect(Object.keys(header(second))).toEqual(Object.keys(header(first)));
      expect(header(second).transmissionID).not.toBe(header(first).transmissionID);
      expect({ ...header(second), transmissionID: 0, transmissionDateTime: 0 }).toEqual({
        ...header(first),
        transmissionID: 0,
        transmissionDateTime: 0,
      });
      // Another client of the account gets the kept text under its own receiverID.
      const { token: colleague, clientId } = await fresh.tokenFor('acct-a');
      const theirs = await text(fresh, colleague);
      expect(withoutHeader(theirs)).toBe(withoutHeader(first));
      expect(header(theirs).receiverID).toBe(clientId);
      // Without the cache nothing is kept, and the text is the same.
      const uncached = await createTestApp(name, { testDatabase: t, snapshotCacheBytes: 0 });
      expect(withoutHeader(await text(uncached))).toBe(withoutHeader(first));
      expect(withoutHeader(await text(uncached))).toBe(withoutHeader(first));
      await Promise.all([fresh.destroy(), uncached.destroy()]);
    } finally {
      kept.mockRestore();
    }
  });

  it.skipIf(!enabled)('lets in a shipment looked up within the last two generations of its door, and only those', async () => {
    const row = async (billOfLadingNumber: string) =>
      (await findShipment(a.app.services.database.db, { billOfLadingNumber }, ['acct-a'])) as ShipmentRow;
    const [first, second] = [await row('MAEU1001BL'), await row('MAEU0999BL')];
    // A door of one id a generation: it remembers the last shipment and the one before.
    const cache = new SnapshotCache(a.app.services.database.db, 1_000_000_000, 1);
    cache.snapshot(first);
    expect(cache.size).toBe(0);
    cache.snapshot(second);
    cache.snapshot(first); // forgotten: two other sightings since
    expect(cache.size).toBe(0);
    cache.snapshot(first);
    expect(cache.size).toBe(1);
    // Admitted stays admitted when the shipment changes: a cached older version lets the new one in.
    cache.snapshot({ ...first, version: first.version + 1 });
    expect(cache.size).toBe(1);
    expect(cache.snapshot({ ...first, version: first.version + 1 })).toBe(cache.snapshot({ ...first, version: first.version + 1 }));
    // A full cache lets a shipment past the door in only if it is looked up more often lately than the least
    // recently used entry it would push out: an even stream of other shipments does not churn it.
    // A budget that holds either shipment (at its size before any load: its master data) but not both.
    const budget = first.master_json.length + second.master_json.length - 1;
    const full = new SnapshotCache(a.app.services.database.db, budget, 10);
    full.snapshot(first);
    full.snapshot(first);
    expect(full.size).toBe(1); // in: the cache had room
    full.snapshot(second);
    full.snapshot(second);
    expect(full.snapshot(first)).toBe(full.snapshot(first)); // still the held one: `second` (looked up twice) did not displace it
    full.snapshot(second);
    full.snapshot(second);
    full.snapshot(second);
    full.snapshot(second); // now looked up more often than `first`: it takes the place
    expect(full.size).toBe(1);
    expect(full.snapshot(second)).toBe(full.snapshot(second));
    // Off is off: nothing is ever kept.
    const off = new SnapshotCache(a.app.services.database.db, 0);
    off.snapshot(first);
    off.snapshot(first);
    expect(off.size).toBe(0);
  });

  it.skipIf(!enabled)('shows an ingest on the next lookup, on every instance', async () => {
    await snapshot(a);
    await snapshot(b);
    const events = (await snapshot(a)).body.shipmentTracking.containers.find((c: any) => c.containerNumber === C2).eventHistory;
    expect(events).toHaveLength(1);

    await a.ingest({
      carrierCode: 'MAEU',
      events: [
        {
          eventID: '00000000-0000-4000-8000-0000000000f1',
          eventType: 'EQUIPMENT',
          eventClassifierCode: 'ACT',
          eventDateTime: '2026-12-02T08:00:00Z',
          eventCreatedDateTime: '2026-12-02T08:01:00Z',
          equipmentEventTypeCode: 'DISC',
          equipmentReference: C2,
          emptyIndicatorCode: 'LADEN',
          eventLocation: { UNLocationCode: 'CNSHA' },
          documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'MAEU-BKG-1001' }],
        },
      ],
    });
    for (const app of [a, b]) {
      const c2 = (await snapshot(app)).body.shipmentTracking.containers.find((c: any) => c.containerNumber === C2);
      expect(c2.eventHistory.map((e: any) => e.equipmentEventTypeCode)).toEqual(['LOAD', 'DISC']);
      expect(c2.latestEvent.equipmentEventTypeCode).toBe('DISC');
    }
  });

  it.skipIf(!enabled)('shows changed master data and containers on the next lookup', async () => {
    await snapshot(a);
    const bundle = maeuBundle();
    const first = bundle.shipments[0]!;
    await a.ingest({
      carrierCode: 'MAEU',
      shipments: [{ ...first, vesselName: 'MAERSK ESSEX', containers: [first.containers[0]!] }],
    });
    for (const app of [a, b]) {
      const s = (await snapshot(app)).body.shipmentTracking;
      expect(s.vesselName).toBe('MAERSK ESSEX');
      expect(s.containers.map((c: any) => c.containerNumber)).toEqual([C1]);
    }
  });

  it.skipIf(!enabled)('never lets a cached snapshot past the access check', async () => {
    await snapshot(a);
    const { token: other } = await a.tokenFor('acct-b');
    expect((await snapshot(a, 'billOfLadingNumber=MAEU1001BL', other)).status).toBe(404);
  });

  it.skipIf(!enabled)('stays within its size budget, dropping the least recently used', async () => {
    const probe = await createTestApp(name, { testDatabase: t });
    await snapshot(probe);
    await snapshot(probe);
    const one = probe.app.services.snapshots.bytes;
    expect(one).toBeGreaterThan(0);
    const small = await createTestApp(name, { testDatabase: t, snapshotCacheBytes: one });
    await snapshot(small);
    await snapshot(small);
    expect(small.app.services.snapshots.size).toBe(1);
    await snapshot(small, 'billOfLadingNumber=MAEU0999BL');
    await snapshot(small, 'billOfLadingNumber=MAEU0999BL');
    expect(small.app.services.snapshots.size).toBe(1);
    expect(small.app.services.snapshots.bytes).toBeLessThanOrEqual(one);
    // The evicted shipment is assembled again, correctly.
    expect((await snapshot(small)).body.shipmentTracking.billOfLadingNumber).toBe('MAEU1001BL');
  });

  it.skipIf(!enabled)('drops a held snapshot whose read failed, so that the next lookup reads again', async () => {
    // A database gone under the cache: every statement of it fails.
    const gone = await createTestDatabase(name);
    const cache = new SnapshotCache(gone.database.db, 1 << 20, 100);
    await gone.destroy();
    const row = { id: 1, version: 1, master_json: '{}' };
    cache.snapshot(row);
    const held = cache.snapshot(row);
    expect(cache.size).toBe(1);
    await expect(held.exceptions()).rejects.toThrow();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(cache.snapshot(row)).not.toBe(held);
  });
});
