import { byFactTime, eventUnLocationCode, factTime } from '../milestones.js';
import type { EquipmentEvent, TransportCall, TransportEvent } from '../types.js';
import type { ActiveCondition, ExceptionRule, Knowledge, RuleResolution } from './rule.js';
import { carrierLabel, formatTime, portLabel, vesselLabel } from './wording.js';

/**
 * ROLLOVER (OPERATIONAL, always CRITICAL). Subject: one container and the
 * loading call it was planned on at the port of loading (POL):
 * `CONTAINER/POL/VESSEL/VOYAGE`, so a container rolled twice (from X to Y,
 * then from Y to Z) gets one exception per missed call.
 *
 * Exact rule, for container C and a loading call X (a vessel, by IMO number
 * or else name, and its voyage; a missing voyage on either side matches any
 * voyage of that vessel):
 *
 * 1. C is planned on X: a PLN or EST LOAD of C at POL on X is known.
 * 2. C is rolled from X when C has not been loaded at POL (no ACT LOAD, on
 *    any call) and one of these has happened, whichever came first in fact
 *    time (`factTime`: an actual's eventDateTime, a plan's creation), the
 *    roll moment:
 *    a. left behind: X actually departed POL while X was C's current plan
 *       (C's newest plan made up to the departure);
 *    b. re-planned: a PLN/EST LOAD of C at POL on another call, made after
 *       C's newest plan on X and planned to load later than it (a move to
 *       an earlier or same-time loading is an advance or a vessel swap, not
 *       a roll; a plan back onto X undoes the roll).
 * 3. The exception holds while C is rolled from X and not rebooked, where
 *    rebooked means a PLN/EST LOAD of C at POL on another call Y, made
 *    strictly after the roll moment, at a time when Y had not departed POL
 *    (a plan on a later departure that exists after the rollover).
 *
 * It resolves with EVENT_ACTUALIZED when C is loaded at POL (on another
 * vessel, or a late report of the load on X), with REBOOKED when the rule 3
 * plan appears or when C is re-planned back onto X before X departs, and
 * with DATA_CORRECTED when the shipment's data no longer supports it (e.g.
 * another port of loading).
 *
 * @NOTE Consequence of 2b and 3: a carrier that announces a roll by
 * re-planning C on Y raises the exception at once (the customer must hear
 * of it); that same plan is the roll, so it does not count as the rebooking.
 * The exception then stays open until C loads, or until the carrier
 * publishes a newer plan for C on a departure still to come (confirming the
 * rebooking). A roll and its rebooking published in the same batch (same
 * eventCreatedDateTime) likewise leave the exception open.
 */

interface LoadingCall {
  /** Identity of the vessel: IMO number, or its name when the IMO number is missing. */
  vesselId: string;
  voyage: string | undefined;
  call: TransportCall;
}

function loadingCallOf(call: TransportCall | undefined): LoadingCall | null {
  const vessel = call?.vessel;
  if (!call || !vessel) return null;
  const vesselId = vessel.vesselIMONumber || vessel.vesselName;
  if (!vesselId) return null;
  return { vesselId, voyage: call.exportVoyageNumber || call.importVoyageNumber || undefined, call };
}

function sameCall(a: LoadingCall, b: LoadingCall): boolean {
  return a.vesselId === b.vesselId && (!a.voyage || !b.voyage || a.voyage === b.voyage);
}

function callKey(call: LoadingCall): string {
  return `${call.vesselId}/${call.voyage ?? ''}`;
}

interface Plan {
  event: EquipmentEvent;
  call: LoadingCall;
}

interface ContainerAtLoading {
  container: string;
  /** PLN/EST LOADs at POL that name a vessel, in fact-time (= creation) order. */
  plans: Plan[];
  /** ACT LOADs at POL, in fact-time order. */
  loads: EquipmentEvent[];
  /** Distinct calls C was planned on, keyed by their first-created plan. */
  calls: Map<string, LoadingCall>;
}

function containerAtLoading(k: Knowledge, container: string): ContainerAtLoading | null {
  const pol = k.portOfLoading;
  if (!pol) return null;
  const plans: Plan[] = [];
  const loads: EquipmentEvent[] = [];
  const calls = new Map<string, LoadingCall>();
  for (const event of k.equipmentOf(container)) {
    if (event.equipmentEventTypeCode !== 'LOAD' || eventUnLocationCode(event) !== pol) continue;
    if (event.eventClassifierCode === 'ACT') {
      loads.push(event);
      continue;
    }
    const call = loadingCallOf(event.transportCall);
    if (!call) continue;
    plans.push({ event, call });
    if (![...calls.values()].some((known) => sameCall(known, call))) calls.set(callKey(call), call);
  }
  return plans.length > 0 ? { container, plans, loads, calls } : null;
}

/** ACT departures from POL, in fact-time order. */
function departuresFromLoading(k: Knowledge): { event: TransportEvent; call: LoadingCall }[] {
  const out: { event: TransportEvent; call: LoadingCall }[] = [];
  for (const event of k.transport) {
    if (
      event.transportEventTypeCode !== 'DEPA' ||
      event.eventClassifierCode !== 'ACT' ||
      event.transportCall.unLocationCode !== k.portOfLoading
    ) {
      continue;
    }
    const call = loadingCallOf(event.transportCall);
    if (call) out.push({ event, call });
  }
  return out;
}

type RollState =
  | { kind: 'not-rolled' }
  | { kind: 'loaded'; load: EquipmentEvent }
  | { kind: 'rebooked'; rebook: Plan }
  | {
      kind: 'rolled';
      trigger: EquipmentEvent | TransportEvent;
      /** X's actual departure from POL, when known (described, whatever the trigger). */
      departure: TransportEvent | undefined;
      /** C's newest plan, when it is on another call than X. */
      elsewhere: Plan | undefined;
    };

function rollState(c: ContainerAtLoading, x: LoadingCall, departures: readonly { event: TransportEvent; call: LoadingCall }[]): RollState {
  const firstLoad = c.loads[0];
  if (firstLoad) return { kind: 'loaded', load: firstLoad };
  const onX = c.plans.filter((p) => sameCall(p.call, x));
  const newestOnX = onX[onX.length - 1];
  if (!newestOnX) return { kind: 'not-rolled' };
  const isAfter = (a: EquipmentEvent | TransportEvent, b: EquipmentEvent | TransportEvent) => byFactTime(a, b) > 0;
  const replanAway = c.plans.find(
    (p) => !sameCall(p.call, x) && isAfter(p.event, newestOnX.event) && p.event.eventDateTime > newestOnX.event.eventDateTime,
  );
  const currentPlanAt = (e: TransportEvent) => c.plans.filter((p) => factTime(p.event) <= factTime(e)).pop();
  const leftBehind = departures.find((d) => {
    if (!sameCall(d.call, x)) return false;
    const current = currentPlanAt(d.event);
    return current === undefined || sameCall(current.call, x);
  })?.event;
  const candidates = [replanAway?.event, leftBehind].filter((e) => e !== undefined);
  // Both lists are in fact-time order, so the earlier of the two first matches is the roll moment.
  const trigger = candidates.reduce<EquipmentEvent | TransportEvent | undefined>(
    (first, e) => (first === undefined || isAfter(first, e) ? e : first),
    undefined,
  );
  if (!trigger) return { kind: 'not-rolled' };
  const departedBy = (call: LoadingCall, at: string) => departures.some((d) => sameCall(d.call, call) && factTime(d.event) <= at);
  const rebook = c.plans.find(
    (p) => !sameCall(p.call, x) && factTime(p.event) > factTime(trigger) && !departedBy(p.call, factTime(p.event)),
  );
  if (rebook) return { kind: 'rebooked', rebook };
  const newest = c.plans[c.plans.length - 1];
  const elsewhere = newest && !sameCall(newest.call, x) ? newest : undefined;
  const departure = departures.find((d) => sameCall(d.call, x))?.event;
  return { kind: 'rolled', trigger, departure, elsewhere };
}

interface RolloverMemo {
  container: string;
  /** UN/LOCODE of the port of loading the roll happened at. */
  port: string;
  callKey: string;
  call: TransportCall;
}

export const rolloverRule: ExceptionRule<RolloverMemo> = {
  type: 'ROLLOVER',
  category: 'OPERATIONAL',

  evaluate(k: Knowledge): ActiveCondition<RolloverMemo>[] {
    const pol = k.portOfLoading;
    if (!pol) return [];
    const departures = departuresFromLoading(k);
    const out: ActiveCondition<RolloverMemo>[] = [];
    for (const container of k.equipmentReferences()) {
      const c = containerAtLoading(k, container);
      if (!c) continue;
      for (const [key, x] of c.calls) {
        const state = rollState(c, x, departures);
        if (state.kind !== 'rolled') continue;
        const port = portLabel(k, pol);
        const planned = vesselLabel(x.call);
        const sentences: string[] = [];
        if (state.elsewhere) {
          sentences.push(
            `Container ${container}, planned to load on ${planned} at ${port}, has been re-planned on ` +
              `${vesselLabel(state.elsewhere.call.call)} (planned loading ` +
              `${formatTime(state.elsewhere.event.eventDateTime)}).`,
          );
        }
        if (state.departure) {
          sentences.push(
            `${planned} departed ${port} at ${formatTime(state.departure.eventDateTime)} without container ` +
              `${container}${state.elsewhere ? '' : ', which was planned to load on it'}.`,
          );
        }
        const carrier = carrierLabel(k.shipment);
        out.push({
          subject: `${container}/${pol}/${key}`,
          severity: 'CRITICAL',
          title: `Container ${container} rolled over at ${port}`,
          description: sentences.join(' '),
          recommendedAction: state.elsewhere
            ? `Confirm with ${carrier} that container ${container} will load on ` +
              `${vesselLabel(state.elsewhere.call.call)} at ${port}, and tell the consignee about the later arrival.`
            : `Ask ${carrier} to rebook container ${container} on the next departure from ${port}, confirm the ` +
              `new loading date, and tell the consignee about the later arrival.`,
          relatedEventID: state.trigger.eventID,
          affectedContainers: [container],
          ...(state.elsewhere
            ? {
                impact: {
                  field: 'vessel',
                  previousValue: vesselLabel(x.call),
                  revisedValue: vesselLabel(state.elsewhere.call.call),
                },
              }
            : {}),
          memo: { container, port: pol, callKey: key, call: x.call },
        });
      }
    }
    return out;
  },

  resolve(k: Knowledge, _clock: string, last: ActiveCondition<RolloverMemo>): RuleResolution {
    const { container, call } = last.memo;
    const port = portLabel(k, k.portOfLoading);
    const planned = vesselLabel(call);
    const c = containerAtLoading(k, container);
    const x = loadingCallOf(call);
    const state = c && x ? rollState(c, x, departuresFromLoading(k)) : ({ kind: 'not-rolled' } as const);
    switch (state.kind) {
      case 'loaded': {
        const on = state.load.transportCall?.vessel ? ` on ${vesselLabel(state.load.transportCall)}` : '';
        return {
          resolutionType: 'EVENT_ACTUALIZED',
          resolutionNote: `Container ${container} was loaded${on} at ${port} at ${formatTime(state.load.eventDateTime)}.`,
          recommendedAction: 'No action needed.',
          relatedEventID: state.load.eventID,
        };
      }
      case 'rebooked': {
        const next = vesselLabel(state.rebook.call.call);
        return {
          resolutionType: 'REBOOKED',
          resolutionNote:
            `Container ${container} is rebooked on ${next} at ${port}, planned loading ` +
            `${formatTime(state.rebook.event.eventDateTime)}.`,
          recommendedAction: `Tell the consignee about the new departure on ${next}.`,
          relatedEventID: state.rebook.event.eventID,
          impact: { field: 'vessel', previousValue: planned, revisedValue: next },
        };
      }
      default: {
        const back = c?.plans[c.plans.length - 1];
        if (back && x && sameCall(back.call, x)) {
          // Re-planned back onto the call it was rolled from, before that call departed.
          return {
            resolutionType: 'REBOOKED',
            resolutionNote: `Container ${container} is planned on ${planned} at ${port} again.`,
            recommendedAction: 'No action needed.',
            relatedEventID: back.event.eventID,
            impact: { field: 'vessel', previousValue: last.impact?.revisedValue ?? planned, revisedValue: planned },
          };
        }
        // No event explains it: the shipment's data changed (e.g. another port of loading).
        return {
          resolutionType: 'DATA_CORRECTED',
          resolutionNote:
            `The shipment's data no longer shows container ${container} as left behind by ${planned} ` +
            `at ${portLabel(k, last.memo.port)}.`,
          recommendedAction: 'No action needed; check the corrected booking data.',
        };
      }
    }
  },
};
