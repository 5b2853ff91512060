import { bestVersion } from '../milestones.js';
import { hoursBetween } from '../timestamps.js';
import type { TransportEvent } from '../types.js';
import type { ActiveCondition, ExceptionRule, Knowledge, RuleResolution } from './rule.js';
import { carrierLabel, containersLabel, formatDelay, formatHours, formatTime, portLabel, roundHours, vesselLabel } from './wording.js';

/**
 * ETA_DELAY (SCHEDULE). Subject: the port of discharge.
 *
 * - current arrival: the best arrival version at the port of discharge (ACT
 *   over EST over PLN, then latest created: the snapshot's `eta`);
 * - baseline: the earliest-created PLN arrival there, or, with no PLN, the
 *   first arrival version of any classifier in fact-time order;
 * - holds while the current arrival is not ACT and lies at least
 *   `delayThresholdHours` (and more than zero hours) after the baseline;
 *   WARNING under `criticalDelayHours`, CRITICAL from it;
 * - an actual arrival never raises a delay (nothing left to act on); it
 *   resolves an open one with EVENT_ACTUALIZED. Falling back under the
 *   threshold resolves with SCHEDULE_RECOVERED.
 */

interface Arrival {
  baseline: TransportEvent;
  current: TransportEvent;
  delayHours: number;
}

function arrivalAtDischarge(k: Knowledge): Arrival | null {
  const pod = k.portOfDischarge;
  if (!pod) return null;
  const arrivals = k.transport.filter((e) => e.transportEventTypeCode === 'ARRI' && e.transportCall.unLocationCode === pod);
  const current = bestVersion(arrivals);
  // `transport` is in fact-time order, and a plan's fact time is its creation: the first PLN is the earliest created.
  const baseline = arrivals.find((e) => e.eventClassifierCode === 'PLN') ?? arrivals[0];
  if (!current || !baseline) return null;
  return { baseline, current, delayHours: hoursBetween(baseline.eventDateTime, current.eventDateTime) };
}

function allContainers(k: Knowledge): string[] {
  const master = k.containers.map((c) => c.containerNumber);
  return [...new Set(master.length > 0 ? master : k.equipmentReferences())].sort();
}

const CLASSIFIER_WORD = { PLN: 'planned', EST: 'estimated', ACT: 'actual' } as const;

export const etaDelayRule: ExceptionRule<null> = {
  type: 'ETA_DELAY',
  category: 'SCHEDULE',

  evaluate(k: Knowledge): ActiveCondition<null>[] {
    const arrival = arrivalAtDischarge(k);
    if (!arrival || arrival.current.eventClassifierCode === 'ACT') return [];
    const { baseline, current, delayHours } = arrival;
    const { delayThresholdHours, criticalDelayHours } = k.thresholds;
    if (delayHours <= 0 || delayHours < delayThresholdHours) return [];

    const critical = delayHours >= criticalDelayHours;
    const port = portLabel(k, k.portOfDischarge);
    const containers = allContainers(k);
    const vessel = current.transportCall.vessel ? ` on ${vesselLabel(current.transportCall)}` : '';
    return [
      {
        subject: k.portOfDischarge ?? '',
        severity: critical ? 'CRITICAL' : 'WARNING',
        title: `Arrival at ${port} delayed by ${formatHours(delayHours)}`,
        description:
          `The ${CLASSIFIER_WORD[current.eventClassifierCode]} arrival at ${port}${vessel} is now ` +
          `${formatTime(current.eventDateTime)}, ${formatHours(delayHours)} later than originally planned ` +
          `(${formatTime(baseline.eventDateTime)}).`,
        recommendedAction: critical
          ? `Re-plan delivery of ${containersLabel(containers)} from ${port} with the consignee for ` +
            `${formatTime(current.eventDateTime)}, move haulage and warehouse appointments, and ask ` +
            `${carrierLabel(k.shipment)} whether a faster routing is available.`
          : `Tell the consignee that arrival at ${port} is now expected ${formatTime(current.eventDateTime)} ` +
            `and move pick-up of ${containersLabel(containers)} accordingly.`,
        relatedEventID: current.eventID,
        affectedContainers: containers,
        impact: {
          field: 'eta',
          previousValue: baseline.eventDateTime,
          revisedValue: current.eventDateTime,
          delayHours: roundHours(delayHours),
        },
        memo: null,
      },
    ];
  },

  resolve(k: Knowledge, _clock: string, last: ActiveCondition<null>): RuleResolution {
    const port = portLabel(k, k.portOfDischarge);
    const lastDelayed = last.impact?.revisedValue ?? '';
    const arrival = arrivalAtDischarge(k);
    if (!arrival) {
      // Events are only ever added, so only changed master data (another port of discharge) gets here.
      return {
        resolutionType: 'DATA_CORRECTED',
        resolutionNote: `The shipment's data changed: no arrival at ${portLabel(k, last.subject)} is tracked any more.`,
        recommendedAction: 'No action needed; check the corrected port of discharge.',
      };
    }
    const { baseline, current, delayHours } = arrival;
    const impact = {
      field: 'eta',
      previousValue: lastDelayed,
      revisedValue: current.eventDateTime,
      delayHours: roundHours(delayHours),
    };
    if (current.eventClassifierCode === 'ACT') {
      return {
        resolutionType: 'EVENT_ACTUALIZED',
        resolutionNote:
          `${vesselLabel(current.transportCall)} arrived at ${port} at ${formatTime(current.eventDateTime)}, ` +
          `${formatDelay(delayHours)} against the planned ${formatTime(baseline.eventDateTime)}.`,
        recommendedAction: `No action needed for the delay; arrange discharge and delivery at ${port}.`,
        relatedEventID: current.eventID,
        impact,
      };
    }
    return {
      resolutionType: 'SCHEDULE_RECOVERED',
      resolutionNote:
        `Schedule recovered: arrival at ${port} is now ${formatTime(current.eventDateTime)} ` +
        `(${formatDelay(delayHours)} against the planned ${formatTime(baseline.eventDateTime)}), ` +
        `within the ${formatHours(k.thresholds.delayThresholdHours)} delay threshold.`,
      recommendedAction: `No action needed; confirm the original delivery plan at ${port} with the consignee.`,
      relatedEventID: current.eventID,
      impact,
    };
  },
};
