import { bestVersionPerMilestone, milestoneKey } from './milestones.js';
import type { EventClassifierCode, TrackingEvent } from './types.js';

/**
 * What a poller detects between two snapshots (spec section 6): a milestone
 * it has not seen before, or one whose eventClassifierCode flipped to ACT.
 * Push delivery sends an EVENT_TRIGGER for exactly these, so push and polling
 * agree on what "a new milestone" is.
 */

/** The best version of each milestone of a snapshot, by milestone key. */
export type MilestoneIndex = Record<string, { eventID: string; classifier: EventClassifierCode; eventDateTime: string }>;

export function milestoneIndex(events: readonly TrackingEvent[]): MilestoneIndex {
  const index: MilestoneIndex = {};
  for (const event of bestVersionPerMilestone(events)) {
    index[milestoneKey(event)] = {
      eventID: event.eventID,
      classifier: event.eventClassifierCode,
      eventDateTime: event.eventDateTime,
    };
  }
  return index;
}

export interface MilestoneChange {
  key: string;
  eventID: string;
  eventDateTime: string;
  change: 'NEW' | 'ACTUAL';
}

/** Milestones new in `after`, or ACT in `after` and not in `before`, in time order. */
export function milestoneChanges(before: MilestoneIndex, after: MilestoneIndex): MilestoneChange[] {
  const changes: MilestoneChange[] = [];
  for (const [key, now] of Object.entries(after)) {
    const was = before[key];
    if (!was) changes.push({ key, eventID: now.eventID, eventDateTime: now.eventDateTime, change: 'NEW' });
    else if (now.classifier === 'ACT' && was.classifier !== 'ACT') {
      changes.push({ key, eventID: now.eventID, eventDateTime: now.eventDateTime, change: 'ACTUAL' });
    }
  }
  return changes.sort((a, b) =>
    a.eventDateTime !== b.eventDateTime ? (a.eventDateTime < b.eventDateTime ? -1 : 1) : a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  );
}
