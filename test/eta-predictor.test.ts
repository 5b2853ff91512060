import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ETA_BASES, predictArrival, trainEtaModel, updateEtaModel, type EtaModel, type VoyageFacts } from '../src/domain/eta/predictor.js';
import { computeSchedule } from '../src/domain/snapshot.js';
import type { TransportEvent } from '../src/domain/types.js';
import { at, transportEvent, VESSELS } from './support/event-builders.js';
import { generateHistory, generateVoyage, seededRandom } from './support/eta-voyages.js';

/** The predictor as a pure function (src/domain/eta/predictor.ts; docs/predicted-arrival.md). */

const TRAINED_AT = '2026-09-01T00:00:00.000Z';
const history = generateHistory(49, 90);
const model: EtaModel = trainEtaModel(
  history.map((v) => v.facts),
  TRAINED_AT,
);

/** The snapshot's `eta` from the events received by asOf: what the carrier says at that moment. */
function carrierEtaAt(voyage: VoyageFacts, asOf: string): string | null {
  const transport = voyage.events.filter((e, i): e is TransportEvent => e.eventType === 'TRANSPORT' && voyage.receivedAt[i]! <= asOf);
  return computeSchedule({ portOfDischarge: { unLocationCode: voyage.portOfDischarge! } }, transport).eta;
}

/** A moment in the voyage's life, from a fraction of the span between its first event received and its last. */
function momentIn(voyage: VoyageFacts, fraction: number): string {
  const times = voyage.receivedAt.map((t) => Date.parse(t));
  const first = Math.min(...times);
  const last = Math.max(...times);
  return new Date(Math.round(first + (last - first) * fraction)).toISOString();
}

describe('predictArrival', () => {
  it('always gives an interval that holds its estimate (with and without a model)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        (seed, fraction, withModel) => {
          const { facts } = generateVoyage(seededRandom(seed), seed % 7, 200 * 24);
          const p = predictArrival(withModel ? model : null, facts, momentIn(facts, fraction));
          if (p === null) return;
          expect(p.earliestDateTime <= p.estimatedDateTime).toBe(true);
          expect(p.estimatedDateTime <= p.latestDateTime).toBe(true);
          expect(p.coverage).toBe(0.8);
          expect(ETA_BASES).toContain(p.basis);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('without history gives the carrier’s ETA, basis CARRIER_ETA_ONLY, a wide interval and no training time', () => {
    const { facts } = generateVoyage(seededRandom(7), 1, 200 * 24);
    const asOf = momentIn(facts, 0.3);
    const p = predictArrival(null, facts, asOf)!;
    expect(p.basis).toBe('CARRIER_ETA_ONLY');
    expect(p.estimatedDateTime).toBe(carrierEtaAt(facts, asOf));
    expect(p.carrierEstimatedDateTime).toBe(carrierEtaAt(facts, asOf));
    expect(p.sampleSize).toBe(0);
    expect(p.trainedAt).toBeNull();
    expect(Date.parse(p.latestDateTime) - Date.parse(p.estimatedDateTime)).toBeGreaterThanOrEqual(48 * 3_600_000);
    expect(Date.parse(p.estimatedDateTime) - Date.parse(p.earliestDateTime)).toBeGreaterThanOrEqual(12 * 3_600_000);
  });

  it('with a model that knows nothing of the carrier or lane still gives the carrier’s ETA as it is', () => {
    const { facts } = generateVoyage(seededRandom(8), 1, 200 * 24, 'ZZZZ');
    const stranger = { ...facts, portOfLoading: 'USLAX', portOfDischarge: facts.portOfDischarge };
    const asOf = momentIn(stranger, 0.3);
    const p = predictArrival(model, stranger, asOf)!;
    expect(p.basis).toBe('CARRIER_ETA_ONLY');
    expect(p.estimatedDateTime).toBe(carrierEtaAt(stranger, asOf));
    expect(p.trainedAt).toBe(TRAINED_AT);
  });

  it('is absent only when the carrier gave no ETA and no history exists', () => {
    const departureOnly: VoyageFacts = {
      shipmentId: 'S-none',
      carrierCode: 'MAEU',
      portOfLoading: 'CNSHA',
      portOfDischarge: 'NLRTM',
      vesselKey: null,
      events: [
        transportEvent({
          port: 'CNSHA',
          vessel: VESSELS.ALPHA,
          voyage: '1W',
          type: 'DEPA',
          classifier: 'PLN',
          eventDateTime: at(500),
          created: at(0),
        }),
      ],
      receivedAt: [at(1)],
    };
    expect(predictArrival(null, departureOnly, at(10))).toBeNull();
    // With the lane's transit history, the departure plus its transit times.
    const p = predictArrival(model, departureOnly, at(10))!;
    expect(p.basis).toBe('TRANSIT');
    expect(p.carrierEstimatedDateTime).toBeNull();
    expect(Date.parse(p.estimatedDateTime)).toBeGreaterThan(Date.parse(at(500 + 30 * 24)));
  });

  it('uses only events received by asOf: later events shuffled in change nothing earlier', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.double({ min: 0.05, max: 0.95, noNaN: true }), (seed, fraction) => {
        const random = seededRandom(seed);
        const { facts } = generateVoyage(random, seed % 5, 200 * 24);
        const asOf = momentIn(facts, fraction);
        const known = facts.events.map((e, i) => ({ e, r: facts.receivedAt[i]! })).filter((x) => x.r <= asOf);
        const earlier: VoyageFacts = { ...facts, events: known.map((x) => x.e), receivedAt: known.map((x) => x.r) };
        // Later versions of everything (ETAs moved, actuals corrected), received after asOf, shuffled in.
        const later = facts.events.map((e) => ({
          e: {
            ...e,
            eventID: `${e.eventID}-later`,
            eventDateTime: at(24 * (random() - 0.5) * 20, e.eventDateTime),
            eventCreatedDateTime: at(1, asOf),
          },
          r: at(1 + random() * 500, asOf),
        }));
        const all = [...known, ...later, ...facts.events.map((e, i) => ({ e, r: facts.receivedAt[i]! })).filter((x) => x.r > asOf)];
        for (let i = all.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [all[i], all[j]] = [all[j]!, all[i]!];
        }
        const shuffled: VoyageFacts = { ...facts, events: all.map((x) => x.e), receivedAt: all.map((x) => x.r) };
        expect(predictArrival(model, shuffled, asOf)).toEqual(predictArrival(model, earlier, asOf));
      }),
      { numRuns: 200 },
    );
  });

  it('gives the same prediction for one voyage asked again at other times as for a fresh copy of it (nothing asked before leaks in)', () => {
    // A voyage prepares once what no asOf after its last event changes (voyage-state.ts): asked at times after and
    // before its last event, in any order, it must answer as a copy asked at that time alone.
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.array(fc.double({ min: 0.05, max: 1.5, noNaN: true }), { minLength: 2, maxLength: 6 }),
        (seed, fractions) => {
          const { facts } = generateVoyage(seededRandom(seed), seed % 5, 200 * 24);
          for (const fraction of fractions) {
            const asOf =
              fraction <= 0.95
                ? momentIn(facts, fraction)
                : at(
                    24 * 30 * (fraction - 0.95),
                    facts.receivedAt.reduce((a, b) => (a > b ? a : b)),
                  );
            const fresh: VoyageFacts = { ...facts, events: [...facts.events], receivedAt: [...facts.receivedAt] };
            expect(predictArrival(model, facts, asOf)).toEqual(predictArrival(model, fresh, asOf));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('corrects a carrier that is late on a lane: closer to the arrival than the carrier on voyages it did not learn from', () => {
    const unseen = generateHistory(50, 40).map((v, i) => generateVoyage(seededRandom(1000 + i), i, 400 * 24 + i * 24));
    let ours = 0;
    let carrier = 0;
    for (const { facts, arrival } of unseen) {
      // Ten days before the actual arrival.
      const asOf = at(-240, arrival);
      const p = predictArrival(model, facts, asOf)!;
      expect(p.basis).toBe('CARRIER_LANE');
      expect(p.sampleSize).toBeGreaterThan(8);
      ours += Math.abs(Date.parse(p.estimatedDateTime) - Date.parse(arrival));
      carrier += Math.abs(Date.parse(p.carrierEstimatedDateTime!) - Date.parse(arrival));
    }
    expect(ours).toBeLessThan(carrier * 0.75);
  });

  it('gives the actual arrival once the vessel has arrived', () => {
    const { facts, arrival } = history[0]!;
    const p = predictArrival(model, facts, at(48, arrival))!;
    expect(p).toMatchObject({ basis: 'ACTUAL', estimatedDateTime: arrival, earliestDateTime: arrival, latestDateTime: arrival });
  });
});

describe('trainEtaModel', () => {
  it('is deterministic: the same voyages in any order give the same model', () => {
    const voyages = history.map((v) => v.facts);
    const random = seededRandom(3);
    const shuffled = [...voyages].sort(() => random() - 0.5);
    expect(JSON.stringify(trainEtaModel(shuffled, TRAINED_AT))).toBe(JSON.stringify(model));
  });

  it('skips voyages without an actual arrival', () => {
    const underWay = history.slice(0, 5).map(({ facts }) => {
      const keep = facts.events
        .map((e, i) => i)
        .filter(
          (i) =>
            facts.events[i]!.eventClassifierCode !== 'ACT' ||
            facts.events[i]!.eventType !== 'TRANSPORT' ||
            (facts.events[i] as TransportEvent).transportEventTypeCode !== 'ARRI',
        );
      return { ...facts, events: keep.map((i) => facts.events[i]!), receivedAt: keep.map((i) => facts.receivedAt[i]!) };
    });
    const trained = trainEtaModel(underWay, TRAINED_AT);
    expect(trained.voyages).toBe(0);
    expect(trained.cells).toEqual({});
  });

  it('incrementally: folding the later voyages into a model of the earlier ones gives the model of all of them', () => {
    const voyages = history.map((v) => v.facts);
    const first = trainEtaModel(voyages.slice(0, 50), '2026-08-01T00:00:00.000Z');
    const updated = updateEtaModel(first, voyages.slice(50), TRAINED_AT);
    expect(updated).toEqual(model);
    expect(JSON.parse(JSON.stringify(updated))).toEqual(updated);
    expect(updated.format).toBe(1);
  });

  it('counts a voyage a run folds twice once, even when its samples were cut from the cells in between', () => {
    // Enough voyages for cells to keep only their MAX_SAMPLES most recent: the earliest voyages' samples are cut.
    const voyages = generateHistory(77, 1000).map((v) => v.facts);
    const counted = new Set<number>();
    const once = updateEtaModel(trainEtaModel([], TRAINED_AT), voyages, TRAINED_AT, counted);
    expect(once.voyages).toBe(counted.size);
    // Found again by the run's other position: no voyage is new.
    const twice = updateEtaModel(once, voyages.slice(0, 300), TRAINED_AT, counted);
    expect(twice.voyages).toBe(once.voyages);
    // Without the run's set, the voyages whose samples were cut would be counted again (what the set prevents).
    expect(updateEtaModel(once, voyages.slice(0, 300), TRAINED_AT).voyages).toBeGreaterThan(once.voyages);
  });
});
