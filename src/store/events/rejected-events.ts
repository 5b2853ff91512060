import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { chunks } from '../batching/chunks.js';

/**
 * Carrier events a poll or a notification refused (README "Carrier
 * onboarding"), kept as received with their error until an operator
 * replays them (`tracking carrier rejected replay`, src/carriers/rejected-events.ts).
 * One row per carrier and exact content (a poll that meets the same bad
 * event again counts it); at most `max` rows, the oldest dropped first.
 */

export interface RejectedEventInput {
  carrierCode: string;
  /** Where it came from; an EDI transaction (x12-315, iftsta) is kept as its segments, replayed by sending it again. */
  source: 'poll' | 'notification' | 'x12-315' | 'iftsta';
  digest: string;
  eventId: string | null;
  eventJson: string;
  error: string;
}

export interface RejectedEvent {
  id: number;
  carrierCode: string;
  source: string;
  eventID: string | null;
  event: string;
  error: string;
  firstRejectedAt: string;
  lastRejectedAt: string;
  timesRejected: number;
}

/** Records refused events (in the caller's transaction or alone) and trims the table to `max` rows. */
export async function keepRejectedEvents(db: Db, events: readonly RejectedEventInput[], now: Date, max: number): Promise<void> {
  if (events.length === 0 || max === 0) return;
  const at = now.toISOString();
  const seenAgain = async (e: RejectedEventInput) => {
    const seen = await db
      .updateTable('rejected_event')
      .set((eb) => ({
        error: e.error.slice(0, 1000),
        source: e.source,
        last_rejected_at: at,
        times_rejected: eb('times_rejected', '+', 1),
      }))
      .where('carrier_code', '=', e.carrierCode)
      .where('digest', '=', e.digest)
      .executeTakeFirst();
    return seen.numUpdatedRows > 0n;
  };
  for (const e of events) {
    if (await seenAgain(e)) continue;
    try {
      await db
        .insertInto('rejected_event')
        .values({
          carrier_code: e.carrierCode,
          source: e.source,
          digest: e.digest,
          event_id: e.eventId === null ? null : e.eventId.slice(0, 100),
          event_json: e.eventJson,
          error: e.error.slice(0, 1000),
          first_rejected_at: at,
          last_rejected_at: at,
          times_rejected: 1,
        })
        .execute();
    } catch (err) {
      // Kept meanwhile by a concurrent refusal of the same event (another instance): count it there.
      if (!isUniqueViolation(err)) throw err;
      await seenAgain(e);
    }
  }
  // The bound: everything older than the newest `max` rows goes.
  const edge = await db.selectFrom('rejected_event').select('id').orderBy('id', 'desc').limit(1).offset(max).executeTakeFirst();
  if (edge) await db.deleteFrom('rejected_event').where('id', '<=', edge.id).execute();
}

/** Oldest first, at most `limit`; one carrier's with `carrierCode`, only these with `ids`. */
export async function listRejectedEvents(
  db: Db,
  filter: { carrierCode?: string; ids?: readonly number[]; limit: number },
): Promise<RejectedEvent[]> {
  let query = db.selectFrom('rejected_event').selectAll().orderBy('id').limit(filter.limit);
  if (filter.carrierCode !== undefined) query = query.where('carrier_code', '=', filter.carrierCode);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids.length > 0 ? [...filter.ids] : [-1]);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    carrierCode: r.carrier_code,
    source: r.source,
    eventID: r.event_id,
    event: r.event_json,
    error: r.error,
    firstRejectedAt: r.first_rejected_at,
    lastRejectedAt: r.last_rejected_at,
    timesRejected: r.times_rejected,
  }));
}

export async function deleteRejectedEvents(db: Db, ids: readonly number[]): Promise<void> {
  for (const batch of chunks(ids)) await db.deleteFrom('rejected_event').where('id', 'in', batch).execute();
}

/** A replay that failed again: the new error, counted as another rejection. */
export async function markRejectedAgain(db: Db, id: number, error: string, now: Date): Promise<void> {
  await db
    .updateTable('rejected_event')
    .set((eb) => ({ error: error.slice(0, 1000), last_rejected_at: now.toISOString(), times_rejected: eb('times_rejected', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** How many rejected events are kept, by carrier. */
export async function countRejectedEventsByCarrier(db: Db): Promise<{ carrierCode: string; count: number }[]> {
  const rows = await db
    .selectFrom('rejected_event')
    .select((eb) => ['carrier_code', eb.fn.countAll<number | string | bigint>().as('n')])
    .groupBy('carrier_code')
    .execute();
  return rows.map((r) => ({ carrierCode: r.carrier_code, count: Number(r.n) }));
}
