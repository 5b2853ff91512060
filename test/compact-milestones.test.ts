import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShipmentStates } from '../src/store/shipments/chunked-state.js';
import { backfillCompactMilestones } from '../src/store/shipments/compact-milestones.js';
import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
import { finishUpgrade } from '../src/store/housekeeping/upgrade-finish.js';
import { decodeMilestonesJson, encodeMilestonesJson } from '../src/store/shipments/milestones-payload.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { CARRIER, eventId, rawShipment, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * A shipment's milestone index stored compact (migration 023; docs/architecture.md, Event storage: Shipment rows):
 * it reads back as the text the refresh wrote, the push triggers detected against it (a new milestone, a flip to
 * ACT) still fire, rows of the plain form (before 023) keep working and the backfill converts them.
 */
describe('the stored form of a milestone index', () => {
  it('decodes to the text encoded, byte for byte; plain rows read as they are; an unknown marker is an error', () => {
    for (const text of [
      '{}',
      JSON.stringify({ 'a|b': { c: 'ACT', t: '2024-03-05T10:00:00+01:00', s: '東京港 🚢 "q" \\' } }),
      'x'.repeat(100_000),
    ]) {
      expect(decodeMilestonesJson({ milestones: encodeMilestonesJson(text), milestones_json: null })).toBe(text);
      expect(decodeMilestonesJson({ milestones: null, milestones_json: text })).toBe(text);
    }
    expect(decodeMilestonesJson({ milestones: null, milestones_json: null })).toBeNull();
    const unknown = encodeMilestonesJson('{}');
    unknown[0] = 0x7f;
    expect(() => decodeMilestonesJson({ milestones: unknown, milestones_json: null })).toThrow(/unknown format/);
  });
});

const SHIPMENT = rawShipment({ containers: [] });
const planned = rawTransportEvent(1, { eventClassifierCode: 'PLN', transportEventTypeCode: 'DEPA' });
const actual = rawTransportEvent(2, { eventClassifierCode: 'ACT', transportEventTypeCode: 'DEPA' });
const arrival = rawTransportEvent(3, {
  eventClassifierCode: 'EST',
  transportEventTypeCode: 'ARRI',
  eventDateTime: '2024-03-20T10:00:00+08:00',
});

describe.each(dialects)('milestone indexes stored compact on $name', ({ name, enabled }) => {
  let f: TestApp;
  let db: Kysely<any>;
  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    db = f.t.database.db as Kysely<any>;
  });
  afterAll(async () => f?.destroy());

  const row = async () =>
    (await db.selectFrom('shipment').select(['id', 'milestones', 'milestones_json']).executeTakeFirstOrThrow()) as {
      id: number;
      milestones: Uint8Array | null;
      milestones_json: string | null;
    };
  const eventTriggers = async () =>
    (
      await db.selectFrom('change_log').select('triggered_by_event').where('trigger_type', '=', 'EVENT_TRIGGER').orderBy('id').execute()
    ).map((r: { triggered_by_event: string | null }) => r.triggered_by_event);
  /** Back to the form of a row written before migration 023. */
  const makePlain = async (id: number, text: string) => {
    await db.updateTable('shipment').set({ milestones: null, milestones_json: text }).where('id', '=', id).execute();
  };

  it.skipIf(!enabled)(
    'writes the compact form, reads it back exactly, and a flip to ACT or a new milestone still triggers, from either form',
    async () => {
      await f.ingest({ carrierCode: CARRIER, shipments: [SHIPMENT], events: [planned] });
      const first = await row();
      expect(first.milestones_json).toBeNull();
      expect(first.milestones?.[0]).toBe(0x01);
      const text = decodeMilestonesJson(first)!;
      expect(Object.keys(JSON.parse(text) as object).length).toBeGreaterThan(0);
      // The ingest's state load reads the same text.
      const states = await loadShipmentStates(f.t.database.db, f.t.database.dialect, [first.id]);
      expect(states.get(first.id)?.milestonesJson).toBe(text);
      expect(await eventTriggers()).toEqual([]);

      // The flip to ACT, detected against the compact form.
      await f.ingest({ carrierCode: CARRIER, events: [actual] });
      expect(await eventTriggers()).toEqual([eventId(2)]);
      const flipped = await row();
      expect(flipped.milestones_json).toBeNull();
      const flippedText = decodeMilestonesJson(flipped)!;
      expect(flippedText).not.toBe(text);

      // A row of the plain form: a new milestone is detected against it, and the refresh writes the compact form.
      await makePlain(flipped.id, flippedText);
      expect((await loadShipmentStates(f.t.database.db, f.t.database.dialect, [flipped.id])).get(flipped.id)?.milestonesJson).toBe(
        flippedText,
      );
      await f.ingest({ carrierCode: CARRIER, events: [arrival] });
      expect(await eventTriggers()).toEqual([eventId(2), eventId(3)]);
      const after = await row();
      expect(after.milestones_json).toBeNull();
      expect(JSON.parse(decodeMilestonesJson(after)!)).toMatchObject(JSON.parse(flippedText) as object);

      // Nothing new: no trigger, whether the stored index is compact or plain.
      await f.ingest({ carrierCode: CARRIER, events: [planned, actual, arrival] });
      await makePlain(after.id, decodeMilestonesJson(after)!);
      await f.ingest({ carrierCode: CARRIER, events: [planned, actual, arrival] });
      expect(await eventTriggers()).toEqual([eventId(2), eventId(3)]);
    },
  );

  it.skipIf(!enabled)('backfills plain rows in batches, each to the same text, and finds nothing left on a second run', async () => {
    const { id } = await row();
    const text = decodeMilestonesJson(await row())!;
    await makePlain(id, text);
    expect(await backfillCompactMilestones(f.t.database.db, { batch: 1 })).toBe(1);
    const converted = await row();
    expect(converted.milestones_json).toBeNull();
    expect(decodeMilestonesJson(converted)).toBe(text);
    expect(await backfillCompactMilestones(f.t.database.db)).toBe(0);
  });
});

describe.each(dialects)('milestone indexes stored before migration 023 on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name, { migrateTo: '021-compact-events' });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('stay plain through the migration that adds the compact form, and are converted by finish', async () => {
    const db = t.database.db as Kysely<any>;
    const texts = [JSON.stringify({ 'DEPA|NLRTM': { c: 'ACT', s: '東京港 🚢' } }), '{}', null];
    for (const [i, text] of texts.entries()) {
      await db
        .insertInto('shipment')
        .values({
          carrier_code: CARRIER,
          carrier_booking_reference: `OLD${i}`,
          master_json: '{}',
          updated_at: '2026-03-01T00:00:00.000Z',
          milestones_json: text,
        })
        .execute();
    }
    expect(await migrateToLatest(t.database)).toContain('023-event-scale');
    // An expand step: the rows are as the previous release wrote them.
    const before = await db.selectFrom('shipment').select(['milestones', 'milestones_json']).orderBy('id').execute();
    expect(before).toEqual(texts.map((text) => ({ milestones: null, milestones_json: text })));
    expect(await finishUpgrade(t.database, { previousReleaseStopped: true, propagationMs: 0 })).toMatchObject({ status: 'finished' });
    const rows = await db.selectFrom('shipment').select(['milestones', 'milestones_json']).orderBy('id').execute();
    expect(rows.map((r: { milestones: Uint8Array | null; milestones_json: string | null }) => decodeMilestonesJson(r))).toEqual(texts);
    expect(rows.map((r: { milestones_json: string | null }) => r.milestones_json)).toEqual([null, null, null]);
    // The shipment that had no index yet still has none (nothing to compare a first refresh with).
    expect(rows[2]!.milestones).toBeNull();
  });
});
