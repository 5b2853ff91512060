import { describe, expect, it } from 'vitest';
import { exceptionIdFor } from '../src/domain/exception-engine.js';
import type { EventClassifierCode, TrackingEvent, Vessel } from '../src/domain/types.js';
import { at, CONTAINERS, equipmentEvent, shipmentMaster, transportEvent, VESSELS } from './support/event-builders.js';
import { expectWellFormed, ofType, run, single } from './support/exception-engine-fixtures.js';

interface Call {
  vessel: Vessel;
  voyage?: string;
  /** Hours after T0 at which containers are planned to load on this call. */
  loadAt: number;
}
/** Three successive departures from Shanghai, a week apart. */
const X: Call = { vessel: VESSELS.ALPHA, voyage: '610W', loadAt: 40 };
const Y: Call = { vessel: VESSELS.CHARLIE, voyage: '620W', loadAt: 208 };
const Z: Call = { vessel: VESSELS.DELTA, voyage: '630W', loadAt: 376 };
const [C1, C2] = CONTAINERS;

function loadPlan(container: string, call: Call, created: number, classifier: EventClassifierCode = 'PLN') {
  return equipmentEvent({
    type: 'LOAD',
    classifier,
    container,
    port: 'CNSHA',
    vessel: call.vessel,
    voyage: call.voyage,
    eventDateTime: at(call.loadAt),
    created: at(created),
  });
}
function loaded(container: string, call: Call, created: number) {
  return equipmentEvent({
    type: 'LOAD',
    classifier: 'ACT',
    container,
    port: 'CNSHA',
    vessel: call.vessel,
    voyage: call.voyage,
    eventDateTime: at(created - 1),
    created: at(created),
  });
}
function departed(call: Call, created: number) {
  return transportEvent({
    type: 'DEPA',
    classifier: 'ACT',
    port: 'CNSHA',
    vessel: call.vessel,
    voyage: call.voyage,
    eventDateTime: at(created - 0.5),
    created: at(created),
  });
}

const rollovers = (events: TrackingEvent[]) => ofType(run(events), 'ROLLOVER');
const idFor = (container: string, call: Call) =>
  exceptionIdFor(shipmentMaster(), 'ROLLOVER', `${container}/CNSHA/${call.vessel.vesselIMONumber}/${call.voyage ?? ''}`);

describe('ROLLOVER is not raised', () => {
  it('when the container loads before the vessel departs', () => {
    expect(rollovers([loadPlan(C1, X, 0), loaded(C1, X, 40), departed(X, 50)])).toEqual([]);
  });

  it('while the planned vessel has not departed, however often the plan is re-estimated', () => {
    expect(rollovers([loadPlan(C1, X, 0), loadPlan(C1, X, 10, 'EST'), loadPlan(C1, X, 20, 'EST')])).toEqual([]);
  });

  it('when the load is published in the same batch as the departure', () => {
    expect(rollovers([loadPlan(C1, X, 0), loaded(C1, X, 50), departed(X, 50)])).toEqual([]);
  });

  it('when the voyage is only known on some versions of the same vessel call', () => {
    const noVoyage = { vessel: X.vessel, loadAt: X.loadAt };
    expect(rollovers([loadPlan(C1, noVoyage, 0), loadPlan(C1, X, 10)])).toEqual([]);
    // ...and a departure without a voyage is still the departure of that call.
    expect(rollovers([loadPlan(C1, X, 0), departed(noVoyage, 20)])).toHaveLength(1);
  });

  it('for a shipment without a port of loading', () => {
    const events = [loadPlan(C1, X, 0), departed(X, 50)];
    expect(ofType(run(events, { shipment: shipmentMaster({ portOfLoading: undefined }) }), 'ROLLOVER')).toEqual([]);
  });

  it('when the container is moved to an earlier departure or swapped to another vessel at the same time', () => {
    const earlier: Call = { vessel: VESSELS.BRAVO, voyage: '600W', loadAt: 20 };
    const swap: Call = { vessel: VESSELS.BRAVO, voyage: '610W', loadAt: X.loadAt };
    expect(rollovers([loadPlan(C1, X, 0), loadPlan(C1, earlier, 10)])).toEqual([]);
    expect(rollovers([loadPlan(C1, X, 0), loadPlan(C1, swap, 10)])).toEqual([]);
    // ...and the original vessel then leaving without it is no roll either: it is no longer the plan.
    expect(rollovers([loadPlan(C1, X, 0), loadPlan(C1, swap, 10), departed(X, 50)])).toEqual([]);
  });

  it('for a departure of another vessel', () => {
    expect(rollovers([loadPlan(C1, X, 0), departed(Z, 50)])).toEqual([]);
  });
});

describe('ROLLOVER left behind (the vessel departed without the container)', () => {
  const plan = loadPlan(C1, X, 0);
  const departure = departed(X, 50);

  it('is detected at the departure, for the container concerned only', () => {
    const list = rollovers([plan, loadPlan(C2, X, 0), loaded(C2, X, 45), departure]);
    expect(list).toHaveLength(1);
    const e = list[0];
    if (!e) throw new Error('missing');
    expectWellFormed(e);
    expect(e).toMatchObject({
      exceptionID: idFor(C1, X),
      exceptionCategory: 'OPERATIONAL',
      severity: 'CRITICAL',
      status: 'DETECTED',
      // When the vessel actually left, not when the carrier reported it.
      detectedDateTime: departure.eventDateTime,
      relatedEventID: departure.eventID,
      affectedContainers: [C1],
    });
    expect(e.title).toBe(`Container ${C1} rolled over at Shanghai (CNSHA)`);
    expect(e.description).toContain('MAERSK ALPHA (IMO 9321483) voyage 610W departed Shanghai (CNSHA)');
    expect(e.recommendedAction).toContain('Maersk (MAEU)');
    expect(e.recommendedAction).toContain(C1);
    expect(e.impact).toBeUndefined();
  });

  it('is resolved REBOOKED by a new plan on a later departure', () => {
    const rebook = loadPlan(C1, Y, 60);
    const e = single(run([plan, departure, rebook]), 'ROLLOVER');
    expectWellFormed(e);
    expect(e).toMatchObject({
      exceptionID: idFor(C1, X),
      status: 'RESOLVED',
      resolutionType: 'REBOOKED',
      resolvedDateTime: rebook.eventCreatedDateTime,
      detectedDateTime: departure.eventDateTime,
      relatedEventID: rebook.eventID,
      impact: {
        field: 'vessel',
        previousValue: 'MAERSK ALPHA (IMO 9321483) voyage 610W',
        revisedValue: 'MAERSK CHARLIE (IMO 9753246) voyage 620W',
      },
    });
    expect(e.resolutionNote).toContain('MAERSK CHARLIE');
  });

  it('is resolved EVENT_ACTUALIZED when the load is reported after all', () => {
    const late = loaded(C1, X, 70);
    const e = single(run([plan, departure, late]), 'ROLLOVER');
    expect(e).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'EVENT_ACTUALIZED',
      resolvedDateTime: late.eventDateTime,
      relatedEventID: late.eventID,
    });
  });

  it('a new plan made at the instant of the departure is the roll, not a rebooking', () => {
    const sameBatch = loadPlan(C1, Y, 49.5);
    const e = single(run([plan, departure, sameBatch]), 'ROLLOVER');
    expect(e).toMatchObject({ status: 'DETECTED', impact: { field: 'vessel' } });
    expect(e.description).toContain('re-planned on MAERSK CHARLIE');
    // A later confirmation of that plan is the rebooking.
    const confirmed = loadPlan(C1, Y, 80, 'EST');
    expect(single(run([plan, departure, sameBatch, confirmed]), 'ROLLOVER')).toMatchObject({
      status: 'RESOLVED',
      resolutionType: 'REBOOKED',
      resolvedDateTime: confirmed.eventCreatedDateTime,
    });
  });

  it('a plan on a vessel that has already left is no rebooking', () => {
    const e = single(run([plan, departure, departed(Y, 55), loadPlan(C1, Y, 60)]), 'ROLLOVER');
    expect(e).toMatchObject({ exceptionID: idFor(C1, X), status: 'DETECTED' });
  });
});

describe('ROLLOVER re-planned (carrier moves the container before departure)', () => {
  const plan = loadPlan(C1, X, 0);
  const replan = loadPlan(C1, Y, 20);

  it('is detected when the newer plan names another vessel', () => {
    const e = single(run([plan, replan]), 'ROLLOVER');
    expectWellFormed(e);
    expect(e).toMatchObject({
      exceptionID: idFor(C1, X),
      status: 'DETECTED',
      detectedDateTime: replan.eventCreatedDateTime,
      relatedEventID: replan.eventID,
      impact: { field: 'vessel', revisedValue: 'MAERSK CHARLIE (IMO 9753246) voyage 620W' },
    });
    expect(e.description).toContain('has been re-planned on MAERSK CHARLIE (IMO 9753246) voyage 620W');
    expect(e.recommendedAction).toContain('Confirm with Maersk (MAEU)');
  });

  it('is detected for another voyage of the same vessel', () => {
    expect(rollovers([plan, loadPlan(C1, { vessel: X.vessel, voyage: '612W', loadAt: 100 }, 20)])).toHaveLength(1);
  });

  it('the original vessel departing later updates the same exception, no duplicate', () => {
    const list = rollovers([plan, replan, departed(X, 50)]);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: 'DETECTED', detectedDateTime: replan.eventCreatedDateTime });
    expect(list[0]?.description).toContain('departed Shanghai (CNSHA)');
  });

  it('is resolved EVENT_ACTUALIZED when the container loads on the new vessel', () => {
    const load = loaded(C1, Y, 90);
    const e = single(run([plan, replan, departed(X, 50), load, departed(Y, 95)]), 'ROLLOVER');
    expect(e).toMatchObject({ status: 'RESOLVED', resolutionType: 'EVENT_ACTUALIZED', relatedEventID: load.eventID });
    expect(e.resolutionNote).toContain('loaded on MAERSK CHARLIE');
  });

  it('is resolved REBOOKED when the carrier publishes a newer plan on a departure still to come', () => {
    const confirm = loadPlan(C1, Y, 30, 'EST');
    expect(single(run([plan, replan, confirm]), 'ROLLOVER')).toMatchObject({
      resolutionType: 'REBOOKED',
      resolvedDateTime: confirm.eventCreatedDateTime,
    });
  });

  it('is resolved REBOOKED when re-planned back onto the original vessel before it departs', () => {
    const back = loadPlan(C1, X, 30, 'EST');
    const e = single(run([plan, replan, back]), 'ROLLOVER');
    expect(e).toMatchObject({ status: 'RESOLVED', resolutionType: 'REBOOKED', relatedEventID: back.eventID });
    expect(e.resolutionNote).toContain('MAERSK ALPHA (IMO 9321483) voyage 610W at Shanghai (CNSHA) again');
  });

  it('a roll after being planned back is a new exception; the first stays resolved', () => {
    const back = loadPlan(C1, X, 30, 'EST');
    const first = single(run([plan, replan, back]), 'ROLLOVER');
    const departure = departed(X, 50);
    const list = rollovers([plan, replan, back, departure]);
    expect(list).toEqual([
      first,
      expect.objectContaining({
        exceptionID: exceptionIdFor(shipmentMaster(), 'ROLLOVER', `${C1}/CNSHA/${X.vessel.vesselIMONumber}/${X.voyage}`, 1),
        status: 'DETECTED',
        detectedDateTime: departure.eventDateTime,
      }),
    ]);
  });

  it('rolled twice: one exception per missed call, the first rebooked by the second plan', () => {
    const again = loadPlan(C1, Z, 40);
    const list = rollovers([plan, replan, again]);
    expect(list.map((e) => [e.exceptionID, e.status, e.resolutionType])).toEqual([
      [idFor(C1, X), 'RESOLVED', 'REBOOKED'],
      [idFor(C1, Y), 'DETECTED', undefined],
    ]);
  });
});
