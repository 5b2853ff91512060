import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainEta } from '../src/app/eta-training.js';
import { trainEtaModel } from '../src/domain/eta/predictor.js';
import { voyageHash } from '../src/domain/eta/eta-model.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { orderCommittedChanges } from '../src/store/changes/change-order.js';
import { loadVoyagesOf, parseHistoryCursor } from '../src/store/eta/eta-history.js';
import { readEtaTraining, readLatestEtaModel } from '../src/store/eta/eta-model.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { bookingOf, voyageBundles, voyageHistory, type TimedBundle } from './support/voyage-history.js';

/**
 * ETA training's cursor and an arrival committed late (src/store/eta/eta-history.ts, HistoryCursor), on both stores.
 * An ingest's rows get their event.seq at insert and become visible at commit: an arrival whose transaction
 * commits after a training pass read past its seq has a smaller seq than the cursor. The test makes exactly that:
 * the arrival's ingest is written, and the rows that make it visible to training (its shipment_event link and its
 * change_log row) are held back, as an open transaction holds them, while a later ingest and a training pass go
 * by; then they are "committed". The next pass learns from it: the change log numbers rows after they commit.
 */

const DAY = 86_400_000;
const FIRST_DEPARTURE = new Date('2026-01-01T00:00:00.000Z');
const NOW = new Date('2026-03-15T00:00:00.000Z');
const ARRIVED = 20;
/** The voyage whose arrival commits late. */
const LATE = ARRIVED;

async function ingest(database: TestDatabase['database'], { at, bundle }: TimedBundle): Promise<void> {
  const parsed = parseBundle(bundle);
  if (!parsed.ok) throw new Error(`invalid test bundle: ${JSON.stringify(parsed.issues)}`);
  await ingestBundle(database, parsed.bundle, { now: () => at });
}

/** A database holding ARRIVED voyages that arrived, each ingested at its times. */
async function arrivedHistory(name: (typeof dialects)[number]['name']): Promise<TestDatabase> {
  const t = await createTestDatabase(name);
  for (const bundle of voyageHistory({ count: ARRIVED, underWay: 0, firstDeparture: FIRST_DEPARTURE, now: NOW })) {
    await ingest(t.database, bundle);
  }
  return t;
}

describe.each(dialects)('ETA training and an arrival committed late, on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let lateShipment: number;

  beforeAll(async () => {
    if (enabled) t = await arrivedHistory(name);
  }, 120_000);
  afterAll(async () => {
    await t?.destroy();
  });

  it.skipIf(!enabled)('a pass after the late commit learns from the arrival whose seq is below the cursor', async () => {
    const { db } = t.database;
    const [booked, departed, arrival] = voyageBundles(LATE, FIRST_DEPARTURE.getTime() + 30 * DAY, { arrived: true });
    for (const part of [booked!, departed!, arrival!]) await ingest(t.database, part);
    const shipment = await db
      .selectFrom('shipment')
      .select('id')
      .where('carrier_booking_reference', '=', bookingOf(LATE))
      .executeTakeFirstOrThrow();
    lateShipment = Number(shipment.id);
    // The arrival's ingest, not yet committed: what makes it visible is held back.
    const arrivalSeq = Number(
      (
        await db
          .selectFrom('event')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .executeTakeFirstOrThrow()
      ).seq,
    );
    const links = await db.selectFrom('shipment_event').selectAll().where('event_seq', '=', arrivalSeq).execute();
    const changes = await db
      .selectFrom('change_log')
      .selectAll()
      .where('shipment_id', '=', lateShipment)
      .where('created_at', '=', arrival!.at.toISOString())
      .execute();
    expect(links).toHaveLength(1);
    expect(changes.map((c) => c.trigger_type)).toContain('EVENT_TRIGGER');
    await db.deleteFrom('shipment_event').where('event_seq', '=', arrivalSeq).execute();
    await db
      .deleteFrom('change_log')
      .where(
        'id',
        'in',
        changes.map((c) => c.id),
      )
      .execute();

    // Meanwhile a later ingest commits (a larger seq), and a training pass reads past both.
    await ingest(t.database, voyageBundles(LATE + 1, NOW.getTime() - 2 * DAY, { arrived: false })[0]!);
    const first = await trainEta(t.database, { now: () => NOW, batchEvents: 7, pauseMs: 0 });
    expect(first).toMatchObject({ kind: 'trained', learned: ARRIVED, voyages: ARRIVED });
    const afterFirst = parseHistoryCursor((await readEtaTraining(db))!.history_cursor);
    expect(afterFirst.seq).toBeGreaterThan(arrivalSeq);
    const held = (model: { cells: Record<string, [number, number, number, number, number, number][]> }) =>
      Object.values(model.cells).some((samples) => samples.some((s) => s[5] === voyageHash(String(lateShipment))));
    expect(held((await readLatestEtaModel(db))!.model)).toBe(false);

    // The arrival's transaction commits now: its rows become visible, its change_log row still unnumbered.
    await db.insertInto('shipment_event').values(links).execute();
    await db
      .insertInto('change_log')
      .values(changes.map(({ id: _id, commit_seq: _seq, ...row }) => row))
      .execute();

    const second = await trainEta(t.database, { now: () => NOW, batchEvents: 7, pauseMs: 0 });
    expect(second).toMatchObject({ kind: 'trained', learned: 1, voyages: ARRIVED + 1, version: 2 });
    // Nothing new in the event store: its position alone would have passed the arrival by for good.
    expect(parseHistoryCursor((await readEtaTraining(db))!.history_cursor).seq).toBe(afterFirst.seq);
    const stored = (await readLatestEtaModel(db))!;
    expect(held(stored.model)).toBe(true);
    // The same model as learned from the whole history at once.
    const ids = (await db.selectFrom('shipment').select('id').orderBy('id').execute()).map((r) => Number(r.id));
    const everything = trainEtaModel(await loadVoyagesOf(db, ids), NOW.toISOString());
    expect(stored.model.cells).toEqual(everything.cells);
    expect(stored.voyages).toBe(everything.voyages);

    // And a third pass has nothing left to learn.
    expect(await trainEta(t.database, { now: () => NOW, batchEvents: 7, pauseMs: 0 })).toMatchObject({ learned: 0, version: 2 });
  });
});

/**
 * A change log nobody numbered for a long time (no reader ran, or a restored copy): training numbers it over many
 * batches, a bounded share before each, renewing its lease in between, instead of in one call that could outlast
 * the lease (src/app/eta-training.ts, NUMBERED_PER_BATCH); and it goes on until the log is numbered to its end.
 */
describe.each(dialects)('ETA training over a long unnumbered change log, on $name', ({ name, enabled }) => {
  let t: TestDatabase;

  beforeAll(async () => {
    if (enabled) t = await arrivedHistory(name);
  }, 120_000);
  afterAll(async () => {
    await t?.destroy();
  });

  it.skipIf(!enabled)('numbers a bounded share of it per call, in id order, and training numbers it all', async () => {
    const { db } = t.database;
    const unnumbered = async () =>
      (await db.selectFrom('change_log').select('id').where('commit_seq', 'is', null).orderBy('id').execute()).map((r) => Number(r.id));
    const before = await unnumbered();
    expect(before.length).toBeGreaterThan(10);

    // Whole batches of 2 until at least 3 rows: 4 rows, the lowest ids.
    expect(await orderCommittedChanges(db, { maxRows: 3, batchRows: 2 })).toBe(4);
    expect(await unnumbered()).toEqual(before.slice(4));

    const run = await trainEta(t.database, { now: () => NOW, batchEvents: 100_000, pauseMs: 0, numberedPerBatch: 3 });
    expect(run).toMatchObject({ kind: 'trained', learned: ARRIVED, voyages: ARRIVED });
    // One page of events held the whole history, yet the run went on while numbering still had rows to do.
    expect(await unnumbered()).toEqual([]);
  });
});
