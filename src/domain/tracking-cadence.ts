import { bestVersionPerMilestone } from './milestones.js';
import type { TrackingEvent } from './types.js';

/**
 * When a tracked reference is fetched again, and when it is no longer (docs/tracking-requests.md, Cadence).
 * Pure: the fetcher stores what it needs (next milestone, arrival, last change) on the fetch row.
 */

export interface CadencePolicy {
  /** The shortest wait between two fetches of one reference (near a due milestone). */
  minMs: number;
  /** The longest wait (an idle shipment, a reference long unknown). */
  maxMs: number;
  /** A reference the carrier still has nothing for after this long turns FAILED. */
  giveUpMs: number;
  /** A shipment that arrived and then changed nothing for this long is STOPPED (COMPLETED). */
  completeAfterMs: number;
  /** A tracked shipment that changed nothing for this long without arriving is STOPPED (GIVEN_UP). */
  idleGiveUpMs: number;
}

export interface FetchState {
  status: 'PENDING' | 'AWAITING_CARRIER_DATA' | 'TRACKING';
  /** When the reference was (last) asked for. */
  requestedAt: string;
  /** The expected time of the next milestone not yet actual, or null when none is known. */
  nextMilestoneAt: string | null;
  /** When the shipment arrived at its port of discharge, or null. */
  arrivedAt: string | null;
  /** When a fetch last brought something new (or when tracking began). */
  lastChangeAt: string | null;
  /** Failed fetches in a row (the carrier refused or did not answer). */
  consecutiveFailures: number;
  /** The carrier's Retry-After of the last refusal, in ms. */
  retryAfterMs: number | null;
}

export type FetchPlan =
  { kind: 'again'; delayMs: number } | { kind: 'fail'; reason: string } | { kind: 'stop'; stopReason: 'COMPLETED' | 'GIVEN_UP' };

const HOUR = 3_600_000;
const clamp = (ms: number, policy: CadencePolicy) => Math.round(Math.min(policy.maxMs, Math.max(policy.minMs, ms)));

export function planNextFetch(state: FetchState, policy: CadencePolicy, now: Date): FetchPlan {
  const t = now.getTime();
  const since = (iso: string | null) => (iso === null ? Infinity : t - Date.parse(iso));
  if (state.status !== 'TRACKING') {
    if (since(state.requestedAt) >= policy.giveUpMs) {
      return {
        kind: 'fail',
        reason: `the carrier had no events for this reference within ${Math.round(policy.giveUpMs / HOUR)} h of the request`,
      };
    }
  } else {
    const quiet = since(state.lastChangeAt);
    if (state.arrivedAt !== null && state.nextMilestoneAt === null && quiet >= policy.completeAfterMs) {
      return { kind: 'stop', stopReason: 'COMPLETED' };
    }
    if (quiet >= policy.idleGiveUpMs) return { kind: 'stop', stopReason: 'GIVEN_UP' };
  }
  if (state.consecutiveFailures > 0) {
    const backoff = Math.min(policy.maxMs, policy.minMs * 2 ** Math.min(state.consecutiveFailures - 1, 10));
    return { kind: 'again', delayMs: Math.max(backoff, state.retryAfterMs ?? 0) };
  }
  if (state.status !== 'TRACKING') {
    // Often just after the request (the carrier may publish within minutes), then less and less.
    return { kind: 'again', delayMs: clamp(since(state.requestedAt) / 4, policy) };
  }
  const candidates: number[] = [];
  const until = state.nextMilestoneAt === null ? null : Date.parse(state.nextMilestoneAt) - t;
  // A milestone due within a day or overdue by up to two: as often as allowed; further out, an eighth of the time
  // to it. One overdue longer (the carrier never reported it) no longer counts.
  if (until !== null && until >= -48 * HOUR) candidates.push(until <= 24 * HOUR ? policy.minMs : until / 8);
  // Something changed lately: more may follow soon.
  const quiet = since(state.lastChangeAt);
  if (quiet < 24 * HOUR) candidates.push(Math.max(policy.minMs * 3, quiet / 4));
  return { kind: 'again', delayMs: clamp(candidates.length > 0 ? Math.min(...candidates) : policy.maxMs, policy) };
}

/**
 * From a shipment's events: the expected time of its next milestone that is not actual yet (transport calls
 * and container moves; an estimate over a plan), overdue ones within two days included; and when it arrived at
 * its port of discharge (an actual arrival), given that port.
 */
export function shipmentProgress(
  events: readonly TrackingEvent[],
  portOfDischarge: string | undefined,
  now: Date,
): { nextMilestoneAt: string | null; arrivedAt: string | null } {
  const from = new Date(now.getTime() - 48 * HOUR).toISOString();
  let next: string | null = null;
  let arrivedAt: string | null = null;
  for (const event of bestVersionPerMilestone(events.filter((e) => e.eventType !== 'SHIPMENT'))) {
    if (event.eventClassifierCode === 'ACT') {
      if (
        event.eventType === 'TRANSPORT' &&
        event.transportEventTypeCode === 'ARRI' &&
        portOfDischarge !== undefined &&
        event.transportCall.unLocationCode === portOfDischarge
      ) {
        arrivedAt = event.eventDateTime;
      }
      continue;
    }
    if (event.eventDateTime >= from && (next === null || event.eventDateTime < next)) next = event.eventDateTime;
  }
  return { nextMilestoneAt: next, arrivedAt };
}
