import { describe, expect, it } from 'vitest';
import { exceptionIdFor } from '../src/domain/exception-engine.js';
import type { EventClassifierCode, TrackingEvent, Vessel } from '../src/domain/types.js';
import { at, CONTAINERS, equipmentEvent, shipmentMaster, transportEvent, VESSELS } from './support/event-builders.js';
import { expectWellFormed, ofType, run, single } from './support/exception-engine-fixtures.js';

/** Shanghai → Singapore on ALPHA (arrives 200 h), Singapore → Rotterdam on BRAVO (departs 230 h): 30 h to connect. */
const INBOUND = { vessel: VESSELS.ALPHA, voyage: '610W' };
const OUTBOUND = { vessel: VESSELS.BRAVO, voyage: '611W' };
const OTHER_OUTBOUND = { vessel: VESSELS.DELTA, voyage: '612W' };

function call(
  type: 'ARRI' | 'DEPA',
  leg: { vessel: Vessel; voyage: string },
  classifier: EventClassifierCode,
  when: number,
  created: number,
  port = 'SGSIN',
) {
  return transportEvent({ type, classifier, port, ...leg, eventDateTime: at(when), created: at(created) });
}

const plannedIn = call('ARRI', INBOUND, 'PLN', 200, 0);
const plannedOut = call('DEPA', OUTBOUND, 'PLN', 230, 0);
const plan = [call('DEPA', INBOUND, 'PLN', 48, 0, 'CNSHA'), plannedIn, plannedOut, call('ARRI', OUTBOUND, 'PLN', 700, 0, 'NLRTM')];
const lateIn = call('ARRI', INBOUND, 'EST', 240, 10);

const connectionId = exceptionIdFor(shipmentMaster(), 'MISSED_CONNECTION', 'SGSIN');
const missed = (events: TrackingEvent[], minConnectionHours = 0) =>
  ofType(run(events, { thresholds: { minConnectionHours } }), 'MISSED_CONNECTION');

describe('MISSED_CONNECTION is not raised', () => {
  it('when the planned connection holds', () => {
    expect(missed(plan)).toEqual([]);
    expect(missed([...plan, call('ARRI', INBOUND, 'EST', 229, 10)])).toEqual([]);
  });

  it('for a vessel that only calls at a port en route (no change of vessel)', () => {
    const enRoute = [call('ARRI', INBOUND, 'EST', 120, 5, 'MYPKG'), call('DEPA', INBOUND, 'EST', 110, 5, 'MYPKG')];
    expect(missed([...plan, ...enRoute])).toEqual([]);
  });

  it('at the port of loading or discharge', () => {
    const feederAtPol = call('ARRI', OTHER_OUTBOUND, 'EST', 100, 5, 'CNSHA');
    expect(missed([...plan, feederAtPol])).toEqual([]);
  });

  it('when the connection is shorter than minConnectionHours allows only under that setting', () => {
    const tight = call('ARRI', INBOUND, 'EST', 210, 10);
    expect(missed([...plan, tight])).toEqual([]);
    const e = missed([...plan, tight], 24)[0];
    expect(e).toMatchObject({ status: 'DETECTED', impact: { previousValue: at(206), delayHours: 4 } });
    expect(e?.description).toContain('minimum connection 24 h');
  });
});

describe('MISSED_CONNECTION detection and update', () => {
  it('is detected when the inbound arrival moves past the outbound departure', () => {
    const e = single(run([...plan, lateIn]), 'MISSED_CONNECTION');
    expectWellFormed(e);
    expect(e).toMatchObject({
      exceptionID: connectionId,
      exceptionCategory: 'SCHEDULE',
      severity: 'CRITICAL',
      status: 'DETECTED',
      detectedDateTime: lateIn.eventCreatedDateTime,
      relatedEventID: lateIn.eventID,
      impact: { field: 'inboundArrival', previousValue: at(230), revisedValue: at(240), delayHours: 10 },
    });
    expect(e.title).toBe('Missed connection at Singapore (SGSIN)');
    expect(e.description).toContain('MAERSK ALPHA (IMO 9321483) voyage 610W arrives at Singapore (SGSIN)');
    expect(e.description).toContain('10 h after MAERSK BRAVO (IMO 9312341) voyage 611W departs');
    expect(e.recommendedAction).toContain('Maersk (MAEU)');
  });

  it('is detected when the outbound departure moves earlier than the arrival', () => {
    const early = call('DEPA', OUTBOUND, 'EST', 195, 10);
    const e = single(run([...plan, early]), 'MISSED_CONNECTION');
    expect(e).toMatchObject({ relatedEventID: early.eventID, impact: { delayHours: 5 } });
  });

  it('a worse arrival updates the same exception', () => {
    const worse = call('ARRI', INBOUND, 'EST', 250, 20);
    const list = missed([...plan, lateIn, worse]);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      exceptionID: connectionId,
      detectedDateTime: lateIn.eventCreatedDateTime,
      relatedEventID: worse.eventID,
      impact: { revisedValue: at(250), delayHours: 20 },
    });
  });

  it('names the containers handled at the transshipment port, else all of the shipment', () => {
    expect(single(run([...plan, lateIn]), 'MISSED_CONNECTION').affectedContainers).toEqual([CONTAINERS[0], CONTAINERS[1]].sort());
    const disc = equipmentEvent({
      type: 'DISC',
      classifier: 'PLN',
      container: CONTAINERS[1],
      port: 'SGSIN',
      ...INBOUND,
      eventDateTime: at(205),
      created: at(0),
    });
    expect(single(run([...plan, disc, lateIn]), 'MISSED_CONNECTION').affectedContainers).toEqual([CONTAINERS[1]]);
  });

  it('an actual arrival after the actual departure is a missed connection', () => {
    const left = call('DEPA', OUTBOUND, 'ACT', 230, 230);
    const arrived = call('ARRI', INBOUND, 'ACT', 236, 236);
    expect(single(run([...plan, left, arrived]), 'MISSED_CONNECTION').detectedDateTime).toBe(at(236));
  });
});

describe('MISSED_CONNECTION resolution', () => {
  it('SCHEDULE_RECOVERED when the inbound moves back in time', () => {
    const back = call('ARRI', INBOUND, 'EST', 220, 20);
    const e = single(run([...plan, lateIn, back]), 'MISSED_CONNECTION');
    expectWellFormed(e);
    expect(e).toMatchObject({
      exceptionID: connectionId,
      status: 'RESOLVED',
      resolutionType: 'SCHEDULE_RECOVERED',
      resolvedDateTime: back.eventCreatedDateTime,
      impact: { field: 'inboundArrival', previousValue: at(240), revisedValue: at(220), delayHours: 0 },
    });
    expect(e.resolutionNote).toContain('10 h connection');
  });

  it('SCHEDULE_RECOVERED when the same outbound now leaves later (delay against plan reported)', () => {
    const waits = call('DEPA', OUTBOUND, 'EST', 260, 20);
    const e = single(run([...plan, lateIn, waits]), 'MISSED_CONNECTION');
    expect(e).toMatchObject({
      resolutionType: 'SCHEDULE_RECOVERED',
      impact: { field: 'outboundDeparture', previousValue: at(230), revisedValue: at(260), delayHours: 30 },
    });
  });

  it('REBOOKED when the outbound is re-planned on another vessel that connects', () => {
    const rebooked = call('DEPA', OTHER_OUTBOUND, 'PLN', 300, 20);
    const e = single(run([...plan, lateIn, rebooked]), 'MISSED_CONNECTION');
    expectWellFormed(e);
    expect(e).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'REBOOKED',
      resolvedDateTime: rebooked.eventCreatedDateTime,
      relatedEventID: rebooked.eventID,
      impact: { field: 'outboundDeparture', previousValue: at(230), revisedValue: at(300), delayHours: 70 },
    });
    expect(e.resolutionNote).toContain('MAERSK DELTA (IMO 9800013) voyage 612W departs');
  });

  it('the abandoned outbound actually departing does not bring the exception back', () => {
    const rebooked = call('DEPA', OTHER_OUTBOUND, 'PLN', 300, 20);
    const abandonedLeaves = call('DEPA', OUTBOUND, 'ACT', 231, 231);
    expect(single(run([...plan, lateIn, rebooked, abandonedLeaves]), 'MISSED_CONNECTION')).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'REBOOKED',
    });
  });

  it('a new miss after recovery is a new exception; the recovered one stays resolved', () => {
    const back = call('ARRI', INBOUND, 'EST', 220, 20);
    const again = call('ARRI', INBOUND, 'EST', 245, 30);
    const list = ofType(run([...plan, lateIn, back, again]), 'MISSED_CONNECTION');
    expect(list.map((e) => [e.exceptionID, e.status, e.resolutionType])).toEqual([
      [connectionId, 'RESOLVED', 'SCHEDULE_RECOVERED'],
      [exceptionIdFor(shipmentMaster(), 'MISSED_CONNECTION', 'SGSIN', 1), 'DETECTED', undefined],
    ]);
    expect(list[1]?.detectedDateTime).toBe(at(30));
  });
});
