import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consecutiveIdStep } from '../src/db/dialect.js';
import type { DatabaseSchema } from '../src/db/schema.js';
import type { TrackingEvent } from '../src/domain/types.js';
import type { IngestBundle } from '../src/domain/bundle.js';
import { ingestBundle, type IngestSummary } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { decodeEvent } from '../src/store/events/event-payload.js';
import { readStoredSnapshot, rebuildSnapshots } from '../src/store/shipments/stored-snapshots.js';
import { storeEvents } from '../src/store/events/write-events.js';
import { runCaptured } from './support/cli-run.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import {
  CARRIER,
  CONTAINER_A,
  CONTAINER_B,
  CONTAINER_C,
  eventId,
  rawEquipmentEvent,
  rawShipment,
  rawShipmentEvent,
  rawTransportEvent,
} from './support/ingest-fixtures.js';

const T0 = new Date('2024-03-10T00:00:00Z');
const T1 = new Date('2024-03-11T00:00:00Z');

/** Every table ingest writes or derives, rows in a stable order: "changes nothing" means equal dumps. */
const DUMPED_TABLES = [
  'shipment',
  'shipment_container',
  'shipment_account',
  'event',
  'event_reference',
  'shipment_event',
  'tracking_exception',
] as const satisfies readonly (keyof DatabaseSchema)[];

describe.each(dialects)('ingest on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeEach(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterEach(async () => {
    if (enabled) await t.destroy();
  });

  async function dump(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const table of DUMPED_TABLES) {
      const rows = await t.database.db.selectFrom(table).selectAll().execute();
      out[table] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return out;
  }

  async function ingest(raw: unknown, now = T0): Promise<IngestSummary> {
    const parsed = parseBundle(raw);
    if (!parsed.ok) throw new Error(`invalid test bundle: ${JSON.stringify(parsed.issues)}`);
    return ingestBundle(t.database, parsed.bundle, { now: () => now });
  }

  async function shipmentId(carrierBookingReference: string): Promise<number> {
    const row = await t.database.db
      .selectFrom('shipment')
      .select('id')
      .where('carrier_code', '=', CARRIER)
      .where('carrier_booking_reference', '=', carrierBookingReference)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** eventIDs linked to a shipment, sorted. */
  async function linkedEventIds(carrierBookingReference: string): Promise<string[]> {
    const rows = await t.database.db
      .selectFrom('shipment_event')
      .innerJoin('event', 'event.seq', 'shipment_event.event_seq')
      .select('event.event_id')
      .where('shipment_event.shipment_id', '=', await shipmentId(carrierBookingReference))
      .execute();
    return rows.map((r) => r.event_id).sort();
  }

  const fullBundle = () => ({
    carrierCode: CARRIER,
    shipments: [rawShipment()],
    events: [
      rawShipmentEvent(1),
      rawTransportEvent(2),
      rawEquipmentEvent(3),
      // No document reference: linked by its container number.
      rawEquipmentEvent(4, {
        documentReferences: undefined,
        equipmentEventTypeCode: 'GTIN',
        transportCall: undefined,
        eventLocation: { UNLocationCode: 'NLRTM' },
      }),
      // Vessel departure without any reference: kept, but belongs to no shipment.
      rawTransportEvent(5, { documentReferences: undefined, transportEventTypeCode: 'DEPA' }),
    ],
  });

  it.skipIf(!enabled)('stores a valid bundle: shipment, containers in order, accounts, normalized events, links', async () => {
    const summary = await ingest(fullBundle());
    expect(summary).toEqual({
      shipmentsCreated: 1,
      shipmentsUpdated: 0,
      shipmentsOutdated: 0,
      eventsStored: 5,
      eventsAlreadyStored: 0,
      eventsUnlinked: 1,
      shipmentsRefreshed: 1,
      exceptionTransitions: [],
    });

    const shipment = await t.database.db.selectFrom('shipment').selectAll().executeTakeFirstOrThrow();
    expect(shipment).toMatchObject({
      carrier_code: CARRIER,
      carrier_booking_reference: 'BKG100',
      booking_reference: 'FWD-100',
      bill_of_lading_number: 'MAEUBL100',
      // Derived from the estimated arrival at the port of discharge (SGSIN), in UTC.
      eta: '2024-03-29T22:00:00.000Z',
    });
    expect(JSON.parse(shipment.master_json)).toMatchObject({
      carrierName: 'Maersk',
      portOfLoading: { locationName: 'Rotterdam', unLocationCode: 'NLRTM' },
      references: { customer_name: 'ACME Corp', string_ref8: '', cargo_ready_dt: '2024-03-01T08:00:00.000Z', date_ref4: null },
    });

    const containers = await t.database.db
      .selectFrom('shipment_container')
      .select(['container_number', 'position', 'master_json'])
      .orderBy('position')
      .execute();
    expect(containers.map((c) => c.container_number)).toEqual([CONTAINER_A, CONTAINER_B]);
    expect(JSON.parse(containers[0]!.master_json)).toMatchObject({
      containerNumber: CONTAINER_A,
      isoType: '45G1',
      references: { free_time_exp_dt: '2024-04-09T16:00:00.000Z', stuffing_dt: null },
    });

    const accounts = await t.database.db.selectFrom('shipment_account').select('account_id').execute();
    expect(accounts).toEqual([{ account_id: 'acme' }]);

    const stored = await t.database.db.selectFrom('event').selectAll().where('event_id', '=', eventId(2)).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ carrier_code: CARRIER, event_type: 'TRANSPORT', event_date_time: '2024-03-29T22:00:00.000Z' });
    const payload = decodeEvent(stored);
    expect(payload).toMatchObject({ eventID: eventId(2), transportCall: { unLocationCode: 'SGSIN' } });
    expect(JSON.stringify(payload)).not.toContain('UNLocationCode');

    expect(await linkedEventIds('BKG100')).toEqual([eventId(1), eventId(2), eventId(3), eventId(4)]);
  });

  it.skipIf(!enabled)('re-ingesting the same bundle changes nothing, not even the version', async () => {
    await ingest(fullBundle(), T0);
    const before = await dump();
    const summary = await ingest(fullBundle(), T1);
    expect(summary).toEqual({
      shipmentsCreated: 0,
      shipmentsUpdated: 0,
      // The shipment holds this very statement: a replay.
      shipmentsOutdated: 1,
      eventsStored: 0,
      eventsAlreadyStored: 5,
      eventsUnlinked: 0,
      shipmentsRefreshed: 0,
      exceptionTransitions: [],
    });
    expect(await dump()).toEqual(before);
  });

  it.skipIf(!enabled)('skips eventIDs already stored and keeps the stored version, whatever the new content', async () => {
    await ingest({ carrierCode: CARRIER, events: [rawTransportEvent(2)] });
    const summary = await ingest({
      carrierCode: CARRIER,
      events: [rawTransportEvent(2, { eventClassifierCode: 'ACT' }), rawTransportEvent(6)],
    });
    expect(summary).toMatchObject({ eventsStored: 1, eventsAlreadyStored: 1 });
    const kept = await t.database.db
      .selectFrom('event')
      .select(['payload', 'payload_json'])
      .where('event_id', '=', eventId(2))
      .executeTakeFirstOrThrow();
    expect(decodeEvent(kept)).toMatchObject({ eventClassifierCode: 'EST' });
  });

  it.skipIf(!enabled)('keeps events that arrive before their shipment and links them when it arrives', async () => {
    const { events } = fullBundle();
    const first = await ingest({ carrierCode: CARRIER, events });
    expect(first).toMatchObject({ eventsStored: 5, eventsUnlinked: 5, shipmentsRefreshed: 0 });
    expect(await t.database.db.selectFrom('shipment_event').selectAll().execute()).toEqual([]);

    const second = await ingest({ shipments: [rawShipment()] });
    expect(second).toMatchObject({ shipmentsCreated: 1, eventsStored: 0, shipmentsRefreshed: 1 });
    expect(await linkedEventIds('BKG100')).toEqual([eventId(1), eventId(2), eventId(3), eventId(4)]);
    // The derived state is computed from the events that were already there.
    const shipment = await t.database.db.selectFrom('shipment').select('eta').executeTakeFirstOrThrow();
    expect(shipment.eta).toBe('2024-03-29T22:00:00.000Z');
  });

  it.skipIf(!enabled)('derives from the stored and the new events alike: the snapshot is what a rebuild from the store gives', async () => {
    // The refresh takes the events stored by this ingest from memory and reads the older ones back.
    const { events } = fullBundle();
    await ingest({ carrierCode: CARRIER, shipments: [rawShipment()], events: events.slice(0, 2) }, T0);
    await ingest(
      { carrierCode: CARRIER, events: [events[1], ...events.slice(2), rawEquipmentEvent(6, { eventClassifierCode: 'EST' })] },
      T1,
    );
    const id = await shipmentId('BKG100');
    const snapshot = () =>
      t.database.db.selectFrom('shipment_snapshot').selectAll().where('shipment_id', '=', id).executeTakeFirstOrThrow();
    const ingested = await snapshot();
    const tracking = (await readStoredSnapshot(t.database.db, id, new Set(['tracking'])))!.tracking!;
    expect([tracking.shipmentEvents.length, tracking.transportEvents.length]).toEqual([1, 1]);
    await t.database.db.transaction().execute((trx) => rebuildSnapshots(trx, t.database.dialect, [id]));
    expect(await snapshot()).toEqual(ingested);
  });

  it.skipIf(!enabled)('links by bill of lading (TRD) as well as by booking reference', async () => {
    await ingest({
      carrierCode: CARRIER,
      events: [
        rawShipmentEvent(1, { shipmentEventTypeCode: 'ISSU', documentTypeCode: 'TRD', documentID: 'MAEUBL100' }),
        rawTransportEvent(2, { documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'MAEUBL100' }] }),
      ],
    });
    await ingest({ shipments: [rawShipment()] });
    expect(await linkedEventIds('BKG100')).toEqual([eventId(1), eventId(2)]);
  });

  it.skipIf(!enabled)('links only events of the same carrier', async () => {
    await ingest({ carrierCode: 'CMDU', events: [rawShipmentEvent(1)] });
    const summary = await ingest({ shipments: [rawShipment()] });
    expect(summary.shipmentsCreated).toBe(1);
    expect(await linkedEventIds('BKG100')).toEqual([]);
  });

  it.skipIf(!enabled)('links an equipment event of a reused container by its document references, not by the container', async () => {
    await ingest({
      shipments: [
        rawShipment({ carrierBookingReference: 'BKG100', billOfLadingNumber: 'MAEUBL100', containers: [{ containerNumber: CONTAINER_A }] }),
        rawShipment({ carrierBookingReference: 'BKG200', billOfLadingNumber: 'MAEUBL200', containers: [{ containerNumber: CONTAINER_A }] }),
      ],
    });
    const summary = await ingest({
      carrierCode: CARRIER,
      events: [
        rawEquipmentEvent(1, { documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG100' }] }),
        rawEquipmentEvent(2, { documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'MAEUBL200' }] }),
        // Without document references the container is the only key: both shipments carry it.
        rawEquipmentEvent(3, { documentReferences: [] }),
      ],
    });
    expect(summary).toMatchObject({ eventsStored: 3, eventsUnlinked: 0, shipmentsRefreshed: 2 });
    expect(await linkedEventIds('BKG100')).toEqual([eventId(1), eventId(3)]);
    expect(await linkedEventIds('BKG200')).toEqual([eventId(2), eventId(3)]);
  });

  it.skipIf(!enabled)('updates a shipment: master data replaced, containers replaced in order, accounts added', async () => {
    await ingest(fullBundle());
    const { version: versionBefore } = await t.database.db.selectFrom('shipment').select('version').executeTakeFirstOrThrow();
    const summary = await ingest(
      {
        shipments: [
          rawShipment({
            carrierName: 'Maersk Line',
            accounts: ['forwarder'],
            containers: [{ containerNumber: CONTAINER_C }, { containerNumber: CONTAINER_B }],
          }),
        ],
      },
      T1,
    );
    expect(summary).toMatchObject({ shipmentsCreated: 0, shipmentsUpdated: 1, shipmentsRefreshed: 1 });
    const shipment = await t.database.db.selectFrom('shipment').selectAll().executeTakeFirstOrThrow();
    expect(JSON.parse(shipment.master_json)).toMatchObject({ carrierName: 'Maersk Line' });
    expect(shipment.version).toBeGreaterThan(versionBefore);
    const containers = await t.database.db.selectFrom('shipment_container').select('container_number').orderBy('position').execute();
    expect(containers.map((c) => c.container_number)).toEqual([CONTAINER_C, CONTAINER_B]);
    // Accounts are a union: a re-send listing one account does not revoke another's access.
    const accounts = await t.database.db.selectFrom('shipment_account').select('account_id').orderBy('account_id').execute();
    expect(accounts.map((a) => a.account_id)).toEqual(['acme', 'forwarder']);
    // Container A left the shipment: its event linked only by the container number is unlinked;
    // the one linked by the booking reference stays.
    expect(await linkedEventIds('BKG100')).toEqual([eventId(1), eventId(2), eventId(3)]);
  });

  it.skipIf(!enabled)('writes nothing of a bundle that fails in the database, even after its shipments were written', async () => {
    await ingest(fullBundle());
    const before = await dump();
    const parsed = parseBundle({
      carrierCode: CARRIER,
      shipments: [rawShipment({ carrierBookingReference: 'BKG300' })],
      events: [rawShipmentEvent(10, { documentID: 'BKG300' }), rawShipmentEvent(11, { documentID: 'BKG300' })],
    });
    if (!parsed.ok) throw new Error('fixture must be valid');
    // Bypass validation to make the last event violate a NOT NULL column.
    const broken: IngestBundle = {
      ...parsed.bundle,
      events: [parsed.bundle.events[0]!, { ...parsed.bundle.events[1]!, eventType: null } as unknown as TrackingEvent],
    };
    await expect(ingestBundle(t.database, broken, { now: () => T1 })).rejects.toThrow();
    expect(await dump()).toEqual(before);
  });

  it.skipIf(!enabled)('reports each stored event under its own seq, also with an auto-increment step above 1', async () => {
    // MySQL/MariaDB: the seqs follow from the insert's first id where the lock mode guarantees them consecutive
    // (consecutiveIdStep); Galera-like setups raise the session's step. Many events: several insert batches.
    await ingest({ carrierCode: CARRIER, events: [rawTransportEvent(1)] });
    const parsed = parseBundle({ carrierCode: CARRIER, events: Array.from({ length: 1200 }, (_, i) => rawEquipmentEvent(100 + i)) });
    if (!parsed.ok) throw new Error('fixture must be valid');
    const stored = await t.database.db.connection().execute(async (conn) => {
      const step = (n: number) => sql`set session auto_increment_increment = ${sql.raw(String(n))}`.execute(conn);
      if (name === 'mysql') await step(3);
      try {
        return await conn.transaction().execute((trx) => storeEvents(trx, name, CARRIER, parsed.bundle.events, T0.toISOString()));
      } finally {
        if (name === 'mysql') await step(1);
      }
    });
    const rows = await t.database.db.selectFrom('event').select(['seq', 'event_id']).where('event_id', '!=', eventId(1)).execute();
    expect(rows).toHaveLength(1200);
    expect(new Map([...stored.stored].map(([seq, e]) => [seq, e.eventID]))).toEqual(new Map(rows.map((r) => [r.seq, r.event_id])));
    expect(stored.storedSeqs.sort((a, b) => a - b)).toEqual(rows.map((r) => r.seq).sort((a, b) => a - b));
  });

  it.skipIf(!enabled)('calls onTouched after the commit with the shipments that changed', async () => {
    const touched: number[][] = [];
    const parsed = parseBundle(fullBundle());
    if (!parsed.ok) throw new Error('fixture must be valid');
    await ingestBundle(t.database, parsed.bundle, { now: () => T0, onTouched: (ids) => void touched.push([...ids]) });
    await ingestBundle(t.database, parsed.bundle, { now: () => T0, onTouched: (ids) => void touched.push([...ids]) });
    expect(touched).toEqual([[await shipmentId('BKG100')]]);
  });

  describe('tracking ingest', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'tt-ingest-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    function file(fileName: string, content: unknown): string {
      const path = join(dir, fileName);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    }

    function run(args: string[], stdin = '') {
      return runCaptured(['ingest', ...args], { stdin: Readable.from([stdin]), env: {}, now: () => T0, database: t.database });
    }

    it.skipIf(!enabled)('ingests files and stdin, one summary line per file', async () => {
      const shipments = file('shipments.json', { shipments: [rawShipment()] });
      const result = await run([shipments, '-'], JSON.stringify({ carrierCode: CARRIER, events: [rawShipmentEvent(1)] }));
      expect(result).toEqual({
        code: 0,
        stderr: '',
        stdout:
          `${shipments}: shipments 1 created, 0 updated; events 0 stored, 0 already stored, 0 not linked to a shipment yet; 1 shipment(s) refreshed\n` +
          'stdin: shipments 0 created, 0 updated; events 1 stored, 0 already stored, 0 not linked to a shipment yet; 1 shipment(s) refreshed\n',
      });
    });

    it.skipIf(!enabled)('rejects a bundle with one bad event, naming file and field, and writes nothing of it', async () => {
      const good = file('good.json', { shipments: [rawShipment()] });
      const bad = file('bad.json', {
        carrierCode: CARRIER,
        shipments: [rawShipment({ carrierBookingReference: 'BKG300' })],
        events: [rawShipmentEvent(1), rawTransportEvent(2, { eventDateTime: '2024-03-30T06:00:00' })],
      });
      const later = file('later.json', { carrierCode: CARRIER, events: [rawShipmentEvent(3)] });
      const first = await run([good]);
      expect(first.code).toBe(0);
      const before = await dump();

      const result = await run([good, bad, later]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${bad}: invalid bundle, nothing written:\n  events[1].eventDateTime: timestamp`);
      expect(result.stderr).toContain('1 earlier file(s) of this run were ingested and stay ingested; 1 later file(s) were not processed');
      expect(await dump()).toEqual(before);
    });

    it.skipIf(!enabled)('rejects invalid JSON and unreadable files with exit code 1', async () => {
      const broken = file('broken.json', '{"carrierCode": ');
      const invalid = await run([broken]);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toMatch(new RegExp(`^${broken}:1:17: invalid JSON, nothing written: `));
      const missing = await run([join(dir, 'missing.json')]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('missing.json: cannot read');
    });

    it.skipIf(!enabled)('answers a usage error with exit code 2', async () => {
      expect((await run([])).code).toBe(2);
      expect((await run(['--all'])).code).toBe(2);
      expect((await run(['-', '-'])).code).toBe(2);
    });
  });
});

describe('consecutive insert ids (MySQL/MariaDB)', () => {
  it('are relied on only under the lock modes that guarantee them, with the session step', () => {
    expect(consecutiveIdStep({ lockMode: 1, increment: 1 })).toBe(1);
    expect(consecutiveIdStep({ lockMode: '0', increment: '2' })).toBe(2);
    // Interleaved: ids of one statement may mix with a concurrent one's.
    expect(consecutiveIdStep({ lockMode: 2, increment: 1 })).toBeNull();
    expect(consecutiveIdStep({ lockMode: null, increment: 1 })).toBeNull();
    expect(consecutiveIdStep({ lockMode: 1, increment: 0 })).toBeNull();
  });
});
