import fc from 'fast-check';
import { validate as isUuid, version as uuidVersion } from 'uuid';
import { describe, expect, it } from 'vitest';
import { exceptionIdFor } from '../src/domain/exception-engine.js';
import { exceptionsFromFacts } from '../src/domain/exception-lifecycle.js';
import { computeSchedule } from '../src/domain/snapshot.js';
import type { EventClassifierCode, TrackingEvent, TransportEvent } from '../src/domain/types.js';
import {
  at,
  CONTAINERS,
  containerMaster,
  equipmentEvent,
  shipmentEvent,
  shipmentMaster,
  transportEvent,
  VESSELS,
} from './support/event-builders.js';
import { DEFAULT_THRESHOLDS, expectWellFormed, ofType, run, single } from './support/exception-engine-fixtures.js';

/** Planned arrival at Rotterdam (the port of discharge): 30 days after T0. */
const PLANNED_ARRIVAL = at(30 * 24);

/** A version of the arrival at Rotterdam, `delay` hours after plan, created `created` hours after T0. */
function arrival(classifier: EventClassifierCode, delay: number, created: number): TransportEvent {
  return transportEvent({
    type: 'ARRI',
    classifier,
    port: 'NLRTM',
    vessel: VESSELS.BRAVO,
    voyage: '611W',
    eventDateTime: at(delay, PLANNED_ARRIVAL),
    created: at(created),
  });
}

const plan = arrival('PLN', 0, 0);
const slight = arrival('EST', 5, 24);
const late20 = arrival('EST', 20, 48);
const late60 = arrival('EST', 60, 72);
const back3 = arrival('EST', 3, 96);
const arrivedLate = arrival('ACT', 62, 100);

const etaId = exceptionIdFor(shipmentMaster(), 'ETA_DELAY', 'NLRTM');

describe('spec section 3 state table, walked with ETA_DELAY', () => {
  it('(none): a plan and an estimate under the threshold raise nothing', () => {
    expect(run([plan])).toEqual([]);
    expect(run([plan, slight])).toEqual([]);
  });

  it('(none) -> DETECTED: an estimate 20 h late raises one SCHEDULE / ETA_DELAY WARNING', () => {
    const e = single(run([plan, slight, late20]), 'ETA_DELAY');
    expectWellFormed(e);
    expect(e).toMatchObject({
      exceptionID: etaId,
      exceptionType: 'ETA_DELAY',
      exceptionCategory: 'SCHEDULE',
      severity: 'WARNING',
      status: 'DETECTED',
      detectedDateTime: late20.eventCreatedDateTime,
      relatedEventID: late20.eventID,
      affectedContainers: [CONTAINERS[0], CONTAINERS[1]].sort(),
      impact: { field: 'eta', previousValue: PLANNED_ARRIVAL, revisedValue: late20.eventDateTime, delayHours: 20 },
    });
    expect(e.title).toContain('Rotterdam (NLRTM)');
    expect(e.title).toContain('20 h');
    expect(e.description).toContain('MAERSK BRAVO (IMO 9312341) voyage 611W');
    expect(e.recommendedAction).toContain('Rotterdam (NLRTM)');
    // The eta of the snapshot is the delayed value the exception reports.
    expect(computeSchedule(shipmentMaster(), [plan, slight, late20]).eta).toBe(e.impact?.revisedValue);
  });

  it('DETECTED -> DETECTED: a worse delay updates the same exception, no duplicate', () => {
    const list = run([plan, slight, late20, late60]);
    expect(list).toHaveLength(1);
    const e = single(list, 'ETA_DELAY');
    expectWellFormed(e);
    expect(e).toMatchObject({
      exceptionID: etaId,
      status: 'DETECTED',
      severity: 'CRITICAL',
      detectedDateTime: late20.eventCreatedDateTime,
      relatedEventID: late60.eventID,
      impact: { field: 'eta', previousValue: PLANNED_ARRIVAL, revisedValue: late60.eventDateTime, delayHours: 60 },
    });
    expect(e.title).toContain('60 h');
  });

  it('DETECTED -> RESOLVED: recovery keeps the ID; impact goes from the delayed to the recovered eta', () => {
    const history = [plan, slight, late20, late60, back3];
    const e = single(run(history), 'ETA_DELAY');
    expectWellFormed(e);
    expect(e).toMatchObject({
      exceptionID: etaId,
      status: 'RESOLVED',
      resolutionType: 'SCHEDULE_RECOVERED',
      resolvedDateTime: back3.eventCreatedDateTime,
      detectedDateTime: late20.eventCreatedDateTime,
      relatedEventID: back3.eventID,
      impact: { field: 'eta', previousValue: late60.eventDateTime, revisedValue: back3.eventDateTime, delayHours: 3 },
    });
    expect(e.resolutionNote).toContain('Rotterdam (NLRTM)');
    // eta moves back
    expect(computeSchedule(shipmentMaster(), history).eta).toBe(back3.eventDateTime);
  });

  it('EST -> EST: an estimate that moves raises the schedule exception at the moment it became known', () => {
    const e = single(run([plan, late20]), 'ETA_DELAY');
    expect(e.detectedDateTime).toBe(late20.eventCreatedDateTime);
  });

  it('PLN/EST -> ACT: the arrival actually happening resolves an open delay as EVENT_ACTUALIZED', () => {
    const e = single(run([plan, late20, late60, arrivedLate]), 'ETA_DELAY');
    expectWellFormed(e);
    expect(e).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'EVENT_ACTUALIZED',
      resolvedDateTime: arrivedLate.eventCreatedDateTime,
      relatedEventID: arrivedLate.eventID,
      impact: { previousValue: late60.eventDateTime, revisedValue: arrivedLate.eventDateTime, delayHours: 62 },
    });
    expect(e.resolutionNote).toContain('arrived at Rotterdam (NLRTM)');
  });

  it('a resolved exception stays in the output (pollers see the resolution)', () => {
    expect(run([plan, late20, back3])).toHaveLength(1);
  });
});

describe('episodes', () => {
  it('a condition that newly arises after resolution is a new exception; the resolved one stays resolved', () => {
    const again = arrival('EST', 30, 120);
    const first = single(run([plan, late20, back3]), 'ETA_DELAY');
    const both = ofType(run([plan, late20, back3, again]), 'ETA_DELAY');
    expect(both).toHaveLength(2);
    expect(both[0]).toEqual(first);
    expect(both[1]).toMatchObject({
      exceptionID: exceptionIdFor(shipmentMaster(), 'ETA_DELAY', 'NLRTM', 1),
      status: 'DETECTED',
      detectedDateTime: again.eventCreatedDateTime,
      impact: { previousValue: PLANNED_ARRIVAL, revisedValue: again.eventDateTime, delayHours: 30 },
    });
    expect(both[1]?.exceptionID).not.toBe(first.exceptionID);
    expect(both[1] && 'resolvedDateTime' in both[1]).toBe(false);
  });

  it('events created together form one step (no raise-and-clear inside a batch)', () => {
    // The worse estimate and the recovery arrive in the same publication.
    const a = arrival('EST', 40, 50);
    const b = { ...arrival('ACT', 1, 50), eventID: '00000000-0000-4000-8000-000000000000' };
    expect(run([plan, a, b])).toEqual([]);
  });
});

describe('exceptionIdFor', () => {
  it('is a UUID v5, stable for shipment, type, subject and occurrence', () => {
    const id = exceptionIdFor({ carrierCode: 'MAEU', carrierBookingReference: 'B1' }, 'ETA_DELAY', 'NLRTM');
    expect(isUuid(id)).toBe(true);
    expect(uuidVersion(id)).toBe(5);
    expect(exceptionIdFor({ carrierCode: 'MAEU', carrierBookingReference: 'B1' }, 'ETA_DELAY', 'NLRTM')).toBe(id);
    const others = [
      exceptionIdFor({ carrierCode: 'CMDU', carrierBookingReference: 'B1' }, 'ETA_DELAY', 'NLRTM'),
      exceptionIdFor({ carrierCode: 'MAEU', carrierBookingReference: 'B2' }, 'ETA_DELAY', 'NLRTM'),
      exceptionIdFor({ carrierCode: 'MAEU', carrierBookingReference: 'B1' }, 'MISSED_CONNECTION', 'NLRTM'),
      exceptionIdFor({ carrierCode: 'MAEU', carrierBookingReference: 'B1' }, 'ETA_DELAY', 'DEHAM'),
      exceptionIdFor({ carrierCode: 'MAEU', carrierBookingReference: 'B1' }, 'ETA_DELAY', 'NLRTM', 1),
    ];
    expect(new Set([id, ...others]).size).toBe(6);
    expect(exceptionIdFor({ carrierCode: 'MAEU', carrierBookingReference: 'B1' }, 'ETA_DELAY', 'NLRTM', 0)).toBe(id);
  });

  it('cannot be confused by separators inside the parts', () => {
    expect(exceptionIdFor({ carrierCode: 'A|B', carrierBookingReference: 'C' }, 'ROLLOVER', 'X')).not.toBe(
      exceptionIdFor({ carrierCode: 'A', carrierBookingReference: 'B|C' }, 'ROLLOVER', 'X'),
    );
  });
});

describe('thresholds come from configuration', () => {
  it('delayThresholdHours decides whether a delay is raised', () => {
    expect(ofType(run([plan, late20], { thresholds: { delayThresholdHours: 24 } }), 'ETA_DELAY')).toEqual([]);
    expect(single(run([plan, slight], { thresholds: { delayThresholdHours: 4 } }), 'ETA_DELAY').severity).toBe('WARNING');
  });

  it('criticalDelayHours decides the severity', () => {
    expect(single(run([plan, late20], { thresholds: { criticalDelayHours: 18 } }), 'ETA_DELAY').severity).toBe('CRITICAL');
    expect(single(run([plan, late60], { thresholds: { criticalDelayHours: 72 } }), 'ETA_DELAY').severity).toBe('WARNING');
  });

  it('recovery is judged against the configured threshold', () => {
    const back10 = arrival('EST', 10, 96);
    expect(single(run([plan, late20, back10]), 'ETA_DELAY').status).toBe('RESOLVED');
    expect(single(run([plan, late20, back10], { thresholds: { delayThresholdHours: 8 } }), 'ETA_DELAY').status).toBe('DETECTED');
  });
});

describe('input handling', () => {
  it('counts an event sent twice once', () => {
    expect(run([plan, late20, late20, late60, late60])).toEqual(run([plan, late20, late60]));
  });

  it('ignores shipment events', () => {
    const conf = shipmentEvent({
      type: 'CONF',
      classifier: 'ACT',
      documentID: 'MAEU260000001',
      eventDateTime: at(1),
      created: at(1),
    });
    expect(run([plan, conf, late20])).toEqual(run([plan, late20]));
  });

  it('accepts now with an offset and rejects a malformed now', () => {
    const base = { shipment: shipmentMaster(), containers: [], events: [plan, late20], thresholds: DEFAULT_THRESHOLDS };
    expect(exceptionsFromFacts({ ...base, now: '2027-01-01T01:00:00+01:00' })).toEqual(
      exceptionsFromFacts({ ...base, now: '2027-01-01T00:00:00.000Z' }),
    );
    expect(() => exceptionsFromFacts({ ...base, now: 'yesterday' })).toThrow(/now/);
  });

  it('sorts the output by detectedDateTime then exceptionID', () => {
    const free = at(40 * 24);
    const containers = [containerMaster(CONTAINERS[0], { free_time_exp_dt: free })];
    const disc = equipmentEvent({
      type: 'DISC',
      classifier: 'ACT',
      container: CONTAINERS[0],
      port: 'NLRTM',
      vessel: VESSELS.BRAVO,
      voyage: '611W',
      eventDateTime: at(32 * 24),
      created: at(32 * 24),
    });
    const list = run([plan, late20, disc], { containers });
    expect(list.map((e) => e.exceptionType)).toEqual(['ETA_DELAY', 'DEMURRAGE_RISK']);
    const keys = list.map((e) => `${e.detectedDateTime}|${e.exceptionID}`);
    expect(keys).toEqual([...keys].sort());
  });
});

// ---------------------------------------------------------------------------
// Determinism: the output does not depend on the order of `events`.

/** A history that exercises every rule: delay, rollover, missed connection, demurrage, detention. */
function richHistory(): TrackingEvent[] {
  const c0 = CONTAINERS[0];
  const c1 = CONTAINERS[1];
  const leg1 = { vessel: VESSELS.ALPHA, voyage: '610W' };
  const leg2 = { vessel: VESSELS.BRAVO, voyage: '611W' };
  const leg2b = { vessel: VESSELS.DELTA, voyage: '612W' };
  return [
    transportEvent({ type: 'DEPA', classifier: 'PLN', port: 'CNSHA', ...leg1, eventDateTime: at(48), created: at(0) }),
    transportEvent({ type: 'ARRI', classifier: 'PLN', port: 'SGSIN', ...leg1, eventDateTime: at(200), created: at(0) }),
    transportEvent({ type: 'DEPA', classifier: 'PLN', port: 'SGSIN', ...leg2, eventDateTime: at(230), created: at(0) }),
    transportEvent({ type: 'ARRI', classifier: 'PLN', port: 'NLRTM', ...leg2, eventDateTime: at(720), created: at(0) }),
    equipmentEvent({ type: 'LOAD', classifier: 'PLN', container: c0, port: 'CNSHA', ...leg1, eventDateTime: at(40), created: at(0) }),
    equipmentEvent({ type: 'LOAD', classifier: 'PLN', container: c1, port: 'CNSHA', ...leg1, eventDateTime: at(40), created: at(0) }),
    equipmentEvent({ type: 'LOAD', classifier: 'ACT', container: c0, port: 'CNSHA', ...leg1, eventDateTime: at(41), created: at(41) }),
    transportEvent({ type: 'DEPA', classifier: 'ACT', port: 'CNSHA', ...leg1, eventDateTime: at(50), created: at(50) }),
    equipmentEvent({
      type: 'LOAD',
      classifier: 'PLN',
      container: c1,
      port: 'CNSHA',
      vessel: VESSELS.CHARLIE,
      voyage: '620W',
      eventDateTime: at(200),
      created: at(60),
    }),
    transportEvent({ type: 'ARRI', classifier: 'EST', port: 'SGSIN', ...leg1, eventDateTime: at(240), created: at(120) }),
    transportEvent({ type: 'DEPA', classifier: 'PLN', port: 'SGSIN', ...leg2b, eventDateTime: at(300), created: at(150) }),
    transportEvent({ type: 'ARRI', classifier: 'PLN', port: 'NLRTM', ...leg2b, eventDateTime: at(790), created: at(150) }),
    transportEvent({ type: 'ARRI', classifier: 'ACT', port: 'NLRTM', ...leg2b, eventDateTime: at(800), created: at(800) }),
    equipmentEvent({ type: 'DISC', classifier: 'ACT', container: c0, port: 'NLRTM', ...leg2b, eventDateTime: at(810), created: at(810) }),
    equipmentEvent({ type: 'GTOT', classifier: 'ACT', container: c0, port: 'NLRTM', eventDateTime: at(900), created: at(901) }),
    equipmentEvent({
      type: 'GTIN',
      classifier: 'ACT',
      container: c0,
      port: 'DEDUI',
      empty: 'EMPTY',
      eventDateTime: at(1000),
      created: at(1000),
    }),
  ];
}

const richContainers = [
  containerMaster(CONTAINERS[0], { free_time_exp_dt: at(880) }),
  containerMaster(CONTAINERS[1], { free_time_exp_dt: null }),
];

describe('determinism', () => {
  it('the rich history raises every kind of exception (sanity for the property below)', () => {
    const list = run(richHistory(), { containers: richContainers });
    expect(new Set(list.map((e) => e.exceptionType))).toEqual(
      new Set(['ETA_DELAY', 'ROLLOVER', 'MISSED_CONNECTION', 'DEMURRAGE_RISK', 'DETENTION_RISK']),
    );
    for (const e of list) expectWellFormed(e);
  });

  it('shuffling the events gives identical output (property)', () => {
    const events = richHistory();
    const expected = run(events, { containers: richContainers });
    fc.assert(
      fc.property(fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }), (shuffled) => {
        expect(run(shuffled, { containers: richContainers })).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('the same holds for arbitrary generated histories, at any clock (property)', () => {
    const port = fc.constantFrom('CNSHA', 'SGSIN', 'NLRTM', 'DEDUI');
    const vessel = fc.constantFrom(VESSELS.ALPHA, VESSELS.BRAVO, VESSELS.CHARLIE);
    const classifier = fc.constantFrom<EventClassifierCode>('PLN', 'EST', 'ACT');
    const hour = fc.integer({ min: 0, max: 400 });
    const transport = fc
      .record({ type: fc.constantFrom('ARRI' as const, 'DEPA' as const), port, vessel, classifier, when: hour, created: hour })
      .map((r) => transportEvent({ ...r, voyage: '1W', eventDateTime: at(r.when), created: at(r.created) }));
    const equipment = fc
      .record({
        type: fc.constantFrom('LOAD' as const, 'DISC' as const, 'GTOT' as const, 'GTIN' as const),
        port,
        vessel: fc.option(vessel, { nil: undefined }),
        classifier,
        container: fc.constantFrom(CONTAINERS[0], CONTAINERS[1]),
        empty: fc.constantFrom('LADEN' as const, 'EMPTY' as const),
        when: hour,
        created: hour,
      })
      .map((r) => equipmentEvent({ ...r, voyage: '1W', eventDateTime: at(r.when), created: at(r.created) }));
    const containers = [
      containerMaster(CONTAINERS[0], { free_time_exp_dt: at(250) }),
      containerMaster(CONTAINERS[1], { free_time_exp_dt: at(300) }),
    ];
    fc.assert(
      fc.property(
        fc
          .array(fc.oneof(transport, equipment), { maxLength: 30 })
          .chain((events) =>
            fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }), hour),
          ),
        ([events, shuffled, nowHour]) => {
          const now = at(nowHour);
          const a = run(events, { containers, now });
          expect(run(shuffled, { containers, now })).toEqual(a);
          expect(new Set(a.map((e) => e.exceptionID)).size).toBe(a.length);
          for (const e of a) expectWellFormed(e);
        },
      ),
      { numRuns: 300 },
    );
  });
});
