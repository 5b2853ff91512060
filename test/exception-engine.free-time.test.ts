import { describe, expect, it } from 'vitest';
import { exceptionIdFor } from '../src/domain/exception-engine.js';
import type { ContainerReferences, EventClassifierCode, TrackingEvent } from '../src/domain/types.js';
import { at, CONTAINERS, containerMaster, equipmentEvent, shipmentMaster, VESSELS } from './support/event-builders.js';
import { expectWellFormed, ofType, run, single, type RunOptions } from './support/exception-engine-fixtures.js';

const C = CONTAINERS[0];
/** Free time expires 800 h after T0; the default 48 h warning window opens at 752 h. */
const FREE = at(800);
const containers = [containerMaster(C, { free_time_exp_dt: FREE })];

function move(
  type: 'DISC' | 'GTOT' | 'GTIN' | 'LOAD',
  when: number,
  created: number,
  options: { port?: string; empty?: 'LADEN' | 'EMPTY'; classifier?: EventClassifierCode; container?: string } = {},
) {
  const onVessel = type === 'DISC' || type === 'LOAD';
  return equipmentEvent({
    type,
    classifier: options.classifier ?? 'ACT',
    container: options.container ?? C,
    port: options.port ?? 'NLRTM',
    empty: options.empty ?? 'LADEN',
    ...(onVessel ? { vessel: VESSELS.BRAVO, voyage: '611W' } : {}),
    eventDateTime: at(when),
    created: at(created),
  });
}

const disc = move('DISC', 720, 721);
const evaluate = (events: TrackingEvent[], nowHours: number, options: RunOptions = {}) =>
  run(events, { containers, now: at(nowHours), ...options });

describe('DEMURRAGE_RISK', () => {
  it('is not raised before the warning window opens', () => {
    expect(evaluate([disc], 751)).toEqual([]);
  });

  it('WARNING from freeTimeWarningHours before free time, detected at the crossing instant', () => {
    const e = single(evaluate([disc], 760), 'DEMURRAGE_RISK');
    expectWellFormed(e);
    expect(e).toMatchObject({
      exceptionID: exceptionIdFor(shipmentMaster(), 'DEMURRAGE_RISK', C),
      exceptionCategory: 'OPERATIONAL',
      severity: 'WARNING',
      status: 'DETECTED',
      detectedDateTime: at(752),
      relatedEventID: disc.eventID,
      affectedContainers: [C],
    });
    expect(e.title).toBe(`Demurrage risk for container ${C}`);
    expect(e.description).toContain('discharged laden at Rotterdam (NLRTM)');
    expect(e.description).toContain('2026-04-04 08:00 UTC');
    expect(e.recommendedAction).toContain(`Pick up container ${C} from Rotterdam (NLRTM) before 2026-04-04 08:00 UTC`);
  });

  it('CRITICAL from the instant free time expires, same exception and detection time', () => {
    for (const nowHours of [800, 900]) {
      const e = single(evaluate([disc], nowHours), 'DEMURRAGE_RISK');
      expect(e).toMatchObject({ severity: 'CRITICAL', status: 'DETECTED', detectedDateTime: at(752) });
      expect(e.title).toContain('free time expired');
    }
  });

  it('content does not change between evaluations unless a threshold is crossed', () => {
    expect(evaluate([disc], 760)).toEqual(evaluate([disc], 799));
  });

  it('is resolved EVENT_ACTUALIZED by the gate-out', () => {
    const out = move('GTOT', 805, 806);
    const e = single(evaluate([disc, out], 900), 'DEMURRAGE_RISK');
    expectWellFormed(e);
    expect(e).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'EVENT_ACTUALIZED',
      // The fact time of the gate-out: when it happened, not when it was reported.
      resolvedDateTime: out.eventDateTime,
      relatedEventID: out.eventID,
      severity: 'CRITICAL',
      detectedDateTime: at(752),
    });
    expect(e.resolutionNote).toContain('gated out of Rotterdam (NLRTM)');
    expect(e.resolutionNote).toContain('5 h late against free time');
  });

  it('is not raised for a container gated out in time', () => {
    expect(ofType(evaluate([disc, move('GTOT', 740, 741)], 1000), 'DEMURRAGE_RISK')).toEqual([]);
  });

  it('is not raised without a (valid) free_time_exp_dt', () => {
    for (const references of [{}, { free_time_exp_dt: null }, { free_time_exp_dt: 'soon' }] as ContainerReferences[]) {
      expect(run([disc], { containers: [containerMaster(C, references)], now: at(1000) })).toEqual([]);
    }
  });

  it('counts only an actual laden discharge at the port of discharge', () => {
    expect(evaluate([move('DISC', 720, 721, { port: 'SGSIN' })], 900)).toEqual([]);
    expect(evaluate([move('DISC', 720, 721, { empty: 'EMPTY' })], 900)).toEqual([]);
    expect(evaluate([move('DISC', 720, 0, { classifier: 'PLN' })], 900)).toEqual([]);
    expect(evaluate([move('DISC', 720, 0, { classifier: 'EST' })], 900)).toEqual([]);
  });

  it('a discharge reported only after free time expired is CRITICAL, dated from when the window opened', () => {
    // Exceptions describe what happened: the box has been at risk since 752 h, whenever the carrier said so.
    const lateReport = move('DISC', 720, 820);
    expect(single(evaluate([lateReport], 900), 'DEMURRAGE_RISK')).toMatchObject({
      severity: 'CRITICAL',
      detectedDateTime: at(752),
    });
  });

  it('ignores an earlier cycle of a reused container number', () => {
    const oldCycle = [move('DISC', -500, -499), move('GTOT', -480, -479), move('GTIN', -470, -469, { port: 'DEDUI', empty: 'EMPTY' })];
    expect(evaluate(oldCycle, 900)).toEqual([]);
    expect(single(evaluate([...oldCycle, disc], 760), 'DEMURRAGE_RISK').relatedEventID).toBe(disc.eventID);
  });

  it('freeTimeWarningHours moves the warning window', () => {
    expect(evaluate([disc], 760, { thresholds: { freeTimeWarningHours: 24 } })).toEqual([]);
    expect(single(evaluate([disc], 790, { thresholds: { freeTimeWarningHours: 24 } }), 'DEMURRAGE_RISK')).toMatchObject({
      detectedDateTime: at(776),
    });
  });

  it('only the injected clock matters: now before the crossing means no exception yet', () => {
    expect(evaluate([disc], 752)).toHaveLength(1);
    expect(evaluate([disc], 751.99)).toHaveLength(0);
  });
});

describe('DETENTION_RISK', () => {
  const out = move('GTOT', 740, 741);

  it('WARNING in the window after a laden gate-out at destination, CRITICAL past free time', () => {
    const warning = single(evaluate([disc, out], 760), 'DETENTION_RISK');
    expectWellFormed(warning);
    expect(warning).toMatchObject({
      exceptionID: exceptionIdFor(shipmentMaster(), 'DETENTION_RISK', C),
      exceptionCategory: 'OPERATIONAL',
      severity: 'WARNING',
      detectedDateTime: at(752),
      relatedEventID: out.eventID,
      affectedContainers: [C],
    });
    expect(warning.description).toContain('gated out laden at Rotterdam (NLRTM)');
    expect(warning.recommendedAction).toContain(`Return empty container ${C}`);
    expect(single(evaluate([disc, out], 801), 'DETENTION_RISK')).toMatchObject({
      severity: 'CRITICAL',
      detectedDateTime: at(752),
    });
  });

  it('is resolved EVENT_ACTUALIZED by the empty return', () => {
    const back = move('GTIN', 810, 811, { port: 'DEDUI', empty: 'EMPTY' });
    const e = single(evaluate([disc, out, back], 900), 'DETENTION_RISK');
    expectWellFormed(e);
    expect(e).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'EVENT_ACTUALIZED',
      resolvedDateTime: back.eventDateTime,
      relatedEventID: back.eventID,
      severity: 'CRITICAL',
    });
    expect(e.resolutionNote).toContain('returned at Duisburg (DEDUI)');
  });

  it('is not raised when the empty is returned in time', () => {
    const back = move('GTIN', 745, 746, { port: 'DEDUI', empty: 'EMPTY' });
    expect(ofType(evaluate([disc, out, back], 1000), 'DETENTION_RISK')).toEqual([]);
  });

  it('counts a gate-out at the place of delivery, not at origin', () => {
    expect(ofType(evaluate([move('GTOT', 740, 741, { port: 'DEDUI' })], 760), 'DETENTION_RISK')).toHaveLength(1);
    expect(ofType(evaluate([move('GTOT', 740, 741, { port: 'CNSHA' })], 760), 'DETENTION_RISK')).toEqual([]);
  });

  it('a laden gate-in does not stop the clock', () => {
    const ladenIn = move('GTIN', 745, 746, { port: 'DEDUI' });
    expect(single(evaluate([out, ladenIn], 760), 'DETENTION_RISK').status).toBe('DETECTED');
  });

  it('is not raised without a free_time_exp_dt', () => {
    expect(run([disc, out], { containers: [containerMaster(C)], now: at(1000) })).toEqual([]);
  });

  it('follows demurrage: the gate-out resolves one and starts the other', () => {
    const lateOut = move('GTOT', 770, 771);
    const list = evaluate([disc, lateOut], 780);
    expect(single(list, 'DEMURRAGE_RISK')).toMatchObject({ status: 'RESOLVED', resolvedDateTime: at(770) });
    expect(single(list, 'DETENTION_RISK')).toMatchObject({ status: 'DETECTED', detectedDateTime: at(770) });
  });

  it('per container: only the container at risk is named', () => {
    const two = [containerMaster(C, { free_time_exp_dt: FREE }), containerMaster(CONTAINERS[1], { free_time_exp_dt: FREE })];
    const other = move('GTOT', 740, 741, { container: CONTAINERS[1] });
    const back = move('GTIN', 745, 746, { container: CONTAINERS[1], port: 'DEDUI', empty: 'EMPTY' });
    const list = ofType(run([out, other, back], { containers: two, now: at(760) }), 'DETENTION_RISK');
    expect(list.map((e) => e.affectedContainers)).toEqual([[C]]);
  });
});

describe('a container number reused by another shipment of the carrier', () => {
  // Ingest links equipment events to every shipment holding that container
  // number, so each shipment's history also carries the other's events.
  const OLD = 'MAEU250000009';
  const NEW = shipmentMaster().carrierBookingReference;
  const withBooking = (e: TrackingEvent, booking: string): TrackingEvent => ({
    ...e,
    eventID: `${e.eventID.slice(0, -4)}${booking.slice(-4)}`,
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: booking }],
  });

  it("does not let the other shipment's cycle raise or hide anything", () => {
    // The new shipment's box is discharged and waits; the old shipment's cycle ended long ago.
    const oldCycle = [move('DISC', -500, -499), move('GTOT', -480, -479)].map((e) => withBooking(e, OLD));
    const newDisc = withBooking(disc, NEW);
    expect(single(evaluate([...oldCycle, newDisc], 760), 'DEMURRAGE_RISK').relatedEventID).toBe(newDisc.eventID);
    // The old shipment (free time long gone) must not see the new discharge as its own.
    const oldShipment = shipmentMaster({ carrierBookingReference: OLD, billOfLadingNumber: undefined });
    const oldContainers = [containerMaster(C, { free_time_exp_dt: at(-470) })];
    const list = run([...oldCycle, newDisc], { shipment: oldShipment, containers: oldContainers, now: at(900) });
    expect(list.map((e) => e.relatedEventID)).not.toContain(newDisc.eventID);
    // Its own demurrage ended with its own gate-out and is not restarted by the new discharge.
    expect(single(list, 'DEMURRAGE_RISK')).toMatchObject({ status: 'RESOLVED', relatedEventID: oldCycle[1]?.eventID });
  });

  it('keeps events without document references (they cannot be attributed)', () => {
    expect(single(evaluate([disc], 760), 'DEMURRAGE_RISK').relatedEventID).toBe(disc.eventID);
  });

  it('matches the bill of lading as well as the booking', () => {
    const bl = shipmentMaster().billOfLadingNumber ?? '';
    const byBl = { ...disc, documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: bl }] };
    expect(evaluate([byBl], 760)).toHaveLength(1);
  });
});
