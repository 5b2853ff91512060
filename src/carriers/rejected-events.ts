import { createHash } from 'node:crypto';
import type { Database } from '../db/connect.js';
import type { TrackingEvent } from '../domain/types.js';
import type { IngestOptions } from '../ingest/ingest-bundle.js';
import {
  deleteRejectedEvents,
  keepRejectedEvents,
  listRejectedEvents,
  markRejectedAgain,
  type RejectedEventInput,
} from '../store/events/rejected-events.js';
import { carrierEventsBundle, describeIssues, type RefusedEvent } from './carrier-events.js';
import { ingestRetrying } from './ingest-retrying.js';

/**
 * Events a poll or a carrier notification refused are not lost (README
 * "Carrier onboarding"): each is kept as received, with its error
 * (src/store/events/rejected-events.ts), and `tracking carrier rejected replay`
 * runs them through validation and ingest again once the cause is fixed
 * (a code list the service now knows, a carrier that corrected its feed).
 */

/** Events kept as received: JSON longer than this is kept cut, with the error saying so (it cannot be replayed). */
const MAX_EVENT_JSON = 64 * 1024;

/** The rows to keep for refused events of `carrierCode`: `refused` names them by index in `events`, with their issues. */
export function rejectedRows(
  carrierCode: string,
  source: RejectedEventInput['source'],
  events: readonly unknown[],
  refused: readonly RefusedEvent[],
  note?: (index: number) => string,
): RejectedEventInput[] {
  return refused.map(({ index, issues }) => {
    let json = JSON.stringify(events[index]) ?? 'null';
    let error = note ? note(index) : describeIssues(issues);
    if (json.length > MAX_EVENT_JSON) {
      error = `kept cut to ${MAX_EVENT_JSON} characters, it cannot be replayed; ${error}`;
      json = json.slice(0, MAX_EVENT_JSON);
    }
    const raw = events[index] as { eventID?: unknown } | null;
    return {
      carrierCode,
      source,
      digest: createHash('sha256').update(json).digest('hex'),
      eventId: typeof raw?.eventID === 'string' ? raw.eventID : null,
      eventJson: json,
      error,
    };
  });
}

/** Keeps refused events, within the configured bound; a failure to keep them is logged by the caller, never fatal. */
export async function keepRejected(database: Database, rows: readonly RejectedEventInput[], now: Date, max: number): Promise<void> {
  await keepRejectedEvents(database.db, rows, now, max);
}

export interface ReplayResult {
  /** Kept events looked at. */
  replayed: number;
  /** Valid now and ingested (new ones stored, known eventIDs skipped); no longer kept. */
  eventsStored: number;
  eventsAlreadyStored: number;
  /** Still invalid: kept, with their error as of now. */
  stillRejected: number;
}

/** Replays kept events (oldest first; one carrier's, or the given ids), one ingest per carrier. */
export async function replayRejectedEvents(
  database: Database,
  filter: { carrierCode?: string; ids?: readonly number[]; limit: number },
  options: IngestOptions,
): Promise<ReplayResult> {
  const rows = await listRejectedEvents(database.db, filter);
  const result: ReplayResult = { replayed: rows.length, eventsStored: 0, eventsAlreadyStored: 0, stillRejected: 0 };
  const byCarrier = new Map<string, { ids: number[]; events: TrackingEvent[]; seen: Set<string> }>();
  for (const row of rows) {
    if (row.source === 'x12-315' || row.source === 'iftsta') {
      // An EDI transaction is kept as its segments, not as DCSA JSON: the carrier re-sends it
      // corrected, under a new control number (docs/carriers.md "EDI"). It stays kept as it is.
      result.stillRejected += 1;
      continue;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(row.event);
    } catch {
      result.stillRejected += 1;
      await markRejectedAgain(database.db, row.id, 'the kept event is not whole JSON (it was cut): it cannot be replayed', options.now());
      continue;
    }
    const parsed = carrierEventsBundle(row.carrierCode, [raw]);
    if (!parsed.ok) {
      result.stillRejected += 1;
      await markRejectedAgain(
        database.db,
        row.id,
        describeIssues(parsed.issues.map((i) => ({ ...i, path: i.path.replace(/^events\[0\]\.?/, '') }))),
        options.now(),
      );
      continue;
    }
    const group = byCarrier.get(row.carrierCode) ?? { ids: [], events: [], seen: new Set<string>() };
    byCarrier.set(row.carrierCode, group);
    group.ids.push(row.id);
    for (const event of parsed.bundle.events) {
      // Two kept versions of one eventID: the store keeps the first (an event version is never rewritten).
      if (group.seen.has(event.eventID)) {
        result.eventsAlreadyStored += 1;
        continue;
      }
      group.seen.add(event.eventID);
      group.events.push(event);
    }
  }
  for (const [carrierCode, group] of byCarrier) {
    if (group.events.length > 0) {
      const summary = await ingestRetrying(database, { carrierCode, shipments: [], events: group.events }, options);
      result.eventsStored += summary.eventsStored;
      result.eventsAlreadyStored += summary.eventsAlreadyStored;
    }
    // After the commit: a replay that dies here leaves them kept, and the next replay skips them by eventID.
    await deleteRejectedEvents(database.db, group.ids);
  }
  return result;
}
