import { v5 as uuidv5 } from 'uuid';
import type { ExceptionThresholds } from '../config/config.js';
import { EXCEPTION_RULES } from './exceptions/index.js';
import { KnownHistory, type ActiveCondition, type ExceptionRule, type RuleResolution } from './exceptions/rule.js';
import { byCreation } from './milestones.js';
import { toUtcIso } from './timestamps.js';
import type {
  ContainerMaster,
  ExceptionType,
  ShipmentMaster,
  TrackingEvent,
  TrackingException,
} from './types.js';

/**
 * The exception engine (DESIGN section 6): exceptions as a deterministic
 * function of the shipment, its full event history, the clock and the
 * operator's clears. No stored state goes in: the lifecycle of every
 * exception (detected, updated, resolved, detected again) is reconstructed
 * by replaying the history in the order it became known.
 *
 * Replay:
 * - events are sorted by eventCreatedDateTime then eventID (`byCreation`);
 *   events sharing an eventCreatedDateTime became known together and are
 *   applied as one step (a carrier publishing a departure and the matching
 *   loads at once must not raise and clear a rollover in between);
 * - after each step every rule is evaluated; between steps the time-based
 *   rules' threshold crossings (`nextChange`) up to `now` are extra steps;
 * - the clock a step judges time-based rules by is the step's time, capped
 *   at `now` (an event created after `now` is known, but the clock does not
 *   run ahead of `now`);
 * - detectedDateTime / resolvedDateTime are the time of the step that
 *   raised / resolved the episode: an event's eventCreatedDateTime or the
 *   instant of a threshold crossing.
 */

/** An operator clear (`tracking exception clear`), pinned to one detection episode. */
export interface ManualClear {
  exceptionID: string;
  /** The `episode` of the EvaluatedException that was cleared. */
  episode: string;
  note: string;
  clearedAt: string;
}

export interface ExceptionEngineInput {
  shipment: ShipmentMaster;
  /** `references.free_time_exp_dt` drives demurrage and detention. */
  containers: ContainerMaster[];
  /** Every stored version of every event linked to the shipment, in any order. */
  events: TrackingEvent[];
  /** Canonical UTC ISO; the injected clock. */
  now: string;
  thresholds: ExceptionThresholds;
  manualClears: ManualClear[];
}

/** An exception plus the identity of its current detection episode (what a manual clear names). */
export interface EvaluatedException extends TrackingException {
  /**
   * `DETECTED_AT/EVENT_ID`: when the episode was first raised and the event
   * that raised it (for a threshold crossing, the event that started the
   * clock). At most 61 characters for UUID event IDs.
   */
  episode: string;
}

/**
 * Namespace of exception IDs.
 * @NOTE Changing it changes every exception ID ever served: never do.
 */
export const EXCEPTION_ID_NAMESPACE = '5037ebd3-b3de-4933-a3b9-69291b8ef0a4';

/**
 * The exception ID: UUID v5 of the shipment key, the type and the subject
 * (ETA_DELAY: port of discharge; ROLLOVER: container/POL/vessel/voyage;
 * MISSED_CONNECTION: transshipment port; DEMURRAGE/DETENTION: container),
 * so that updates, resolutions and later episodes keep one ID.
 */
export function exceptionIdFor(
  shipment: { carrierCode: string; carrierBookingReference: string },
  type: ExceptionType,
  subject: string,
): string {
  // JSON of the parts: unambiguous whatever characters the parts contain.
  const name = JSON.stringify([shipment.carrierCode, shipment.carrierBookingReference, type, subject]);
  return uuidv5(name, EXCEPTION_ID_NAMESPACE);
}

type Phase =
  | { kind: 'open' }
  | { kind: 'resolved'; at: string; resolution: RuleResolution }
  /** `conditionEnded`: the rules stopped holding since; the next detection is a new episode. */
  | { kind: 'cleared'; clear: ManualClear; conditionEnded: boolean };

interface Tracked {
  exceptionID: string;
  rule: ExceptionRule;
  episode: string;
  detectedDateTime: string;
  /** Latest content while open; frozen once cleared or resolved. */
  condition: ActiveCondition;
  phase: Phase;
}

const MANUAL_CLEAR_ACTION = 'No action needed: cleared by an operator. Raised again only if the problem newly arises.';

class Lifecycles {
  private readonly tracked = new Map<string, Tracked>();
  private pendingClears: ManualClear[];

  constructor(
    private readonly shipment: ShipmentMaster,
    clears: readonly ManualClear[],
  ) {
    this.pendingClears = clears
      .map((c) => ({ ...c, clearedAt: toUtcIso(c.clearedAt) ?? c.clearedAt }))
      .sort((a, b) => compareStrings(a.clearedAt, b.clearedAt) || compareStrings(a.exceptionID, b.exceptionID));
  }

  /** Folds one rule's verdict at step time `at` into the lifecycles of its exceptions. */
  observe(rule: ExceptionRule, active: readonly ActiveCondition[], at: string, k: KnownHistory, clock: string): void {
    const seen = new Set<string>();
    for (const condition of active) {
      const exceptionID = exceptionIdFor(this.shipment, rule.type, condition.subject);
      if (seen.has(exceptionID)) continue;
      seen.add(exceptionID);
      const current = this.tracked.get(exceptionID);
      if (current && isOngoing(current)) {
        // Same episode: an open exception follows the latest content (worse or better);
        // a cleared one stays cleared and frozen.
        if (current.phase.kind === 'open') current.condition = condition;
        continue;
      }
      this.tracked.set(exceptionID, {
        exceptionID,
        rule,
        episode: `${at}/${condition.relatedEventID ?? 'clock'}`,
        detectedDateTime: at,
        condition,
        phase: { kind: 'open' },
      });
    }
    for (const t of this.tracked.values()) {
      if (t.rule !== rule || seen.has(t.exceptionID) || !isOngoing(t)) continue;
      if (t.phase.kind === 'cleared') t.phase = { ...t.phase, conditionEnded: true };
      else t.phase = { kind: 'resolved', at, resolution: rule.resolve(k, clock, t.condition) };
    }
  }

  /** Applies the pending clears that `due` accepts and whose episode is open right now. */
  applyClears(due: (clear: ManualClear) => boolean): void {
    this.pendingClears = this.pendingClears.filter((clear) => {
      if (!due(clear)) return true;
      const t = this.tracked.get(clear.exceptionID);
      if (!t || t.phase.kind !== 'open' || t.episode !== clear.episode) return true;
      t.phase = { kind: 'cleared', clear, conditionEnded: false };
      return false;
    });
  }

  results(): EvaluatedException[] {
    return [...this.tracked.values()]
      .map(toEvaluated)
      .sort(
        (a, b) => compareStrings(a.detectedDateTime, b.detectedDateTime) || compareStrings(a.exceptionID, b.exceptionID),
      );
  }
}

function isOngoing(t: Tracked): boolean {
  return t.phase.kind === 'open' || (t.phase.kind === 'cleared' && !t.phase.conditionEnded);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The served shape: RESOLVED-only fields present exactly when RESOLVED, no undefined keys. */
function toEvaluated(t: Tracked): EvaluatedException {
  const c = t.condition;
  let resolved: Pick<TrackingException, 'resolvedDateTime' | 'resolutionType' | 'resolutionNote'> | null = null;
  let recommendedAction = c.recommendedAction;
  let relatedEventID = c.relatedEventID;
  let impact = c.impact;
  if (t.phase.kind === 'resolved') {
    const r = t.phase.resolution;
    resolved = { resolvedDateTime: t.phase.at, resolutionType: r.resolutionType, resolutionNote: r.resolutionNote };
    recommendedAction = r.recommendedAction;
    relatedEventID = r.relatedEventID ?? relatedEventID;
    impact = r.impact ?? impact;
  } else if (t.phase.kind === 'cleared') {
    const clear = t.phase.clear;
    resolved = { resolvedDateTime: clear.clearedAt, resolutionType: 'MANUAL_CLEAR', resolutionNote: clear.note };
    recommendedAction = MANUAL_CLEAR_ACTION;
  }
  return {
    exceptionID: t.exceptionID,
    exceptionType: t.rule.type,
    exceptionCategory: t.rule.category,
    severity: c.severity,
    status: resolved ? 'RESOLVED' : 'DETECTED',
    detectedDateTime: t.detectedDateTime,
    ...resolved,
    title: c.title,
    description: c.description,
    ...(relatedEventID !== undefined ? { relatedEventID } : {}),
    affectedContainers: [...c.affectedContainers],
    ...(impact !== undefined ? { impact: { ...impact } } : {}),
    recommendedAction,
    episode: t.episode,
  };
}

/**
 * Whether an event belongs to this shipment's history.
 * @NOTE Ingest links an equipment event to every shipment of the carrier
 * that holds its container number (DESIGN section 4), so a reused container
 * brings in the events of its other shipments: one shipment's discharge
 * would restart demurrage on an old delivered shipment. An event whose
 * documentReferences name only other bookings / bills of lading is
 * therefore left out; an event without references cannot be attributed and
 * is kept.
 */
function belongsTo(event: TrackingEvent, shipment: ShipmentMaster): boolean {
  const refs = event.documentReferences;
  if (!refs || refs.length === 0) return true;
  return refs.some(
    (r) =>
      (r.documentReferenceType === 'BKG' && r.documentReferenceValue === shipment.carrierBookingReference) ||
      (r.documentReferenceType === 'TRD' && r.documentReferenceValue === shipment.billOfLadingNumber),
  );
}

/**
 * This shipment's events, one version per eventID (a re-sent event must not
 * count twice) chosen without regard to input order, sorted as the events
 * became known.
 */
function knownOrder(events: readonly TrackingEvent[], shipment: ShipmentMaster): TrackingEvent[] {
  const byId = new Map<string, { event: TrackingEvent; json: string }>();
  for (const event of events) {
    if (!belongsTo(event, shipment)) continue;
    const json = JSON.stringify(event);
    const kept = byId.get(event.eventID);
    if (!kept || byCreation(event, kept.event) < 0 || (byCreation(event, kept.event) === 0 && json < kept.json)) {
      byId.set(event.eventID, { event, json });
    }
  }
  return [...byId.values()].map((v) => v.event).sort(byCreation);
}

export function evaluateExceptions(input: ExceptionEngineInput): EvaluatedException[] {
  const now = toUtcIso(input.now);
  if (now === null) throw new RangeError(`now must be an ISO 8601 timestamp with offset, got "${input.now}"`);
  const events = knownOrder(input.events, input.shipment);
  const k = new KnownHistory(input.shipment, input.containers, input.thresholds);
  const lifecycles = new Lifecycles(input.shipment, input.manualClears);

  let index = 0;
  let last = '';
  for (;;) {
    const nextEventAt = events[index]?.eventCreatedDateTime ?? null;
    let nextCrossing: string | null = null;
    for (const rule of EXCEPTION_RULES) {
      const t = rule.nextChange?.(k, last) ?? null;
      if (t !== null && t <= now && (nextCrossing === null || t < nextCrossing)) nextCrossing = t;
    }
    const at =
      nextEventAt === null ? nextCrossing : nextCrossing === null || nextEventAt <= nextCrossing ? nextEventAt : nextCrossing;
    if (at === null) break;

    // Clears issued before this step act on the state the step finds.
    lifecycles.applyClears((c) => c.clearedAt < at);
    const known = index;
    while (index < events.length && events[index]?.eventCreatedDateTime === at) {
      const event = events[index++];
      if (event) k.add(event);
    }
    const clock = at < now ? at : now;
    for (const rule of EXCEPTION_RULES) {
      // A pure clock crossing cannot change what a rule without a clock says.
      if (index === known && !rule.nextChange) continue;
      lifecycles.observe(rule, rule.evaluate(k, clock), at, k, clock);
    }
    // A clear stamped at (or, by clock skew, before) the step that opened its episode.
    lifecycles.applyClears((c) => c.clearedAt <= at);
    last = at;
  }
  // Clears stamped after the last step (or after `now`) still name an open episode.
  lifecycles.applyClears(() => true);
  return lifecycles.results();
}
