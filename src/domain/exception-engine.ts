import { v5 as uuidv5 } from 'uuid';
import { EXCEPTION_RULES } from './exceptions/index.js';
import { KnownHistory, type ActiveCondition, type ExceptionRule, type RuleResolution } from './exceptions/rule.js';
import { byFactTime, factTime } from './milestones.js';
import { toUtcIso } from './timestamps.js';
import type { ContainerMaster, ExceptionCategory, ExceptionType, ShipmentMaster, TrackingEvent } from './types.js';
import type { ExceptionThresholds } from './thresholds.js';

/**
 * The exception engine (docs/architecture.md, Exception rules), first half: what happened. It
 * replays a shipment's facts in the order they happened in the world
 * (`factTime`: an actual's eventDateTime, a plan's or estimate's creation)
 * and cuts what the rules say into episodes: each time a condition starts
 * holding for a subject, until it stops. The same facts give the same
 * episodes whatever order they were reported in.
 *
 * What the service knew and when (exception IDs, DETECTED/RESOLVED, what a
 * client has already seen, operator clears) is the second half, the pure
 * lifecycle of exception-lifecycle.ts, which reconciles stored exceptions
 * with these episodes.
 *
 * Replay:
 * - events sharing a fact time are applied as one step (a carrier publishing
 *   a departure and the matching loads at once must not raise and clear a
 *   rollover in between);
 * - after each step every rule is evaluated; between steps the time-based
 *   rules' threshold crossings (`nextChange`) up to `now` are extra steps;
 * - the clock never runs ahead of `now`: an event whose fact time lies after
 *   `now` (a carrier clock running fast) is applied at `now`, so no episode
 *   starts or ends later than the moment the service evaluates.
 */

export interface ExceptionEngineInput {
  shipment: ShipmentMaster;
  /** `references.free_time_exp_dt` drives demurrage and detention. */
  containers: ContainerMaster[];
  /** Every stored version of every event linked to the shipment, in any order. */
  events: TrackingEvent[];
  /** The injected clock: the time the service evaluates at. */
  now: string;
  thresholds: ExceptionThresholds;
}

/** One stretch of time during which a rule's condition held for one subject. */
export interface Episode {
  type: ExceptionType;
  category: ExceptionCategory;
  /** What the exception ID is derived from (port, container/call, ...): see each rule. */
  subject: string;
  /** Fact time the condition started holding. */
  start: string;
  /** The event that raised it (relatedEventID at detection). */
  raisedBy: string | undefined;
  /** The latest content while it held. */
  condition: ActiveCondition;
  /** When and why it stopped holding, when it did by `now`. */
  end?: { at: string; resolution: RuleResolution };
}

/**
 * Namespace of exception IDs.
 * @NOTE Changing it changes every exception ID ever served: never do.
 */
export const EXCEPTION_ID_NAMESPACE = '5037ebd3-b3de-4933-a3b9-69291b8ef0a4';

/**
 * The exception ID: UUID v5 of the shipment key, the type, the subject
 * (ETA_DELAY: port of discharge; ROLLOVER: container/POL/vessel/voyage;
 * MISSED_CONNECTION: transshipment port; DEMURRAGE/DETENTION: container) and,
 * from the second exception of one subject on, its occurrence number. An
 * exception keeps its ID through updates and resolution; a condition that
 * newly arises after a resolution is a new exception with the next occurrence.
 */
export function exceptionIdFor(
  shipment: { carrierCode: string; carrierBookingReference: string },
  type: ExceptionType,
  subject: string,
  occurrence = 0,
): string {
  // JSON of the parts: unambiguous whatever characters the parts contain. The
  // first occurrence keeps the four-part name IDs were first derived from.
  const parts: (string | number)[] = [shipment.carrierCode, shipment.carrierBookingReference, type, subject];
  if (occurrence > 0) parts.push(occurrence);
  return uuidv5(JSON.stringify(parts), EXCEPTION_ID_NAMESPACE);
}

/**
 * Whether an event belongs to this shipment's history.
 * @NOTE Ingest links an equipment event to every shipment of the carrier
 * that holds its container number (docs/architecture.md, Ingest bundle), so a reused container
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
 * count twice) chosen without regard to input order, in fact-time order.
 */
function factOrder(events: readonly TrackingEvent[], shipment: ShipmentMaster): TrackingEvent[] {
  // The JSON that picks a version is computed only when an eventID repeats (rare).
  const byId = new Map<string, { event: TrackingEvent; json?: string }>();
  for (const event of events) {
    if (!belongsTo(event, shipment)) continue;
    const kept = byId.get(event.eventID);
    if (!kept) {
      byId.set(event.eventID, { event });
      continue;
    }
    const json = JSON.stringify(event);
    kept.json ??= JSON.stringify(kept.event);
    if (json < kept.json) byId.set(event.eventID, { event, json });
  }
  return [...byId.values()].map((v) => v.event).sort(byFactTime);
}

function canonicalNow(now: string): string {
  const utc = toUtcIso(now);
  if (utc === null) throw new RangeError(`now must be an ISO 8601 timestamp with offset, got "${now}"`);
  return utc;
}

/** Open episodes by `type/subject` while the replay runs, and the ones that ended. */
class EpisodeCutter {
  private readonly open = new Map<string, Episode>();
  private readonly ended: Episode[] = [];

  /** Folds one rule's verdict at step time `at` into its episodes. */
  observe(rule: ExceptionRule, active: readonly ActiveCondition[], at: string, k: KnownHistory, clock: string): void {
    const seen = new Set<string>();
    for (const condition of active) {
      const key = `${rule.type}/${condition.subject}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const current = this.open.get(key);
      if (current) {
        // Same episode: it follows the latest content, worse or better.
        current.condition = condition;
        continue;
      }
      this.open.set(key, {
        type: rule.type,
        category: rule.category,
        subject: condition.subject,
        start: at,
        raisedBy: condition.relatedEventID,
        condition,
      });
    }
    for (const [key, episode] of this.open) {
      if (episode.type !== rule.type || seen.has(key)) continue;
      episode.end = { at, resolution: rule.resolve(k, clock, episode.condition) };
      this.open.delete(key);
      this.ended.push(episode);
    }
  }

  results(): Episode[] {
    return [...this.ended, ...this.open.values()].sort(
      (a, b) => compareStrings(a.type, b.type) || compareStrings(a.subject, b.subject) || compareStrings(a.start, b.start),
    );
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every episode of every rule, from the shipment's facts up to `now`. */
export function detectEpisodes(input: ExceptionEngineInput): Episode[] {
  const now = canonicalNow(input.now);
  const events = factOrder(input.events, input.shipment);
  const stepOf = (event: TrackingEvent) => {
    const t = factTime(event);
    return t < now ? t : now;
  };
  const k = new KnownHistory(input.shipment, input.containers, input.thresholds);
  const cutter = new EpisodeCutter();

  let index = 0;
  let last = '';
  for (;;) {
    const next = events[index];
    const nextEventAt = next ? stepOf(next) : null;
    let nextCrossing: string | null = null;
    for (const rule of EXCEPTION_RULES) {
      const t = rule.nextChange?.(k, last) ?? null;
      if (t !== null && t <= now && (nextCrossing === null || t < nextCrossing)) nextCrossing = t;
    }
    const at = nextEventAt === null ? nextCrossing : nextCrossing === null || nextEventAt <= nextCrossing ? nextEventAt : nextCrossing;
    if (at === null) break;

    const before = index;
    for (let event = events[index]; event && stepOf(event) === at; event = events[++index]) k.add(event);
    for (const rule of EXCEPTION_RULES) {
      // A pure clock crossing cannot change what a rule without a clock says.
      if (index === before && !rule.nextChange) continue;
      cutter.observe(rule, rule.evaluate(k, at), at, k, at);
    }
    last = at;
  }
  return cutter.results();
}

/**
 * Why a condition that was reported no longer holds on the facts known at
 * `now` (a late event, corrected data): the rule's own resolution, asked of
 * all the facts. For exceptions whose condition vanished without an episode
 * of the facts to end it (see exception-lifecycle).
 */
export function explainLapse(input: ExceptionEngineInput, type: ExceptionType, condition: ActiveCondition): RuleResolution {
  const now = canonicalNow(input.now);
  const rule = EXCEPTION_RULES.find((r) => r.type === type);
  if (!rule) throw new RangeError(`unknown exception type ${type}`);
  const k = new KnownHistory(input.shipment, input.containers, input.thresholds);
  for (const event of factOrder(input.events, input.shipment)) k.add(event);
  return rule.resolve(k, now, condition);
}
