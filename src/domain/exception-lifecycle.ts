import { detectEpisodes, exceptionIdFor, explainLapse, type Episode, type ExceptionEngineInput } from './exception-engine.js';
import { categoryOf } from './exceptions/index.js';
import type { ActiveCondition, RuleResolution } from './exceptions/rule.js';
import type { ExceptionType, ResolutionType, TrackingException } from './types.js';

/**
 * The exception engine (docs/architecture.md, Exception rules), second half: what the service
 * knew and when. The engine says what happened (episodes of the facts); this
 * module keeps the promises made to clients who have seen exceptions:
 *
 * - an exception once stored is never deleted, and keeps its exceptionID;
 * - a DETECTED exception follows its episode (worse or better content) and
 *   turns RESOLVED when the facts known now say the condition ended: with the
 *   episode's resolution, or, when the facts no longer support it at all (a
 *   late event, corrected data), with the rule's explanation of why
 *   (`explainLapse`: EVENT_ACTUALIZED, DATA_CORRECTED, ...);
 * - a RESOLVED exception never changes again. A condition that newly arises
 *   after a resolution is a new exception (the next occurrence of its
 *   subject, a new exceptionID); one that the facts show was still going on
 *   at the resolution (an operator cleared it, a late estimate of the same
 *   delay) stays resolved;
 * - every episode of the facts is shown, even one that ended before the
 *   service heard of it (RESOLVED when first shown), so the same facts raise
 *   the same exceptions whatever order they were reported in;
 * - detectedDateTime and resolvedDateTime are never later than `now`, the
 *   time the service stores what it learned (episodes never run past `now`;
 *   a lapse or a clear is dated `now`).
 *
 * Pure: stored rows and episodes in, rows and transitions out.
 */

/** One stored exception as the lifecycle sees it. */
export interface LifecycleRow {
  exceptionID: string;
  type: ExceptionType;
  /** The rule's subject (see exceptionIdFor); '' for a row stored before subjects were kept, until adopted. */
  subject: string;
  /** 0 for the first exception of a subject, then 1, 2, ... (see exceptionIdFor). */
  occurrence: number;
  /** Fact time its episode started when the row was first stored: what a DETECTED row is matched to the facts by. */
  factStart: string;
  /** When RESOLVED: the resolution's fact time (for a clear or a lapse, the time the service learned it). */
  factEnd: string | null;
  /** RESOLVED because the facts stopped supporting it; such a row stands for no episode any more. */
  refuted: boolean;
  /** The raising event of the episode of the current facts this row stands for; null when none. */
  raisedBy: string | null;
  /** The condition behind the served content (with the rule's memo), to explain a lapse; null for old rows. */
  condition: ActiveCondition | null;
  /** The served Exception. */
  body: TrackingException;
}

export type TransitionKind = 'DETECTED' | 'UPDATED' | 'RESOLVED';

/** A change a client can observe, in the order it happened (what push delivery sends: docs/architecture.md, Push). */
export interface ExceptionTransition {
  kind: TransitionKind;
  exceptionID: string;
  exceptionType: ExceptionType;
  /** The event that caused it (the exception's related event); undefined for an operator clear or a lapse. */
  eventID: string | undefined;
}

export interface ReconcileResult {
  /** Every row of the shipment: the stored ones (updated where needed) and the new ones. */
  rows: LifecycleRow[];
  /** exceptionIDs of rows to write: new, changed served content, or changed bookkeeping. */
  changed: Set<string>;
  /** exceptionIDs whose served content is new or changed (what moves the shipment's version). */
  servedChanged: Set<string>;
  transitions: ExceptionTransition[];
}

export interface ReconcileInput {
  shipment: { carrierCode: string; carrierBookingReference: string };
  stored: readonly LifecycleRow[];
  /** detectEpisodes over the facts known now. */
  episodes: readonly Episode[];
  /** The time the service stores what it learned (canonical UTC). */
  now: string;
  /** Why a reported condition no longer holds on the facts known now (explainLapse over those facts). */
  explainLapse(type: ExceptionType, condition: ActiveCondition): RuleResolution;
}

const MANUAL_CLEAR_ACTION = 'No action needed: cleared by an operator. A new exception is raised if the problem newly arises.';
const NO_LONGER_HOLDS_NOTE = 'Re-evaluated on the data known now: the condition no longer holds.';

interface Resolution {
  at: string;
  resolutionType: ResolutionType;
  resolutionNote: string;
  recommendedAction: string;
  relatedEventID?: string | undefined;
  impact?: ActiveCondition['impact'];
}

/**
 * The served Exception: condition content, plus the resolution when RESOLVED.
 * RESOLVED-only fields are present exactly when RESOLVED; no undefined keys.
 */
function servedBody(
  head: { exceptionID: string; type: ExceptionType; detectedDateTime: string },
  condition: ActiveCondition,
  resolution?: Resolution,
): TrackingException {
  const relatedEventID = resolution?.relatedEventID ?? condition.relatedEventID;
  const impact = resolution?.impact ?? condition.impact;
  return {
    exceptionID: head.exceptionID,
    exceptionType: head.type,
    exceptionCategory: categoryOf(head.type),
    severity: condition.severity,
    status: resolution ? 'RESOLVED' : 'DETECTED',
    detectedDateTime: head.detectedDateTime,
    ...(resolution
      ? {
          resolvedDateTime: resolution.at,
          resolutionType: resolution.resolutionType,
          resolutionNote: resolution.resolutionNote,
        }
      : {}),
    title: condition.title,
    description: condition.description,
    ...(relatedEventID !== undefined ? { relatedEventID } : {}),
    affectedContainers: [...condition.affectedContainers],
    ...(impact !== undefined ? { impact: { ...impact } } : {}),
    recommendedAction: resolution?.recommendedAction ?? condition.recommendedAction,
  };
}

/** A row's condition, or one rebuilt from its served body (rows stored before conditions were kept). */
function conditionOf(row: LifecycleRow): ActiveCondition {
  if (row.condition) return row.condition;
  const b = row.body;
  return {
    subject: row.subject,
    severity: b.severity,
    title: b.title,
    description: b.description,
    recommendedAction: b.recommendedAction,
    ...(b.relatedEventID !== undefined ? { relatedEventID: b.relatedEventID } : {}),
    affectedContainers: b.affectedContainers,
    ...(b.impact ? { impact: b.impact } : {}),
    memo: null,
  };
}

const later = (a: string, b: string) => (a > b ? a : b);

export function reconcileExceptions(input: ReconcileInput): ReconcileResult {
  const result: ReconcileResult = { rows: [], changed: new Set(), servedChanged: new Set(), transitions: [] };
  const record = (row: LifecycleRow, served: boolean, transitions: ExceptionTransition[] = []) => {
    result.changed.add(row.exceptionID);
    if (served) result.servedChanged.add(row.exceptionID);
    result.transitions.push(...transitions);
  };
  const transition = (kind: TransitionKind, row: LifecycleRow, eventID: string | undefined): ExceptionTransition => ({
    kind,
    exceptionID: row.exceptionID,
    exceptionType: row.type,
    eventID,
  });

  const groups = groupBySubject(input);
  for (const { type, subject, rows, episodes } of groups) {
    const used = new Set<Episode>();
    const keep = (row: LifecycleRow, episode: Episode | undefined) => {
      if (episode) used.add(episode);
      const raisedBy = episode?.raisedBy ?? null;
      if (row.raisedBy !== raisedBy) {
        row.raisedBy = raisedBy;
        record(row, false);
      }
    };

    // The open row first: it is the one whose state the new knowledge may change.
    const open = rows.find((r) => r.body.status === 'DETECTED');
    if (open) {
      // The earliest episode not over before the row was raised: the one the row has been standing for.
      const episode = episodes.find((e) => !used.has(e) && (!e.end || e.end.at > open.factStart));
      if (!episode) {
        const condition = conditionOf(open);
        const lapse = open.condition
          ? input.explainLapse(type, open.condition)
          : { resolutionType: 'DATA_CORRECTED' as const, resolutionNote: NO_LONGER_HOLDS_NOTE, recommendedAction: 'No action needed.' };
        resolve(open, condition, { ...lapse, at: input.now }, input.now, true);
        keep(open, undefined);
        record(open, true, [transition('RESOLVED', open, lapse.relatedEventID)]);
      } else if (episode.end) {
        const at = later(episode.end.at, open.body.detectedDateTime);
        resolve(open, episode.condition, { ...episode.end.resolution, at }, episode.end.at, false);
        keep(open, episode);
        record(open, true, [transition('RESOLVED', open, episode.end.resolution.relatedEventID ?? episode.condition.relatedEventID)]);
      } else {
        const body = servedBody({ exceptionID: open.exceptionID, type, detectedDateTime: open.body.detectedDateTime }, episode.condition);
        const changed = JSON.stringify(body) !== JSON.stringify(open.body);
        const conditionChanged = JSON.stringify(episode.condition) !== JSON.stringify(open.condition);
        open.body = body;
        open.condition = episode.condition;
        keep(open, episode);
        if (changed) record(open, true, [transition('UPDATED', open, episode.condition.relatedEventID)]);
        else if (conditionChanged) record(open, false);
      }
    }

    // Resolved rows are frozen; each still stands for the episode it resolved, if the facts still have one.
    for (const row of rows) {
      if (row === open || row.refuted || row.factEnd === null) continue;
      const end = row.factEnd;
      const ongoingAtEnd = episodes.find((e) => !used.has(e) && e.start <= end && (!e.end || e.end.at >= end));
      const overlapping = episodes.findLast((e) => !used.has(e) && e.start <= end && (!e.end || e.end.at >= row.factStart));
      keep(row, ongoingAtEnd ?? overlapping);
    }

    // Episodes no stored row stands for: new exceptions, the next occurrences of the subject.
    let occurrence = rows.reduce((max, r) => Math.max(max, r.occurrence + 1), 0);
    for (const episode of episodes) {
      if (used.has(episode)) continue;
      const row: LifecycleRow = {
        exceptionID: exceptionIdFor(input.shipment, type, subject, occurrence),
        type,
        subject,
        occurrence: occurrence++,
        factStart: episode.start,
        factEnd: null,
        refuted: false,
        raisedBy: episode.raisedBy ?? null,
        condition: episode.condition,
        body: servedBody({ exceptionID: '', type, detectedDateTime: episode.start }, episode.condition),
      };
      row.body.exceptionID = row.exceptionID;
      used.add(episode);
      const transitions = [transition('DETECTED', row, episode.raisedBy)];
      if (episode.end) {
        resolve(row, episode.condition, { ...episode.end.resolution, at: episode.end.at }, episode.end.at, false);
        transitions.push(transition('RESOLVED', row, episode.end.resolution.relatedEventID ?? episode.condition.relatedEventID));
      }
      rows.push(row);
      record(row, true, transitions);
    }
    result.rows.push(...rows);
  }
  return result;
}

/** Turns a row RESOLVED (in place) with `condition`'s content and the resolution. */
function resolve(row: LifecycleRow, condition: ActiveCondition, resolution: Resolution, factEnd: string, refuted: boolean): void {
  row.body = servedBody(
    { exceptionID: row.exceptionID, type: row.type, detectedDateTime: row.body.detectedDateTime },
    condition,
    resolution,
  );
  row.condition = condition;
  row.factEnd = factEnd;
  row.refuted = refuted;
}

interface SubjectGroup {
  type: ExceptionType;
  subject: string;
  rows: LifecycleRow[];
  episodes: Episode[];
}

/**
 * Rows and episodes by (type, subject). A row stored before subjects were
 * kept is adopted by the subject whose first exceptionID it carries; one that
 * no episode claims stays in a group of its own, where a DETECTED one lapses.
 */
function groupBySubject(input: ReconcileInput): SubjectGroup[] {
  const groups = new Map<string, SubjectGroup>();
  const group = (type: ExceptionType, subject: string) => {
    const key = JSON.stringify([type, subject]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { type, subject, rows: [], episodes: [] }));
    return g;
  };
  const legacyIds = new Map<string, string>();
  for (const episode of input.episodes) {
    group(episode.type, episode.subject).episodes.push(episode);
    legacyIds.set(exceptionIdFor(input.shipment, episode.type, episode.subject), episode.subject);
  }
  for (const stored of input.stored) {
    const row = { ...stored, body: { ...stored.body } };
    if (row.subject === '') row.subject = legacyIds.get(row.exceptionID) ?? `legacy:${row.exceptionID}`;
    group(row.type, row.subject).rows.push(row);
  }
  for (const g of groups.values()) {
    g.rows.sort((a, b) => a.occurrence - b.occurrence);
    g.episodes.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  }
  return [...groups.values()];
}

/**
 * An operator clear (MANUAL_CLEAR) of a DETECTED row, at `now`, with the
 * operator's note. The row stays resolved; the facts' episode it stood for
 * (still going on) raises nothing new (see reconcileExceptions).
 */
export function clearRow(row: LifecycleRow, note: string, now: string): { row: LifecycleRow; transition: ExceptionTransition } {
  if (row.body.status !== 'DETECTED') throw new RangeError(`exception ${row.exceptionID} is ${row.body.status}`);
  const cleared: LifecycleRow = { ...row, body: { ...row.body } };
  const at = later(now, row.body.detectedDateTime);
  resolve(
    cleared,
    conditionOf(row),
    {
      at,
      resolutionType: 'MANUAL_CLEAR',
      resolutionNote: note,
      recommendedAction: MANUAL_CLEAR_ACTION,
      relatedEventID: row.body.relatedEventID,
    },
    at,
    false,
  );
  return {
    row: cleared,
    transition: { kind: 'RESOLVED', exceptionID: row.exceptionID, exceptionType: row.type, eventID: undefined },
  };
}

/** Oldest detection first, then by exceptionID: the order exceptions are served in. */
export function byDetection(a: TrackingException, b: TrackingException): number {
  if (a.detectedDateTime !== b.detectedDateTime) return a.detectedDateTime < b.detectedDateTime ? -1 : 1;
  return a.exceptionID < b.exceptionID ? -1 : a.exceptionID > b.exceptionID ? 1 : 0;
}

/**
 * The exceptions a service shows that learned all of `input`'s facts at once,
 * at `input.now`: the episodes of the facts, each as one exception. Pure; for
 * the rules' tests and the sandbox's documented stories.
 */
export function exceptionsFromFacts(input: ExceptionEngineInput): TrackingException[] {
  const { rows } = reconcileExceptions({
    shipment: input.shipment,
    stored: [],
    episodes: detectEpisodes(input),
    now: input.now,
    explainLapse: (type, condition) => explainLapse(input, type, condition),
  });
  return rows.map((r) => r.body).sort(byDetection);
}
