import { describe, expect, it } from 'vitest';
import type { EventClassifierCode, TransportEvent, Vessel } from '../src/domain/types.js';
import { at, CONTAINERS, containerMaster, shipmentMaster, transportEvent, VESSELS } from './support/event-builders.js';
import { expectWellFormed, ofType, run, single } from './support/exception-engine-fixtures.js';

const PLANNED = at(30 * 24);

function arrival(
  classifier: EventClassifierCode,
  delay: number,
  created: number,
  port = 'NLRTM',
  vessel: Vessel = VESSELS.BRAVO,
): TransportEvent {
  return transportEvent({
    type: 'ARRI',
    classifier,
    port,
    vessel,
    voyage: '611W',
    eventDateTime: at(delay, PLANNED),
    created: at(created),
  });
}

const plan = arrival('PLN', 0, 0);
const etaOf = (events: TransportEvent[], thresholds = {}) => ofType(run(events, { thresholds }), 'ETA_DELAY');

describe('ETA_DELAY detection', () => {
  it('is raised at exactly the threshold and not just under it', () => {
    expect(etaOf([plan, arrival('EST', 12, 10)])).toHaveLength(1);
    expect(etaOf([plan, arrival('EST', 11.99, 10)])).toEqual([]);
  });

  it('is CRITICAL from exactly criticalDelayHours', () => {
    expect(single(run([plan, arrival('EST', 47.9, 10)]), 'ETA_DELAY').severity).toBe('WARNING');
    expect(single(run([plan, arrival('EST', 48, 10)]), 'ETA_DELAY').severity).toBe('CRITICAL');
  });

  it('never raises an early arrival', () => {
    expect(etaOf([plan, arrival('EST', -30, 10)])).toEqual([]);
  });

  it('takes the earliest-created PLN as baseline, not a later re-plan', () => {
    const replanned = arrival('PLN', 24, 10);
    const e = single(run([plan, replanned]), 'ETA_DELAY');
    expect(e.impact).toMatchObject({ previousValue: PLANNED, revisedValue: replanned.eventDateTime, delayHours: 24 });
  });

  it('without any PLN, takes the earliest-created version as baseline', () => {
    const first = arrival('EST', 0, 0);
    const e = single(run([first, arrival('EST', 20, 10)]), 'ETA_DELAY');
    expect(e.impact?.previousValue).toBe(first.eventDateTime);
  });

  it('follows the snapshot choice of the current arrival: EST over a newer PLN', () => {
    // The carrier re-publishes the original plan after its estimate: the estimate still counts.
    const est = arrival('EST', 20, 10);
    const replan = { ...arrival('PLN', 0, 20), eventID: '11111111-1111-4111-8111-111111111111' };
    expect(single(run([plan, est, replan]), 'ETA_DELAY').impact?.revisedValue).toBe(est.eventDateTime);
  });

  it('follows the arrival to another vessel after a rebooking', () => {
    const other = arrival('PLN', 72, 30, 'NLRTM', VESSELS.DELTA);
    const e = single(run([plan, other]), 'ETA_DELAY');
    expect(e).toMatchObject({ severity: 'CRITICAL', impact: { delayHours: 72 } });
    expect(e.description).toContain('MAERSK DELTA');
  });

  it('ignores arrivals at other ports', () => {
    expect(etaOf([plan, arrival('EST', 100, 10, 'SGSIN')])).toEqual([]);
  });

  it('is not raised for a shipment without a port of discharge', () => {
    const shipment = shipmentMaster({ portOfDischarge: undefined });
    expect(ofType(run([plan, arrival('EST', 40, 10)], { shipment }), 'ETA_DELAY')).toEqual([]);
  });

  it('is not raised by an actual arrival that was late (nothing left to act on)', () => {
    expect(etaOf([plan, arrival('ACT', 40, 10)])).toEqual([]);
  });

  it('lists every container of the shipment, sorted', () => {
    const containers = [containerMaster(CONTAINERS[3]), containerMaster(CONTAINERS[0]), containerMaster(CONTAINERS[2])];
    const e = single(run([plan, arrival('EST', 20, 10)], { containers }), 'ETA_DELAY');
    expect(e.affectedContainers).toEqual([CONTAINERS[2], CONTAINERS[3], CONTAINERS[0]]);
  });

  it('rounds delayHours to two decimals', () => {
    const e = single(run([plan, arrival('EST', 20 + 1 / 3, 10)]), 'ETA_DELAY');
    expect(e.impact?.delayHours).toBe(20.33);
  });
});

describe('ETA_DELAY updates', () => {
  it('an improvement that stays over the threshold updates the same episode (CRITICAL -> WARNING)', () => {
    const worse = arrival('EST', 60, 10);
    const better = arrival('EST', 30, 20);
    const e = single(run([plan, worse, better]), 'ETA_DELAY');
    expect(e).toMatchObject({
      status: 'DETECTED',
      severity: 'WARNING',
      detectedDateTime: worse.eventCreatedDateTime,
      relatedEventID: better.eventID,
      impact: { revisedValue: better.eventDateTime, delayHours: 30 },
    });
  });

  it('an unchanged re-publication changes nothing but the related event', () => {
    const est = arrival('EST', 20, 10);
    const again = arrival('EST', 20, 20);
    const [a] = run([plan, est]);
    const [b] = run([plan, est, again]);
    expect({ ...b, relatedEventID: a?.relatedEventID }).toEqual(a);
  });
});

describe('ETA_DELAY resolution', () => {
  it('SCHEDULE_RECOVERED reports the remaining delay against the plan, which may be negative', () => {
    const late = arrival('EST', 20, 10);
    const early = arrival('EST', -2, 20);
    const e = single(run([plan, late, early]), 'ETA_DELAY');
    expectWellFormed(e);
    expect(e).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'SCHEDULE_RECOVERED',
      severity: 'WARNING',
      impact: { field: 'eta', previousValue: late.eventDateTime, revisedValue: early.eventDateTime, delayHours: -2 },
    });
    expect(e.resolutionNote).toContain('2 h early');
  });

  it('EVENT_ACTUALIZED even when the actual arrival is on time', () => {
    const late = arrival('EST', 20, 10);
    const actual = arrival('ACT', 0, 20);
    const e = single(run([plan, late, actual]), 'ETA_DELAY');
    expect(e).toMatchObject({
      resolutionType: 'EVENT_ACTUALIZED',
      impact: { previousValue: late.eventDateTime, revisedValue: actual.eventDateTime, delayHours: 0 },
    });
    expect(e.resolutionNote).toContain('on time');
  });

  it('stays resolved after the actual arrival, whatever estimates come later', () => {
    const e = single(run([plan, arrival('EST', 20, 10), arrival('ACT', 25, 20), arrival('EST', 90, 30)]), 'ETA_DELAY');
    expect(e.resolutionType).toBe('EVENT_ACTUALIZED');
  });
});
