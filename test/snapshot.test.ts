import { describe, expect, it } from 'vitest';
import { bestVersion, bestVersionPerMilestone, milestoneKey } from '../src/domain/milestones.js';
import { assembleContainer, assembleSnapshot, computeSchedule, latestContainerEvent } from '../src/domain/snapshot.js';
import { toUtcIso } from '../src/domain/timestamps.js';
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

const [BOX] = CONTAINERS;
const call = { port: 'NLRTM', vessel: VESSELS.ALPHA, voyage: '610W' } as const;

describe('best version per milestone (docs/architecture.md, Snapshot rules)', () => {
  const pln = transportEvent({ ...call, type: 'ARRI', classifier: 'PLN', eventDateTime: at(100), created: at(0) });
  const estEarly = transportEvent({ ...call, type: 'ARRI', classifier: 'EST', eventDateTime: at(110), created: at(10) });
  const estLate = transportEvent({ ...call, type: 'ARRI', classifier: 'EST', eventDateTime: at(104), created: at(20) });
  const act = transportEvent({ ...call, type: 'ARRI', classifier: 'ACT', eventDateTime: at(106), created: at(106) });

  it('prefers ACT over EST over PLN whatever the creation order', () => {
    expect(bestVersion([act, estLate, pln])).toBe(act);
    expect(bestVersion([pln, estEarly])).toBe(estEarly);
    // An ACT created before a later estimate still wins: the milestone has happened.
    const lateEstimate = { ...estLate, eventCreatedDateTime: at(200) };
    expect(bestVersion([lateEstimate, act])).toBe(act);
  });

  it('takes the latest eventCreatedDateTime among versions of the same classifier', () => {
    expect(bestVersion([estLate, estEarly])).toBe(estLate);
    expect(bestVersion([estEarly, estLate])).toBe(estLate);
  });

  it('breaks exact ties by eventID so that the result never depends on input order', () => {
    const twin = { ...estLate, eventID: 'ffffffff-ffff-4fff-8fff-ffffffffffff' };
    expect(bestVersion([estLate, twin])).toBe(twin);
    expect(bestVersion([twin, estLate])).toBe(twin);
  });

  it('keeps one event per milestone: type code, call, container', () => {
    const departure = transportEvent({ ...call, port: 'CNSHA', type: 'DEPA', classifier: 'ACT', eventDateTime: at(0), created: at(0) });
    const otherVessel = transportEvent({
      ...call,
      vessel: VESSELS.BRAVO,
      type: 'ARRI',
      classifier: 'PLN',
      eventDateTime: at(150),
      created: at(30),
    });
    const best = bestVersionPerMilestone([pln, estEarly, estLate, act, departure, otherVessel]);
    expect(best).toEqual([departure, act, otherVessel]);
    expect(milestoneKey(pln)).toBe(milestoneKey(act));
    expect(milestoneKey(pln)).not.toBe(milestoneKey(otherVessel));
  });

  it('identifies a call by its DCSA transportCallID: an ACT adding the terminal and import voyage replaces the PLN', () => {
    const withId = (e: ReturnType<typeof transportEvent>, extra: object) => ({
      ...e,
      transportCall: { ...e.transportCall, transportCallID: 'TC-NLRTM-610W', ...extra },
    });
    const planned = withId(pln, { importVoyageNumber: undefined, facilityCode: undefined });
    const actual = withId(act, { importVoyageNumber: '610E', facilityCode: 'ECTDE', facilityCodeListProvider: 'SMDG' });
    expect(milestoneKey(planned)).toBe(milestoneKey(actual));
    expect(bestVersionPerMilestone([planned, actual])).toEqual([actual]);
    // Another call ID is another call, even at the same port with the same vessel.
    const otherCall = withId(estLate, { transportCallID: 'TC-NLRTM-612W' });
    expect(milestoneKey(otherCall)).not.toBe(milestoneKey(planned));
  });

  it('without a transportCallID, identifies a call by port, sequence number and vessel, not by voyage or terminal', () => {
    const actual = { ...act, transportCall: { ...act.transportCall, facilityCode: 'ECTDE', importVoyageNumber: '610E' } };
    expect(milestoneKey(pln)).toBe(milestoneKey(actual));
    const sequenced = (e: typeof pln, n: number) => ({ ...e, transportCall: { ...e.transportCall, transportCallSequenceNumber: n } });
    expect(milestoneKey(sequenced(pln, 1))).toBe(milestoneKey(sequenced(act, 1)));
    expect(milestoneKey(sequenced(pln, 1))).not.toBe(milestoneKey(sequenced(act, 2)));
  });

  it('does not split a milestone by the empty/laden flag', () => {
    const plannedEmpty = equipmentEvent({
      type: 'GTIN',
      container: BOX,
      port: 'NLRTM',
      classifier: 'PLN',
      empty: 'EMPTY',
      eventDateTime: at(1),
      created: at(0),
    });
    const actualLaden = equipmentEvent({
      type: 'GTIN',
      container: BOX,
      port: 'NLRTM',
      classifier: 'ACT',
      empty: 'LADEN',
      eventDateTime: at(2),
      created: at(2),
    });
    expect(milestoneKey(plannedEmpty)).toBe(milestoneKey(actualLaden));
    expect(bestVersionPerMilestone([plannedEmpty, actualLaden])).toEqual([actualLaden]);
  });

  it('keys equipment milestones by container and by location when there is no transport call', () => {
    const gateOutA = equipmentEvent({
      type: 'GTOT',
      container: BOX,
      port: 'NLRTM',
      classifier: 'PLN',
      eventDateTime: at(1),
      created: at(0),
    });
    const gateOutB = equipmentEvent({
      type: 'GTOT',
      container: CONTAINERS[1],
      port: 'NLRTM',
      classifier: 'PLN',
      eventDateTime: at(1),
      created: at(0),
    });
    const gateOutElsewhere = equipmentEvent({
      type: 'GTOT',
      container: BOX,
      port: 'DEDUI',
      classifier: 'PLN',
      eventDateTime: at(1),
      created: at(0),
    });
    expect(new Set([gateOutA, gateOutB, gateOutElsewhere].map(milestoneKey)).size).toBe(3);
  });

  it('keys shipment milestones by type code and document', () => {
    const conf1 = shipmentEvent({ type: 'CONF', documentID: 'B1', classifier: 'ACT', eventDateTime: at(0), created: at(0) });
    const conf2 = shipmentEvent({ type: 'CONF', documentID: 'B1', classifier: 'ACT', eventDateTime: at(5), created: at(5) });
    const issued = shipmentEvent({ type: 'ISSU', documentID: 'BL1', classifier: 'ACT', eventDateTime: at(9), created: at(9) });
    expect(bestVersionPerMilestone([conf1, conf2, issued])).toEqual([conf2, issued]);
  });
});

describe('etd and eta', () => {
  const master = shipmentMaster();
  it('etd is the best departure at the port of loading, eta the best arrival at the port of discharge', () => {
    const events = [
      transportEvent({
        port: 'CNSHA',
        vessel: VESSELS.ALPHA,
        voyage: '610W',
        type: 'DEPA',
        classifier: 'PLN',
        eventDateTime: at(0),
        created: at(-100),
      }),
      transportEvent({
        port: 'CNSHA',
        vessel: VESSELS.ALPHA,
        voyage: '610W',
        type: 'DEPA',
        classifier: 'ACT',
        eventDateTime: at(3),
        created: at(3),
      }),
      transportEvent({
        port: 'SGSIN',
        vessel: VESSELS.ALPHA,
        voyage: '610W',
        type: 'ARRI',
        classifier: 'EST',
        eventDateTime: at(100),
        created: at(5),
      }),
      transportEvent({
        port: 'NLRTM',
        vessel: VESSELS.BRAVO,
        voyage: '611W',
        type: 'ARRI',
        classifier: 'PLN',
        eventDateTime: at(600),
        created: at(-100),
      }),
      transportEvent({
        port: 'NLRTM',
        vessel: VESSELS.BRAVO,
        voyage: '611W',
        type: 'ARRI',
        classifier: 'EST',
        eventDateTime: at(620),
        created: at(50),
      }),
    ];
    expect(computeSchedule(master, events)).toEqual({ etd: at(3), eta: at(620) });
  });

  it('is null without a matching event or port', () => {
    expect(computeSchedule(master, [])).toEqual({ etd: null, eta: null });
    expect(computeSchedule({}, [])).toEqual({ etd: null, eta: null });
  });
});

describe('container latestEvent and eventHistory', () => {
  const gateIn = equipmentEvent({
    type: 'GTIN',
    container: BOX,
    port: 'CNSHA',
    classifier: 'ACT',
    eventDateTime: at(-20),
    created: at(-20),
  });
  const loadPlan = equipmentEvent({
    type: 'LOAD',
    container: BOX,
    port: 'CNSHA',
    vessel: VESSELS.ALPHA,
    voyage: '610W',
    classifier: 'PLN',
    eventDateTime: at(-2),
    created: at(-100),
  });
  const loaded = equipmentEvent({
    type: 'LOAD',
    container: BOX,
    port: 'CNSHA',
    vessel: VESSELS.ALPHA,
    voyage: '610W',
    classifier: 'ACT',
    eventDateTime: at(-1),
    created: at(-1),
  });
  const discharge = equipmentEvent({
    type: 'DISC',
    container: BOX,
    port: 'NLRTM',
    vessel: VESSELS.ALPHA,
    voyage: '610W',
    classifier: 'EST',
    eventDateTime: at(500),
    created: at(10),
  });
  const gateOut = equipmentEvent({
    type: 'GTOT',
    container: BOX,
    port: 'NLRTM',
    classifier: 'PLN',
    eventDateTime: at(520),
    created: at(-100),
  });

  it('is the most recent actual event once any has happened', () => {
    expect(latestContainerEvent([gateIn, loaded, discharge, gateOut])).toBe(loaded);
  });

  it('is the next estimated or planned event before any actual one', () => {
    expect(latestContainerEvent([gateOut, discharge, loadPlan])).toBe(loadPlan);
    expect(latestContainerEvent([])).toBeNull();
  });

  it('history has one best version per milestone in time order, only of that container', () => {
    const otherBox = equipmentEvent({
      type: 'GTIN',
      container: CONTAINERS[1],
      port: 'CNSHA',
      classifier: 'ACT',
      eventDateTime: at(-30),
      created: at(-30),
    });
    const snapshot = assembleContainer(containerMaster(BOX), [gateOut, loaded, otherBox, discharge, loadPlan, gateIn]);
    expect(snapshot.eventHistory).toEqual([gateIn, loaded, discharge, gateOut]);
    expect(snapshot.latestEvent).toBe(loaded);
  });

  it('assembles the whole snapshot with containers in master order and exceptions as given', () => {
    const snapshot = assembleSnapshot(shipmentMaster(), [containerMaster(CONTAINERS[1]), containerMaster(BOX)], [gateIn, loaded], []);
    expect(snapshot.containers.map((c) => c.containerNumber)).toEqual([CONTAINERS[1], BOX]);
    expect(snapshot.containers[0]?.eventHistory).toEqual([]);
    expect(snapshot.exceptions).toEqual([]);
  });
});

describe('timestamps', () => {
  it('serves any UTC offset as canonical UTC with Z and rejects what is not a timestamp', () => {
    expect(toUtcIso('2026-11-01T12:00:00+01:00')).toBe('2026-11-01T11:00:00.000Z');
    expect(toUtcIso('2026-11-01T12:00Z')).toBe('2026-11-01T12:00:00.000Z');
    expect(toUtcIso('2026-11-01T12:00:00')).toBeNull();
    expect(toUtcIso('2026-02-30T12:00:00Z')).toBeNull();
    expect(toUtcIso('yesterday')).toBeNull();
  });

  it('knows the calendar: leap years by the Gregorian rule, month lengths, and canonical input kept as is', () => {
    expect(toUtcIso('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(toUtcIso('2000-02-29T00:00:00Z')).toBe('2000-02-29T00:00:00.000Z');
    expect(toUtcIso('2100-02-29T00:00:00Z')).toBeNull();
    expect(toUtcIso('2026-02-29T00:00:00Z')).toBeNull();
    expect(toUtcIso('2026-04-31T00:00:00Z')).toBeNull();
    expect(toUtcIso('2026-12-31T23:59:59Z')).toBe('2026-12-31T23:59:59.000Z');
    // Already canonical: the same string back; other precisions become milliseconds.
    expect(toUtcIso('2026-11-01T12:00:00.123Z')).toBe('2026-11-01T12:00:00.123Z');
    expect(toUtcIso('2026-11-01T12:00:00.1234Z')).toBe('2026-11-01T12:00:00.123Z');
    expect(toUtcIso('2026-11-01T12:00:00.5Z')).toBe('2026-11-01T12:00:00.500Z');
    expect(toUtcIso('2026-11-01T12:00:00.123+02:00')).toBe('2026-11-01T10:00:00.123Z');
  });
});
