import { eventUnLocationCode } from '../milestones.js';
import { addHours, hoursBetween, toUtcIso } from '../timestamps.js';
import type { EquipmentEvent } from '../types.js';
import type { ActiveCondition, ExceptionRule, Knowledge, RuleResolution } from './rule.js';
import { carrierLabel, formatDelay, formatHours, formatTime, portLabel } from './wording.js';

/**
 * DEMURRAGE_RISK and DETENTION_RISK (OPERATIONAL). Subject: the container
 * number. Both run a clock against the container's
 * `references.free_time_exp_dt` (no valid date: no exception):
 * WARNING from `freeTimeWarningHours` before it, CRITICAL from the instant
 * it passes. The clock only ticks between events, so the engine replays the
 * two crossing instants (see `nextChange`).
 *
 * - Demurrage: the container's latest ACT DISC LADEN at the port of
 *   discharge, with no ACT GTOT LADEN at or after its eventDateTime.
 *   Resolved EVENT_ACTUALIZED by that gate-out.
 * - Detention: the container's latest ACT GTOT LADEN at the destination
 *   (port of discharge or place of delivery), with no ACT GTIN EMPTY at or
 *   after its eventDateTime. Resolved EVENT_ACTUALIZED by that empty return.
 *
 * Taking the *latest* start event makes a reused container number safe: an
 * earlier cycle of the same box, ended by its own gate-out or return, is
 * ignored.
 */

interface Kind {
  type: 'DEMURRAGE_RISK' | 'DETENTION_RISK';
  /** The event that starts the clock, when it counts for this rule. */
  starts(k: Knowledge, e: EquipmentEvent): boolean;
  /** The event that stops the clock. */
  stops(e: EquipmentEvent): boolean;
}

const isAct = (e: EquipmentEvent, code: string, empty: 'LADEN' | 'EMPTY') =>
  e.eventClassifierCode === 'ACT' && e.equipmentEventTypeCode === code && e.emptyIndicatorCode === empty;

const DEMURRAGE: Kind = {
  type: 'DEMURRAGE_RISK',
  starts: (k, e) => isAct(e, 'DISC', 'LADEN') && k.portOfDischarge !== undefined && eventUnLocationCode(e) === k.portOfDischarge,
  stops: (e) => isAct(e, 'GTOT', 'LADEN'),
};

const DETENTION: Kind = {
  type: 'DETENTION_RISK',
  starts: (k, e) => {
    if (!isAct(e, 'GTOT', 'LADEN')) return false;
    const at = eventUnLocationCode(e);
    const delivery = k.shipment.placeOfDelivery?.unLocationCode;
    return at !== undefined && (at === k.portOfDischarge || at === delivery);
  },
  stops: (e) => isAct(e, 'GTIN', 'EMPTY'),
};

interface Clock {
  container: string;
  start: EquipmentEvent;
  stop: EquipmentEvent | undefined;
  freeTime: string;
  warnFrom: string;
}

function clocks(kind: Kind, k: Knowledge): Clock[] {
  const out: Clock[] = [];
  const seen = new Set<string>();
  for (const master of k.containers) {
    if (seen.has(master.containerNumber)) continue;
    seen.add(master.containerNumber);
    const raw = master.references.free_time_exp_dt;
    const freeTime = raw ? toUtcIso(raw) : null;
    if (!freeTime) continue;
    const events = k.equipmentOf(master.containerNumber);
    let start: EquipmentEvent | undefined;
    for (const e of events) {
      // Latest by eventDateTime; on a tie the later one in fact-time order.
      if (kind.starts(k, e) && (start === undefined || e.eventDateTime >= start.eventDateTime)) start = e;
    }
    if (!start) continue;
    const from = start.eventDateTime;
    const stop = events.find((e) => kind.stops(e) && e.eventDateTime >= from);
    out.push({
      container: master.containerNumber,
      start,
      stop,
      freeTime,
      warnFrom: addHours(freeTime, -k.thresholds.freeTimeWarningHours),
    });
  }
  return out.sort((a, b) => (a.container < b.container ? -1 : a.container > b.container ? 1 : 0));
}

interface FreeTimeMemo {
  container: string;
  freeTime: string;
}

function freeTimeRule(kind: Kind): ExceptionRule<FreeTimeMemo> {
  const demurrage = kind.type === 'DEMURRAGE_RISK';
  return {
    type: kind.type,
    category: 'OPERATIONAL',

    evaluate(k: Knowledge, clock: string): ActiveCondition<FreeTimeMemo>[] {
      const out: ActiveCondition<FreeTimeMemo>[] = [];
      for (const c of clocks(kind, k)) {
        if (c.stop || clock < c.warnFrom) continue;
        const expired = clock >= c.freeTime;
        const where = portLabel(k, eventUnLocationCode(c.start));
        const carrier = carrierLabel(k.shipment);
        const charge = demurrage ? 'demurrage' : 'detention';
        const situation = demurrage
          ? `Container ${c.container} was discharged laden at ${where} at ${formatTime(c.start.eventDateTime)} ` +
            `and has not been gated out.`
          : `Container ${c.container} was gated out laden at ${where} at ${formatTime(c.start.eventDateTime)} ` +
            `and has not been returned empty.`;
        const task = demurrage
          ? `Pick up container ${c.container} from ${where}`
          : `Return empty container ${c.container} to the depot named by ${carrier}`;
        out.push({
          subject: c.container,
          severity: expired ? 'CRITICAL' : 'WARNING',
          title: expired
            ? `${demurrage ? 'Demurrage' : 'Detention'}: free time expired for container ${c.container}`
            : `${demurrage ? 'Demurrage' : 'Detention'} risk for container ${c.container}`,
          description: expired
            ? `${situation} Its free time expired at ${formatTime(c.freeTime)}; ${charge} charges apply from then on.`
            : `${situation} Its free time expires at ${formatTime(c.freeTime)}.`,
          recommendedAction: expired
            ? `${task} as soon as possible: ${charge} has been accruing since ` +
              `${formatTime(c.freeTime)}.` +
              (demurrage ? ' Check customs release and the haulage booking.' : '')
            : `${task} before ${formatTime(c.freeTime)} to avoid ${charge} charges.`,
          relatedEventID: c.start.eventID,
          affectedContainers: [c.container],
          memo: { container: c.container, freeTime: c.freeTime },
        });
      }
      return out;
    },

    resolve(k: Knowledge, _clock: string, last: ActiveCondition<FreeTimeMemo>): RuleResolution {
      const c = clocks(kind, k).find((x) => x.container === last.memo.container);
      const stop = c?.stop;
      if (!stop) {
        // Events are only ever added and the clock only moves forward, so only changed
        // master data gets here: a later free time, or the container left the shipment.
        const freeTime = c?.freeTime;
        return {
          resolutionType: 'DATA_CORRECTED',
          resolutionNote: freeTime
            ? `The free time of container ${last.memo.container} was changed from ${formatTime(last.memo.freeTime)} to ` +
              `${formatTime(freeTime)}; it is no longer within the ${formatHours(k.thresholds.freeTimeWarningHours)} warning window.`
            : `The shipment's data changed: container ${last.memo.container} no longer has a free time on this shipment.`,
          recommendedAction: 'No action needed now; keep the new free time in view.',
        };
      }
      const where = portLabel(k, eventUnLocationCode(stop));
      const against = formatDelay(hoursBetween(last.memo.freeTime, stop.eventDateTime));
      return demurrage
        ? {
            resolutionType: 'EVENT_ACTUALIZED',
            resolutionNote:
              `Container ${last.memo.container} was gated out of ${where} at ${formatTime(stop.eventDateTime)} ` +
              `(${against} against free time ${formatTime(last.memo.freeTime)}).`,
            recommendedAction: `No action needed for demurrage; return the empty container on time to avoid detention.`,
            relatedEventID: stop.eventID,
          }
        : {
            resolutionType: 'EVENT_ACTUALIZED',
            resolutionNote:
              `Empty container ${last.memo.container} was returned at ${where} at ${formatTime(stop.eventDateTime)} ` +
              `(${against} against free time ${formatTime(last.memo.freeTime)}).`,
            recommendedAction: 'No action needed.',
            relatedEventID: stop.eventID,
          };
    },

    nextChange(k: Knowledge, after: string): string | null {
      let next: string | null = null;
      for (const c of clocks(kind, k)) {
        if (c.stop) continue;
        for (const t of [c.warnFrom, c.freeTime]) {
          if (t > after && (next === null || t < next)) next = t;
        }
      }
      return next;
    },
  };
}

export const demurrageRiskRule = freeTimeRule(DEMURRAGE);
export const detentionRiskRule = freeTimeRule(DETENTION);
