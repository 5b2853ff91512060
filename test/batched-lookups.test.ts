import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { findShipment, type ShipmentLookup } from '../src/store/shipments/shipment-lookup.js';
import { readStoredSnapshot, type SnapshotColumn } from '../src/store/shipments/stored-snapshots.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { C1, C2, C3, cmduBundle, maeuBackfillBundle, maeuBundle } from './support/fixture-bundle.js';

/**
 * The read path's shipment lookups and stored-snapshot reads share
 * statements on MySQL/MariaDB (src/store/batching/keyed-lookups.ts, src/store/batching/batched-lookups.ts): whatever else
 * is looked up in the same turn, by whichever account, each lookup must get
 * exactly the row it gets alone: the tenant filter and the container rule
 * hold per lookup.
 */
/** Two shipments with real bookings under one bill of lading (a bill of lading may cover several bookings). */
function sharedBillOfLading() {
  const shipment = (booking: string, accounts: string[]) => ({
    carrierCode: 'MAEU',
    carrierBookingReference: booking,
    billOfLadingNumber: 'MAEU3000BL',
    carrierName: 'Maersk',
    serviceType: 'PORT_TO_PORT',
    portOfLoading: { locationName: 'Rotterdam', unLocationCode: 'NLRTM' },
    portOfDischarge: { locationName: 'Shanghai', unLocationCode: 'CNSHA' },
    accounts,
    containers: [],
  });
  return {
    carrierCode: 'MAEU',
    shipments: [shipment('MAEU-BKG-3001', ['acct-a', 'acct-b']), shipment('MAEU-BKG-3002', ['acct-b', 'acct-c'])],
    events: [],
  };
}

describe.each(dialects)('batched shipment lookups on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let statements = 0;

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name, {
      log: (event) => {
        if (event.level === 'query') statements++;
      },
    });
    for (const raw of [maeuBundle(), maeuBackfillBundle(), cmduBundle(), sharedBillOfLading()]) {
      const parsed = parseBundle(raw);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      await ingestBundle(t.database, parsed.bundle, { now: () => new Date('2026-03-01T00:00:00Z') });
    }
  });
  afterAll(async () => {
    await t?.destroy();
  });

  // Every shape of the lookup, for the account that sees the shipment, the one that does not, and both.
  const lookups: ShipmentLookup[] = [
    { billOfLadingNumber: 'MAEU1001BL' },
    { billOfLadingNumber: 'MAEU0999BL' },
    { billOfLadingNumber: 'CMDU2001BL' },
    { billOfLadingNumber: 'NOSUCHBL' },
    { carrierBookingReference: 'MAEU-BKG-1001' },
    { carrierCode: 'CMDU', carrierBookingReference: 'MAEU-BKG-1001' },
    { carrierCode: 'MAEU', carrierBookingReference: 'MAEU-BKG-1001' },
    { equipmentReference: C1 },
    { equipmentReference: C2 },
    { equipmentReference: C3 },
    { carrierCode: 'MAEU', billOfLadingNumber: 'MAEU1001BL', equipmentReference: C1 },
  ];
  const accountSets = [['acct-a'], ['acct-b'], ['acct-a', 'acct-b'], ['acct-none']];
  const cases = lookups.flatMap((lookup) => accountSets.map((accounts) => ({ lookup, accounts })));

  it.skipIf(!enabled)('answers each of many concurrent lookups as it answers that lookup alone', async () => {
    // Awaited one by one, each lookup is alone in its turn: the plain statement.
    const alone: (number | null)[] = [];
    for (const c of cases) alone.push((await findShipment(t.database.db, c.lookup, c.accounts))?.id ?? null);
    // The fixture must tell the cases apart: some found, some hidden from the account, some missing.
    expect(alone.filter((id) => id !== null).length).toBeGreaterThan(10);
    expect(alone.filter((id) => id === null).length).toBeGreaterThan(10);

    const before = statements;
    // All in one turn, twice over (more than one batch's worth on MySQL/MariaDB), in shuffled order.
    const order = [...cases.keys(), ...cases.keys()].sort((a, b) => ((a * 7919) % 97) - ((b * 7919) % 97));
    const together = await Promise.all(order.map((i) => findShipment(t.database.db, cases[i]!.lookup, cases[i]!.accounts)));
    expect(together.map((row) => row?.id ?? null)).toEqual(order.map((i) => alone[i]));
    const rows = together.filter((row) => row !== null);
    // Whole rows, not just ids: the columns of a batched row are those of the lone statement.
    for (const row of rows)
      expect(Object.keys(row).sort()).toEqual(['carrier_booking_reference', 'carrier_code', 'eta', 'etd', 'id', 'master_json', 'version']);
    // A miss by booking asks once more whether the booking is a former one (shipment-lookup.ts, bookingOfAlias):
    // one statement of its own, outside the batch.
    const aliasChecks = order.filter((i) => cases[i]!.lookup.carrierBookingReference !== undefined && alone[i] === null).length;
    expect(aliasChecks).toBeGreaterThan(0);
    // On MySQL/MariaDB a turn runs one statement per lookup shape for lookups by booking or bill of lading (a key
    // list per account set, the lists of several account sets as parts of one UNION ALL: keyed-lookups.ts), and
    // the container lookups as UNION branches (one statement here): whatever the number of lookups and clients.
    const shapes = new Set(
      order.filter((i) => cases[i]!.lookup.equipmentReference === undefined).map((i) => Object.keys(cases[i]!.lookup).join()),
    );
    expect(shapes.size).toBe(3);
    if (name === 'mysql') expect(statements - before).toBe(shapes.size + 1 + aliasChecks);
    else expect(statements - before).toBe(order.length + aliasChecks);
  });

  it.skipIf(!enabled)('gives a bill of lading that two shipments share the lowest id the account sees, alone or batched', async () => {
    const ids = new Map(
      (await t.database.db.selectFrom('shipment').select(['id', 'carrier_booking_reference']).execute()).map((r) => [
        r.carrier_booking_reference,
        r.id,
      ]),
    );
    const [first, second] = [ids.get('MAEU-BKG-3001'), ids.get('MAEU-BKG-3002')];
    expect(first).toBeLessThan(second as number);
    const expected = new Map([
      ['acct-a', first],
      ['acct-b', first],
      ['acct-c', second],
      ['acct-none', undefined],
    ]);
    const lookup = { billOfLadingNumber: 'MAEU3000BL' };
    for (const [account, id] of expected) expect((await findShipment(t.database.db, lookup, [account]))?.id).toBe(id);
    const together = await Promise.all([...expected.keys(), ...expected.keys()].map((a) => findShipment(t.database.db, lookup, [a])));
    expect(together.map((row) => row?.id)).toEqual([...expected.values(), ...expected.values()]);
    // One account set that sees both: the lower id, also beside lookups of the others in the same statement.
    const both = await Promise.all([
      findShipment(t.database.db, lookup, ['acct-c', 'acct-b']),
      findShipment(t.database.db, { billOfLadingNumber: 'MAEU1001BL' }, ['acct-c', 'acct-b']),
    ]);
    expect(both.map((row) => row?.id)).toEqual([first, undefined]);
  });

  it.skipIf(!enabled)('keeps account sets apart in one turn even when their ids would join into the same text', async () => {
    const lookup = { billOfLadingNumber: 'MAEU1001BL' };
    const sees = ['acct-a', 'acct-b'];
    // One account whose id holds a separator, which no account of the fixture has: it sees nothing.
    const joined = ['acct-a\u0000acct-b'];
    for (const order of [
      [sees, joined],
      [joined, sees],
    ]) {
      const rows = await Promise.all(order.map((accounts) => findShipment(t.database.db, lookup, accounts)));
      expect(rows.map((row) => row?.carrier_code ?? null)).toEqual(order.map((accounts) => (accounts === sees ? 'MAEU' : null)));
    }
  });

  it.skipIf(!enabled)('runs a lone lookup as the plain statement, and a lookup with no account runs none', async () => {
    const before = statements;
    expect((await findShipment(t.database.db, { billOfLadingNumber: 'MAEU1001BL' }, ['acct-a']))?.carrier_code).toBe('MAEU');
    expect(await findShipment(t.database.db, { billOfLadingNumber: 'MAEU1001BL' }, [])).toBeNull();
    expect(statements - before).toBe(1);
  });

  it.skipIf(!enabled)('reads many stored snapshots at once, each with the columns it asked for, as each alone', async () => {
    const ids = (await t.database.db.selectFrom('shipment').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(4);
    const columnSets: ReadonlySet<SnapshotColumn>[] = [new Set(['tracking']), new Set(['exceptions']), new Set(['tracking', 'exceptions'])];
    const reads = [...ids, 999_999].flatMap((id) => columnSets.map((columns) => ({ id, columns })));
    const alone = [];
    for (const r of reads) alone.push(await readStoredSnapshot(t.database.db, r.id, r.columns));
    expect(alone.filter((a) => a?.tracking).length).toBeGreaterThanOrEqual(8);
    const before = statements;
    const together = await Promise.all(reads.map((r) => readStoredSnapshot(t.database.db, r.id, r.columns)));
    expect(together).toEqual(alone);
    // One statement per set of columns on MySQL/MariaDB.
    expect(statements - before).toBe(name === 'mysql' ? columnSets.length : reads.length);
    // The missing shipment has no snapshot, whatever was read beside it.
    expect(together.slice(-3)).toEqual([undefined, undefined, undefined]);
  });

  it.skipIf(!enabled)('fails every lookup of a batch whose statement fails, none waits for ever, and the next turn works', async () => {
    // The table the tenant filter reads is gone for a moment (as in a broken deployment): the statement fails.
    await sql`alter table shipment_account rename to shipment_account_away`.execute(t.database.db);
    try {
      const results = await Promise.allSettled(
        ['MAEU1001BL', 'MAEU0999BL', 'CMDU2001BL'].map((bl) => findShipment(t.database.db, { billOfLadingNumber: bl }, ['acct-a'])),
      );
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    } finally {
      await sql`alter table shipment_account_away rename to shipment_account`.execute(t.database.db);
    }
    expect((await findShipment(t.database.db, { billOfLadingNumber: 'MAEU1001BL' }, ['acct-a']))?.carrier_code).toBe('MAEU');
  });
});
