import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectEpisodes, exceptionIdFor } from '../src/domain/exception-engine.js';
import { clearRow, reconcileExceptions, type LifecycleRow } from '../src/domain/exception-lifecycle.js';
import type { EventClassifierCode, TrackingEvent, TrackingException, Vessel } from '../src/domain/types.js';
import { at, CONTAINERS, containerMaster, equipmentEvent, shipmentMaster, transportEvent, VESSELS } from './support/event-builders.js';
import { DEFAULT_THRESHOLDS } from './support/exception-engine-fixtures.js';
import { ShipmentMemory } from './support/lifecycle-fixtures.js';

/**
 * The lifecycle of docs/architecture.md, Exception rules (src/domain/exception-lifecycle.ts): what
 * a client has seen is never taken back, whatever the carriers report next.
 * Each case of issue 8 is reproduced here on the pure layer; the store tests
 * (exception-lifecycle.store.test.ts) repeat them through the database.
 */

const [C1, C2] = CONTAINERS;
interface Call {
  vessel: Vessel;
  voyage: string;
}
const X: Call = { vessel: VESSELS.ALPHA, voyage: '610W' };
const Y: Call = { vessel: VESSELS.CHARLIE, voyage: '620W' };
const rolloverSubject = (container: string, call: Call) => `${container}/CNSHA/${call.vessel.vesselIMONumber}/${call.voyage}`;

function loadPlan(container: string, call: Call, loadAt: number, created: number) {
  return equipmentEvent({
    type: 'LOAD',
    classifier: 'PLN',
    container,
    port: 'CNSHA',
    ...call,
    eventDateTime: at(loadAt),
    created: at(created),
  });
}
function loaded(container: string, call: Call, when: number, created = when) {
  return equipmentEvent({
    type: 'LOAD',
    classifier: 'ACT',
    container,
    port: 'CNSHA',
    ...call,
    eventDateTime: at(when),
    created: at(created),
  });
}
function departed(call: Call, when: number, created = when) {
  return transportEvent({ type: 'DEPA', classifier: 'ACT', port: 'CNSHA', ...call, eventDateTime: at(when), created: at(created) });
}
/** An arrival version at Rotterdam (port of discharge), `delay` hours after the planned 720 h. */
function arrival(classifier: EventClassifierCode, delay: number, created: number) {
  return transportEvent({
    type: 'ARRI',
    classifier,
    port: 'NLRTM',
    vessel: VESSELS.BRAVO,
    voyage: '611W',
    eventDateTime: at(720 + delay),
    created: at(created),
  });
}
function box(type: 'DISC' | 'GTOT', when: number, created = when + 1) {
  return equipmentEvent({
    type,
    classifier: 'ACT',
    container: C1,
    port: 'NLRTM',
    ...(type === 'DISC' ? { vessel: VESSELS.BRAVO, voyage: '611W' } : {}),
    eventDateTime: at(when),
    created: at(created),
  });
}

const shipment = shipmentMaster();
const only = (list: TrackingException[]) => {
  expect(list).toHaveLength(1);
  return list[0] as TrackingException;
};

describe('a served exception never disappears', () => {
  it('ROLLOVER served DETECTED, then the load arrives stamped before the departure: RESOLVED EVENT_ACTUALIZED, same ID', () => {
    const memory = new ShipmentMemory();
    const detected = only(memory.learn([loadPlan(C1, X, 40, 0), departed(X, 50)], at(55)));
    expect(detected).toMatchObject({
      exceptionID: exceptionIdFor(shipment, 'ROLLOVER', rolloverSubject(C1, X)),
      status: 'DETECTED',
      detectedDateTime: at(50),
    });
    // Loaded at 45 h, created at 46 h, but only delivered at 60 h: the roll never happened.
    const late = loaded(C1, X, 45, 46);
    const resolved = only(memory.learn([late], at(60)));
    expect(resolved).toMatchObject({
      exceptionID: detected.exceptionID,
      status: 'RESOLVED',
      resolutionType: 'EVENT_ACTUALIZED',
      detectedDateTime: detected.detectedDateTime,
      // Dated when the service learned it; the note says what happened when.
      resolvedDateTime: at(60),
      relatedEventID: late.eventID,
    });
    expect(resolved.resolutionNote).toContain('was loaded on MAERSK ALPHA');
    expect(resolved.resolutionNote).toContain(at(45).slice(0, 10));
    // Learning nothing new changes nothing.
    expect(memory.learn([], at(70))).toEqual([resolved]);
  });

  it('DEMURRAGE_RISK served CRITICAL, then a gate-out dated before the warning window: RESOLVED EVENT_ACTUALIZED', () => {
    const memory = new ShipmentMemory(shipment, [containerMaster(C1, { free_time_exp_dt: at(800) })]);
    const critical = only(memory.learn([box('DISC', 720)], at(810)));
    expect(critical).toMatchObject({ exceptionType: 'DEMURRAGE_RISK', severity: 'CRITICAL', status: 'DETECTED' });
    const out = box('GTOT', 740);
    const list = memory.learn([out], at(820));
    // The gate-out starts the detention clock instead: a new, separate exception.
    expect(list.map((e) => e.exceptionType).sort()).toEqual(['DEMURRAGE_RISK', 'DETENTION_RISK']);
    const resolved = memory.byId(critical.exceptionID);
    expect(resolved).toMatchObject({
      exceptionID: critical.exceptionID,
      status: 'RESOLVED',
      resolutionType: 'EVENT_ACTUALIZED',
      resolvedDateTime: at(820),
      relatedEventID: out.eventID,
      detectedDateTime: critical.detectedDateTime,
    });
    expect(resolved.resolutionNote).toContain('gated out');
  });

  it('DEMURRAGE_RISK served WARNING, then the free time moves 10 days later: RESOLVED DATA_CORRECTED', () => {
    const memory = new ShipmentMemory(shipment, [containerMaster(C1, { free_time_exp_dt: at(800) })]);
    const warning = only(memory.learn([box('DISC', 720)], at(760)));
    expect(warning).toMatchObject({ severity: 'WARNING', status: 'DETECTED' });
    const resolved = only(memory.learn([], at(770), { containers: [containerMaster(C1, { free_time_exp_dt: at(1040) })] }));
    expect(resolved).toMatchObject({
      exceptionID: warning.exceptionID,
      status: 'RESOLVED',
      resolutionType: 'DATA_CORRECTED',
      resolvedDateTime: at(770),
    });
    expect(resolved.resolutionNote).toContain('free time');
    expect(resolved.resolutionNote).toContain(at(1040).slice(0, 10));
    // When the new window opens, the risk is a new exception: the corrected one stays resolved.
    const later = memory.learn([], at(1000));
    expect(later).toHaveLength(2);
    expect(memory.byId(warning.exceptionID)).toEqual(resolved);
    expect(later.find((e) => e.status === 'DETECTED')).toMatchObject({
      exceptionID: exceptionIdFor(shipment, 'DEMURRAGE_RISK', C1, 1),
      detectedDateTime: at(992),
    });
  });

  it('a cleared ETA_DELAY stays cleared when an older estimate of the same delay arrives late', () => {
    const memory = new ShipmentMemory();
    const detected = only(memory.learn([arrival('PLN', 0, 0), arrival('EST', 20, 48)], at(50)));
    const cleared = clearRow(memory.rows[0] as LifecycleRow, 'customer informed', at(60));
    memory.rows = [cleared.row];
    expect(cleared.transition).toMatchObject({ kind: 'RESOLVED', exceptionID: detected.exceptionID });
    const before = memory.served();
    // Created at 30 h, before the estimate that raised it, delivered at 70 h.
    expect(memory.learn([arrival('EST', 25, 30)], at(70))).toEqual(before);
    expect(before[0]).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'MANUAL_CLEAR',
      resolvedDateTime: at(60),
      detectedDateTime: at(48),
    });
    // It worsens: still the same cleared episode.
    expect(memory.learn([arrival('EST', 60, 80)], at(80))).toEqual(before);
    // It recovers, then slips again: that is new, a new exception.
    const list = memory.learn([arrival('EST', 2, 90), arrival('EST', 30, 100)], at(100));
    expect(list).toHaveLength(2);
    expect(memory.byId(detected.exceptionID)).toEqual(before[0]);
    expect(memory.byId(exceptionIdFor(shipment, 'ETA_DELAY', 'NLRTM', 1))).toMatchObject({
      status: 'DETECTED',
      detectedDateTime: at(100),
    });
  });

  it('an estimate stamped two days ahead (carrier clock) is never detected after the service learned it', () => {
    const memory = new ShipmentMemory();
    const skewed = arrival('EST', 30, 148); // created "at 148 h", delivered at 100 h
    const e = only(memory.learn([arrival('PLN', 0, 0), skewed], at(100)));
    expect(e).toMatchObject({ status: 'DETECTED', detectedDateTime: at(100), relatedEventID: skewed.eventID });
    // Later evaluations keep what was served.
    expect(only(memory.learn([], at(200))).detectedDateTime).toBe(at(100));
  });

  it('a condition the service never saw (ended before it heard of it) is shown, RESOLVED when first shown', () => {
    const memory = new ShipmentMemory();
    const list = memory.learn([arrival('PLN', 0, 0), arrival('EST', 20, 48), arrival('EST', 1, 60)], at(100));
    expect(only(list)).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'SCHEDULE_RECOVERED',
      detectedDateTime: at(48),
      resolvedDateTime: at(60),
    });
    expect(memory.transitions.map((t) => t.kind)).toEqual(['DETECTED', 'RESOLVED']);
  });

  it('an episode hidden inside a resolved one (late news) becomes its own exception; the resolved one is unchanged', () => {
    const memory = new ShipmentMemory();
    const first = only(memory.learn([arrival('PLN', 0, 0), arrival('EST', 20, 10), arrival('EST', 0, 50)], at(60)));
    expect(first.status).toBe('RESOLVED');
    // Late: it had recovered at 20 h and slipped again at 30 h.
    const list = memory.learn([arrival('EST', 0, 20), arrival('EST', 24, 30)], at(70));
    expect(list).toHaveLength(2);
    expect(memory.byId(first.exceptionID)).toEqual(first);
    expect(list.every((e) => e.status === 'RESOLVED')).toBe(true);
  });

  it('keeps every row when the facts no longer raise anything (a port of discharge corrected away)', () => {
    const memory = new ShipmentMemory();
    const e = only(memory.learn([arrival('PLN', 0, 0), arrival('EST', 20, 48)], at(50)));
    memory.shipment = shipmentMaster({ portOfDischarge: { unLocationCode: 'DEHAM', locationName: 'Hamburg' } });
    const after = only(memory.learn([], at(60)));
    expect(after).toMatchObject({ exceptionID: e.exceptionID, status: 'RESOLVED', resolutionType: 'DATA_CORRECTED' });
  });

  it('adopts a row stored before subjects were kept, by its ID, and keeps following it', () => {
    const facts = [arrival('PLN', 0, 0), arrival('EST', 20, 48)];
    const memory = new ShipmentMemory();
    const e = only(memory.learn(facts, at(50)));
    const legacy: LifecycleRow = { ...(memory.rows[0] as LifecycleRow), subject: '', condition: null, raisedBy: null };
    const result = reconcileExceptions({
      shipment,
      stored: [legacy],
      episodes: detectEpisodes({
        shipment,
        containers: memory.containers,
        events: [...facts, arrival('EST', 60, 55)],
        now: at(56),
        thresholds: DEFAULT_THRESHOLDS,
      }),
      now: at(56),
      explainLapse: () => {
        throw new Error('not a lapse');
      },
    });
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]).toMatchObject({ exceptionID: e.exceptionID, subject: 'NLRTM' });
    expect(result.rows[0]?.body).toMatchObject({ severity: 'CRITICAL', status: 'DETECTED' });
  });
});

describe('detection is based on event times, whatever the report order', () => {
  // C1 planned on V6 (X); X departs at 50 h without it; C1 loads on V7 (Y) three days later.
  const plan = loadPlan(C1, X, 40, 0);
  const departure = departed(X, 50);
  const loadOnY = loaded(C1, Y, 122);
  const expected = {
    exceptionID: exceptionIdFor(shipment, 'ROLLOVER', rolloverSubject(C1, X)),
    status: 'RESOLVED',
    resolutionType: 'EVENT_ACTUALIZED',
    detectedDateTime: at(50),
    resolvedDateTime: at(122),
    relatedEventID: loadOnY.eventID,
  };

  it('departure reported first: DETECTED, then RESOLVED by the load', () => {
    const memory = new ShipmentMemory();
    expect(only(memory.learn([plan, departure], at(60))).status).toBe('DETECTED');
    expect(only(memory.learn([loadOnY], at(130)))).toMatchObject(expected);
  });

  it('departure reported after the load on V7: the same ROLLOVER, RESOLVED when first shown', () => {
    const memory = new ShipmentMemory();
    expect(memory.learn([plan, loadOnY], at(130))).toEqual([]);
    expect(only(memory.learn([departure], at(140)))).toMatchObject(expected);
  });
});

// ---------------------------------------------------------------------------
// The two properties that hold (issue 8), on the pure layer over generated
// histories; test/exception-lifecycle.store.test.ts checks them through the
// database on both stores.

/**
 * Coherent stories of one shipment (CNSHA → SGSIN → NLRTM, feeder ALPHA then
 * BRAVO, boxes C1 and C2 with free time) with random schedule slips, rolls,
 * rebookings, missed connections and box moves, each reported with a random
 * lag: the material of late news, refutations and repeated occurrences.
 */
const lag = fc.integer({ min: 0, max: 120 });
const FEEDER: Call = { vessel: VESSELS.ALPHA, voyage: '1W' };
const MOTHER: Call = { vessel: VESSELS.BRAVO, voyage: '2W' };
const SPARE: Call = { vessel: VESSELS.CHARLIE, voyage: '3W' };
const plans: TrackingEvent[] = [
  transportEvent({ type: 'DEPA', classifier: 'PLN', port: 'CNSHA', ...FEEDER, eventDateTime: at(48), created: at(0) }),
  transportEvent({ type: 'ARRI', classifier: 'PLN', port: 'SGSIN', ...FEEDER, eventDateTime: at(200), created: at(0) }),
  transportEvent({ type: 'DEPA', classifier: 'PLN', port: 'SGSIN', ...MOTHER, eventDateTime: at(230), created: at(0) }),
  transportEvent({ type: 'ARRI', classifier: 'PLN', port: 'NLRTM', ...MOTHER, eventDateTime: at(720), created: at(0) }),
  loadPlan(C1, FEEDER, 40, 0),
  loadPlan(C2, FEEDER, 40, 0),
];
const storyEvent: fc.Arbitrary<TrackingEvent> = fc.oneof(
  // a new estimate of the arrival at the port of discharge
  fc.record({ delay: fc.integer({ min: -5, max: 80 }), created: fc.integer({ min: 10, max: 700 }) }).map((r) =>
    transportEvent({
      type: 'ARRI',
      classifier: 'EST',
      port: 'NLRTM',
      ...MOTHER,
      eventDateTime: at(720 + r.delay),
      created: at(r.created),
    }),
  ),
  // the actual arrival there
  fc.record({ delay: fc.integer({ min: -5, max: 80 }), lag }).map((r) =>
    transportEvent({
      type: 'ARRI',
      classifier: 'ACT',
      port: 'NLRTM',
      ...MOTHER,
      eventDateTime: at(720 + r.delay),
      created: at(720 + r.delay + r.lag),
    }),
  ),
  // the feeder leaving the port of loading, and boxes loaded on it or on the spare vessel
  fc.record({ when: fc.integer({ min: 44, max: 60 }), lag }).map((r) => departed(FEEDER, r.when, r.when + r.lag)),
  fc
    .record({ c: fc.constantFrom(C1, C2), when: fc.integer({ min: 30, max: 160 }), lag, spare: fc.boolean() })
    .map((r) => loaded(r.c, r.spare ? SPARE : FEEDER, r.when, r.when + r.lag)),
  // a re-plan of a box onto the spare vessel
  fc.record({ c: fc.constantFrom(C1, C2), created: fc.integer({ min: 5, max: 150 }) }).map((r) => loadPlan(r.c, SPARE, 150, r.created)),
  // the connection in Singapore slipping or holding
  fc.record({ delay: fc.integer({ min: -10, max: 60 }), created: fc.integer({ min: 60, max: 220 }) }).map((r) =>
    transportEvent({
      type: 'ARRI',
      classifier: 'EST',
      port: 'SGSIN',
      ...FEEDER,
      eventDateTime: at(200 + r.delay),
      created: at(r.created),
    }),
  ),
  // boxes discharged, gated out and returned empty at destination
  fc
    .record({
      c: fc.constantFrom(C1, C2),
      type: fc.constantFrom('DISC' as const, 'GTOT' as const, 'GTIN' as const),
      when: fc.integer({ min: 725, max: 1000 }),
      lag,
    })
    .map((r) =>
      equipmentEvent({
        type: r.type,
        classifier: 'ACT',
        container: r.c,
        port: 'NLRTM',
        empty: r.type === 'GTIN' ? 'EMPTY' : 'LADEN',
        ...(r.type === 'DISC' ? MOTHER : {}),
        eventDateTime: at(r.when),
        created: at(r.when + r.lag),
      }),
    ),
);
const history = fc
  .uniqueArray(storyEvent, { minLength: 1, maxLength: 25, selector: (e) => e.eventID })
  .map((events) => [...plans, ...events]);
const freeTimes = [containerMaster(C1, { free_time_exp_dt: at(800) }), containerMaster(C2, { free_time_exp_dt: at(850) })];

/** The facts in pieces, each learned at a later clock (the clock never goes back). */
function deliver(events: TrackingEvent[], pieceOf: number[], clocks: number[]): { piece: TrackingEvent[]; now: string }[] {
  const pieces = Math.max(...pieceOf, 0) + 1;
  const sortedClocks = [...clocks].sort((a, b) => a - b);
  return Array.from({ length: pieces }, (_, p) => ({
    piece: events.filter((_, i) => (pieceOf[i] ?? 0) === p),
    now: at(sortedClocks[p] ?? 1100),
  }));
}

/** What each stored row stands for among the facts: (type, subject, raising event). */
const standsFor = (rows: readonly LifecycleRow[]) =>
  rows
    .filter((r) => r.raisedBy !== null)
    .map((r) => JSON.stringify([r.type, r.subject, r.raisedBy]))
    .sort();

describe('lifecycle properties over generated histories delivered in pieces', () => {
  const scenario = history.chain((events) =>
    fc.record({
      events: fc.constant(events),
      pieceOf: fc.array(fc.nat({ max: 3 }), { minLength: events.length, maxLength: events.length }),
      clocks: fc.array(fc.integer({ min: 0, max: 1100 }), { minLength: 4, maxLength: 4 }),
    }),
  );

  it('(a) no exceptionID once stored goes missing; a RESOLVED one never changes; detectedDateTime never moves', () => {
    fc.assert(
      fc.property(scenario, ({ events, pieceOf, clocks }) => {
        const memory = new ShipmentMemory(shipment, freeTimes);
        let seen = new Map<string, TrackingException>();
        for (const { piece, now } of deliver(events, pieceOf, clocks)) {
          const served = memory.learn(piece, now);
          const byId = new Map(served.map((e) => [e.exceptionID, e]));
          for (const [id, before] of seen) {
            const after = byId.get(id);
            expect(after, `exception ${id} went missing`).toBeDefined();
            if (before.status === 'RESOLVED') expect(after).toEqual(before);
            expect(after?.detectedDateTime).toBe(before.detectedDateTime);
          }
          for (const e of served) {
            expect(e.detectedDateTime <= now, 'detected after the service learned it').toBe(true);
            if (e.resolvedDateTime) {
              expect(e.resolvedDateTime <= now).toBe(true);
              expect(e.resolvedDateTime >= e.detectedDateTime).toBe(true);
            }
          }
          // At most one DETECTED exception per subject.
          const open = memory.rows.filter((r) => r.body.status === 'DETECTED').map((r) => `${r.type}/${r.subject}`);
          expect(new Set(open).size).toBe(open.length);
          seen = byId;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('(b) the exceptions detected (type, subject, raising event) are the same for every order of the same facts', () => {
    fc.assert(
      fc.property(scenario, ({ events, pieceOf, clocks }) => {
        const deliveries = deliver(events, pieceOf, clocks);
        const end = deliveries[deliveries.length - 1]?.now ?? at(1100);
        const inPieces = new ShipmentMemory(shipment, freeTimes);
        for (const { piece, now } of deliveries) inPieces.learn(piece, now);
        const atOnce = new ShipmentMemory(shipment, freeTimes);
        atOnce.learn(events, end);
        expect(standsFor(inPieces.rows)).toEqual(standsFor(atOnce.rows));
        // ...and each of them is one episode of the facts.
        const episodes = detectEpisodes({ shipment, containers: freeTimes, events, now: end, thresholds: DEFAULT_THRESHOLDS });
        expect(standsFor(atOnce.rows)).toEqual(
          episodes
            .map((e) => JSON.stringify([e.type, e.subject, e.raisedBy ?? null]))
            .filter((k) => !k.endsWith(',null]'))
            .sort(),
        );
      }),
      { numRuns: 300 },
    );
  });
});
