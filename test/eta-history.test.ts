import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestBundle } from '../src/domain/bundle.js';
import { trainEtaModel, type EtaModel, type VoyageFacts } from '../src/domain/eta/predictor.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { orderCommittedChanges } from '../src/store/changes/change-order.js';
import { HISTORY_START, loadArrivedVoyages, loadVoyageFacts } from '../src/store/eta/eta-history.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { shipmentMaster } from './support/event-builders.js';
import { bookingOf, generateHistory } from './support/eta-voyages.js';

/**
 * The predicted arrival's history on both stores (src/store/eta/eta-history.ts): a generated history ingested
 * through ingestBundle as it was received (each event at its own time), read back as VoyageFacts, and trained:
 * the same model on every store, and the same as from the history in memory.
 */

const VOYAGES = 24;
const history = generateHistory(4949, VOYAGES);
// Four voyages still under way: their actual arrival is not received yet.
const UNDER_WAY = new Set([3, 10, 17, 22]);
const TRAINED_AT = '2027-01-01T00:00:00.000Z';

/** Every voyage's events, grouped by the moment they were received, ingested in that order: ingested_at is that moment. */
async function ingestHistory(database: TestDatabase['database']): Promise<void> {
  const byTime = new Map<string, IngestBundle['events']>();
  history.forEach(({ facts }, index) => {
    facts.events.forEach((event, i) => {
      if (
        UNDER_WAY.has(index) &&
        event.eventClassifierCode === 'ACT' &&
        event.eventType === 'TRANSPORT' &&
        event.transportEventTypeCode === 'ARRI'
      )
        return;
      const at = facts.receivedAt[i]!;
      byTime.set(at, [...(byTime.get(at) ?? []), event]);
    });
  });
  const shipments = history.map(({ facts }, index) =>
    shipmentMaster({
      carrierBookingReference: bookingOf(index),
      billOfLadingNumber: `${bookingOf(index)}B`,
      portOfLoading: { unLocationCode: facts.portOfLoading! },
      portOfDischarge: { unLocationCode: facts.portOfDischarge! },
      vesselName: 'MAERSK ALPHA',
      voyageNumber: `${100 + index}W`,
    }),
  );
  await ingestBundle(
    database,
    { shipments: shipments.map((s) => ({ ...s, accounts: ['acme'], containers: [] })), events: [] },
    { now: () => new Date('2025-01-01T00:00:00.000Z') },
  );
  for (const at of [...byTime.keys()].sort()) {
    await ingestBundle(database, { carrierCode: 'MAEU', shipments: [], events: byTime.get(at)! }, { now: () => new Date(at) });
  }
}

/**
 * Every arrived voyage, read in small batches so that the cursor is crossed many times. A voyage can come twice
 * (by the event store's position and by the change log's: src/store/eta/eta-history.ts, HistoryCursor); the
 * later one replaces it here, as folding it again replaces its samples in a model.
 */
async function allArrived(database: TestDatabase['database']): Promise<{ voyages: VoyageFacts[]; batches: number }> {
  const byId = new Map<string, VoyageFacts>();
  let cursor = HISTORY_START;
  let batches = 0;
  await orderCommittedChanges(database.db);
  for (;;) {
    const batch = await loadArrivedVoyages(database.db, cursor, 10);
    for (const voyage of batch.voyages) byId.set(voyage.shipmentId, voyage);
    batches++;
    cursor = batch.cursor;
    if (!batch.more) break;
  }
  return { voyages: [...byId.values()], batches };
}

const models = new Map<string, EtaModel>();

describe.each(dialects)('eta-history on $name', ({ name, enabled }) => {
  let test: TestDatabase;
  beforeAll(async () => {
    if (!enabled) return;
    test = await createTestDatabase(name);
    await ingestHistory(test.database);
  }, 60_000);
  afterAll(async () => {
    await test?.destroy();
  });

  it.skipIf(!enabled)(
    'loads one shipment’s voyage: its ports, carrier, vessel and every stored version with when it was stored',
    async () => {
      const facts = (await loadVoyageFacts(test.database.db, 1))!;
      const generated = history[0]!.facts;
      expect(facts).toMatchObject({
        shipmentId: '1',
        carrierCode: 'MAEU',
        portOfLoading: generated.portOfLoading,
        portOfDischarge: generated.portOfDischarge,
        vesselKey: 'MAERSK ALPHA/100W',
      });
      const stored = facts.events.map((e, i) => `${e.eventID} ${facts.receivedAt[i]}`).sort();
      const sent = generated.events.map((e, i) => `${e.eventID} ${generated.receivedAt[i]}`).sort();
      expect(stored).toEqual(sent);
      expect(await loadVoyageFacts(test.database.db, 9999)).toBeNull();
    },
  );

  it.skipIf(!enabled)('reads every arrived voyage by a cursor, leaving out those still under way', async () => {
    const { voyages, batches } = await allArrived(test.database);
    expect(batches).toBeGreaterThan(5);
    const ids = voyages.map((v) => Number(v.shipmentId));
    expect(new Set(ids).size).toBe(ids.length);
    const expected = history.map((_, i) => i + 1).filter((id) => !UNDER_WAY.has(id - 1));
    expect(ids.sort((a, b) => a - b)).toEqual(expected);
    // Read on from the last cursor: nothing new until something new arrives.
    const last = await loadArrivedVoyages(test.database.db, HISTORY_START, 1_000_000);
    expect((await loadArrivedVoyages(test.database.db, last.cursor)).voyages).toEqual([]);
  });

  it.skipIf(!enabled)('trains the same model on every store, deterministically, as from the same history in memory', async () => {
    const { voyages } = await allArrived(test.database);
    const model = trainEtaModel(voyages, TRAINED_AT);
    expect(model.voyages).toBe(VOYAGES - UNDER_WAY.size);
    expect(Object.keys(model.cells).length).toBeGreaterThan(4);
    expect(trainEtaModel([...voyages].reverse(), TRAINED_AT)).toEqual(model);
    // In memory: the same voyages under the ids the store gave them.
    const inMemory = trainEtaModel(
      history.map(({ facts }, index) => ({ ...facts, shipmentId: String(index + 1) })).filter((_, index) => !UNDER_WAY.has(index)),
      TRAINED_AT,
    );
    expect(model).toEqual(inMemory);
    for (const other of models.values()) expect(model).toEqual(other);
    models.set(name, model);
  });
});
