import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactCollation } from '../src/db/dialect.js';
import { exceptionIdFor } from '../src/domain/exception-engine.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { at, shipmentMaster, transportEvent, VESSELS } from './support/event-builders.js';
import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
import { readEventPage } from '../src/store/events/dcsa-events.js';

describe.each(dialects)('migrations on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('creates every table and is idempotent', async () => {
    const tables = (await t.database.db.introspection.getTables()).map((x) => x.name).sort();
    expect(tables).toEqual(
      expect.arrayContaining([
        'api_client',
        'carrier_poll_state',
        'carrier_source',
        'event',
        'event_reference',
        'rejected_event',
        'service_secret',
        'shipment',
        'shipment_account',
        'shipment_account_revocation',
        'shipment_container',
        'shipment_event',
        'shipment_snapshot',
        'shipment_statement',
        'signing_key',
        'tracking_exception',
        'transmission_block',
        'unlinked_event',
      ]),
    );
    expect(await migrateToLatest(t.database)).toEqual([]);
  });

  it.skipIf(!enabled)('enforces one shipment per carrier code and carrier booking reference', async () => {
    const row = {
      carrier_code: 'MAEU',
      carrier_booking_reference: 'BKG1',
      master_json: '{}',
      updated_at: new Date().toISOString(),
    };
    await t.database.db.insertInto('shipment').values(row).execute();
    await expect(t.database.db.insertInto('shipment').values(row).execute()).rejects.toThrow();
    await t.database.db
      .insertInto('shipment')
      .values({ ...row, carrier_code: 'CMDU' })
      .execute();
  });
});

describe.each(dialects)('upgrading an existing database on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!enabled) return;
    // A database as the first release left it: only 001 applied.
    t = await createTestDatabase(name, { migrateTo: '001-initial' });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('sets exact collations on every text column, whatever the server default (MySQL/MariaDB)', async () => {
    await migrateToLatest(t.database);
    if (name !== 'mysql') return;
    const { rows } = await sql<{ table_name: string; column_name: string; collation_name: string }>`
      select table_name, column_name, collation_name from information_schema.columns
      where table_schema = database() and collation_name is not null and table_name not like 'kysely%'
      and table_name not in ('release_migration', 'release_migration_lock', 'contract_migration')`.execute(t.database.db);
    expect(rows.length).toBeGreaterThan(20);
    const collations = new Set(rows.map((r) => r.collation_name));
    expect(collations).toEqual(new Set([await exactCollation(t.database.db)]));
  });
});

describe.each(dialects)('exceptions stored before the lifecycle on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name, { migrateTo: '001-initial' });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('are kept, adopted by their subject, and never deleted', async () => {
    const db = t.database.db as Kysely<any>;
    const now = '2026-03-05T00:00:00.000Z';
    const master = shipmentMaster({ carrierBookingReference: 'OLD-1' });
    await db
      .insertInto('shipment')
      .values({ carrier_code: 'MAEU', carrier_booking_reference: 'OLD-1', master_json: JSON.stringify(master), updated_at: now })
      .execute();
    const { id } = await db.selectFrom('shipment').select('id').executeTakeFirstOrThrow();
    await db.insertInto('shipment_account').values({ shipment_id: id, account_id: 'acct-old' }).execute();
    const oldBody = (exceptionID: string, status: string) => ({
      exceptionID,
      exceptionType: 'ETA_DELAY',
      exceptionCategory: 'SCHEDULE',
      severity: 'WARNING',
      status,
      detectedDateTime: '2026-03-03T00:00:00.000Z',
      title: 'old',
      description: 'old',
      affectedContainers: [],
      recommendedAction: 'old',
    });
    const adoptable = exceptionIdFor(master, 'ETA_DELAY', 'NLRTM');
    const orphan = '11111111-2222-5333-8444-555555555555';
    for (const exceptionID of [adoptable, orphan]) {
      await db
        .insertInto('tracking_exception')
        .values({
          exception_id: exceptionID,
          shipment_id: id,
          exception_type: 'ETA_DELAY',
          status: 'DETECTED',
          episode: 'x',
          body_json: JSON.stringify(oldBody(exceptionID, 'DETECTED')),
          updated_at: now,
        })
        .execute();
    }
    await migrateToLatest(t.database);

    // The shipment's next refresh: a plan and a 20 h late estimate (the adopted row's condition).
    const arrival = (classifier: 'PLN' | 'EST', delay: number, created: number) =>
      transportEvent({
        type: 'ARRI',
        classifier,
        port: 'NLRTM',
        vessel: VESSELS.BRAVO,
        voyage: '611W',
        eventDateTime: at(720 + delay),
        created: at(created),
        booking: 'OLD-1',
      });
    const parsed = parseBundle({ carrierCode: 'MAEU', events: [arrival('PLN', 0, 0), arrival('EST', 20, 48)] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    await ingestBundle(t.database, parsed.bundle, { now: () => new Date(now) });

    const rows = await t.database.db.selectFrom('tracking_exception').select(['exception_id', 'subject', 'status', 'body_json']).execute();
    const byId = new Map(rows.map((r) => [r.exception_id, r]));
    expect(rows).toHaveLength(2);
    expect(byId.get(adoptable)).toMatchObject({ subject: 'NLRTM', status: 'DETECTED' });
    // What was served stays: the detection time of the old row is kept.
    expect(JSON.parse(byId.get(adoptable)!.body_json)).toMatchObject({
      detectedDateTime: '2026-03-03T00:00:00.000Z',
      impact: { delayHours: 20 },
    });
    expect(byId.get(orphan)).toMatchObject({ status: 'RESOLVED' });
    expect(JSON.parse(byId.get(orphan)!.body_json)).toMatchObject({ resolutionType: 'DATA_CORRECTED', resolvedDateTime: now });
  });
});

describe.each(dialects)('migration 009 on a database holding data on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name, { migrateTo: '007-stored-snapshots' });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('lists the events stored for no shipment, and a shipment stored before takes its next statement', async () => {
    const bundleOf = (raw: unknown) => {
      const parsed = parseBundle(raw);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      return parsed.bundle;
    };
    const db = t.database.db as Kysely<any>;
    const master = shipmentMaster({ carrierBookingReference: 'OLD-2' });
    await db
      .insertInto('shipment')
      .values({ carrier_code: 'MAEU', carrier_booking_reference: 'OLD-2', master_json: JSON.stringify(master), updated_at: at(10) })
      .execute();
    const { id } = await db.selectFrom('shipment').select('id').executeTakeFirstOrThrow();
    // Two events as the code of the time stored them: one linked to the shipment, one to a booking nobody loaded.
    const plan = (booking: string) =>
      transportEvent({
        type: 'ARRI',
        classifier: 'PLN',
        port: 'NLRTM',
        vessel: VESSELS.BRAVO,
        voyage: '611W',
        eventDateTime: at(720),
        created: at(0),
        booking,
      });
    const events = bundleOf({ carrierCode: 'MAEU', events: [plan('OLD-2'), plan('NOBODY')] }).events;
    for (const [i, e] of events.entries()) {
      await db
        .insertInto('event')
        .values({
          event_id: e.eventID,
          carrier_code: 'MAEU',
          event_type: e.eventType,
          event_date_time: e.eventDateTime,
          event_created_date_time: e.eventCreatedDateTime,
          payload_json: JSON.stringify(e),
          ingested_at: at(10 + i),
        })
        .execute();
    }
    const seqs = (await db.selectFrom('event').select(['seq', 'event_id']).orderBy('seq').execute()) as { seq: number; event_id: string }[];
    await db.insertInto('shipment_event').values({ shipment_id: id, event_seq: seqs[0]!.seq }).execute();

    await migrateToLatest(t.database);
    const unlinked = await t.database.db.selectFrom('unlinked_event').select(['event_seq', 'carrier_code']).execute();
    expect(unlinked).toEqual([{ event_seq: seqs[1]!.seq, carrier_code: 'MAEU' }]);
    expect(await t.database.db.selectFrom('shipment').select('stated_at').executeTakeFirstOrThrow()).toEqual({ stated_at: null });

    // Its first statement after the upgrade applies whatever its time; an older one after it does not.
    const statement = (generatedDateTime: string, vesselName: string) =>
      bundleOf({ carrierCode: 'MAEU', generatedDateTime, shipments: [{ ...master, vesselName, accounts: [], containers: [] }] });
    expect(await ingestBundle(t.database, statement(at(1), 'MAERSK KIEL'), { now: () => new Date(at(20)) })).toMatchObject({
      shipmentsUpdated: 1,
    });
    expect(await ingestBundle(t.database, statement(at(0), 'MAERSK ESSEN'), { now: () => new Date(at(21)) })).toMatchObject({
      shipmentsOutdated: 1,
    });
    const row = await t.database.db.selectFrom('shipment').select(['master_json', 'stated_at']).executeTakeFirstOrThrow();
    expect(row.stated_at).toBe(at(1));
    expect(JSON.parse(row.master_json)).toMatchObject({ vesselName: 'MAERSK KIEL' });
  });
});

describe.each(dialects)('events stored before the DCSA publisher on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name, { migrateTo: '008-ordered-change-log' });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('get the columns GET /v2/events filters on (migration 010), from their payload', async () => {
    const db = t.database.db as Kysely<any>;
    const now = '2026-03-05T00:00:00.000Z';
    const event = transportEvent({
      type: 'DEPA',
      classifier: 'ACT',
      port: 'NLRTM',
      vessel: VESSELS.BRAVO,
      voyage: '611W',
      eventDateTime: at(10),
      created: at(11),
      booking: 'OLD-2',
    });
    const parsed = parseBundle({ carrierCode: 'MAEU', events: [event] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const stored = parsed.bundle.events[0]!;
    await db
      .insertInto('shipment')
      .values({ carrier_code: 'MAEU', carrier_booking_reference: 'OLD-2', master_json: JSON.stringify(shipmentMaster()), updated_at: now })
      .execute();
    const { id } = await db.selectFrom('shipment').select('id').executeTakeFirstOrThrow();
    await db.insertInto('shipment_account').values({ shipment_id: id, account_id: 'acct-old' }).execute();
    await db
      .insertInto('event')
      .values({
        event_id: stored.eventID,
        carrier_code: 'MAEU',
        event_type: stored.eventType,
        event_date_time: stored.eventDateTime,
        event_created_date_time: stored.eventCreatedDateTime,
        payload_json: JSON.stringify(stored),
        ingested_at: now,
      })
      .execute();
    const { seq } = await db.selectFrom('event').select('seq').executeTakeFirstOrThrow();
    await db.insertInto('shipment_event').values({ shipment_id: id, event_seq: seq }).execute();

    await migrateToLatest(t.database);
    const page = await readEventPage(t.database.db, {
      accountIds: ['acct-old'],
      filter: { transportEventTypeCode: ['DEPA'], UNLocationCode: 'NLRTM', vesselIMONumber: VESSELS.BRAVO.vesselIMONumber },
      created: {},
      sort: [{ field: 'eventCreatedDateTime', direction: 'ASC' }],
      limit: 10,
      position: { at: 'start' },
    });
    expect(page.rows.map((r) => r.event.eventID)).toEqual([stored.eventID]);
    expect(await db.selectFrom('event').select(['type_code', 'dcsa_publishable']).executeTakeFirstOrThrow()).toEqual({
      type_code: 'DEPA',
      dcsa_publishable: 1,
    });
  });
});
