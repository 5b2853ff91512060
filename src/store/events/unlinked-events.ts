import type { Db } from '../../db/connect.js';
import { chunks } from '../batching/chunks.js';

/**
 * Stored events that link to no shipment (yet): kept by ingest in
 * unlinked_event (link-events.ts), so that data going nowhere is visible
 * (docs/carriers.md "Carrier onboarding"): the tt_unlinked_events gauge and
 * `tracking carrier unlinked`.
 */

export interface UnlinkedEvent {
  carrierCode: string;
  eventID: string;
  eventType: string;
  eventDateTime: string;
  eventCreatedDateTime: string;
  ingestedAt: string;
  /** What it would link by: BKG (carrier booking), TRD (bill of lading), EQ (container), with the values it names. */
  references: { kind: string; value: string }[];
}

/** Oldest first (in the order they were stored), at most `limit`; only one carrier's with `carrierCode`. */
export async function listUnlinkedEvents(db: Db, filter: { carrierCode?: string; limit: number }): Promise<UnlinkedEvent[]> {
  let query = db
    .selectFrom('unlinked_event as u')
    .innerJoin('event as e', 'e.seq', 'u.event_seq')
    .select(['e.seq', 'e.carrier_code', 'e.event_id', 'e.event_type', 'e.event_date_time', 'e.event_created_date_time', 'e.ingested_at'])
    .orderBy('u.event_seq')
    .limit(filter.limit);
  if (filter.carrierCode !== undefined) query = query.where('u.carrier_code', '=', filter.carrierCode);
  const rows = await query.execute();
  const references = new Map<number, { kind: string; value: string }[]>();
  for (const seqs of chunks(rows.map((r) => r.seq))) {
    const refs = await db
      .selectFrom('event_reference')
      .select(['event_seq', 'kind', 'value'])
      .where('event_seq', 'in', seqs)
      .orderBy('event_seq')
      .orderBy('kind')
      .orderBy('value')
      .execute();
    for (const r of refs) {
      const list = references.get(r.event_seq) ?? [];
      list.push({ kind: r.kind, value: r.value });
      references.set(r.event_seq, list);
    }
  }
  return rows.map((r) => ({
    carrierCode: r.carrier_code,
    eventID: r.event_id,
    eventType: r.event_type,
    eventDateTime: r.event_date_time,
    eventCreatedDateTime: r.event_created_date_time,
    ingestedAt: r.ingested_at,
    references: references.get(r.seq) ?? [],
  }));
}

/** How many stored events link to no shipment, by carrier (one GROUP BY over unlinked_event). */
export async function countUnlinkedEventsByCarrier(db: Db): Promise<{ carrierCode: string; count: number }[]> {
  const rows = await db
    .selectFrom('unlinked_event')
    .select((eb) => ['carrier_code', eb.fn.countAll<number | string | bigint>().as('n')])
    .groupBy('carrier_code')
    .execute();
  return rows.map((r) => ({ carrierCode: r.carrier_code, count: Number(r.n) }));
}
