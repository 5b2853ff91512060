import type { Db } from '../db/connect.js';
import { insertReturns, rowsPerInsert, type SqlDialect } from '../db/dialect.js';
import type { TrackingEvent } from '../domain/types.js';
import { chunks } from './chunked-state.js';
import { eventReferences } from '../domain/event-references.js';
import { eventFacts } from '../domain/dcsa-events.js';

/**
 * Appends a bundle's events to the event store inside the caller's
 * transaction, skipping every eventID already stored (ingest is idempotent;
 * a stored event version is never rewritten), and records the references
 * each new event links to shipments by.
 */

export interface StoredEvents {
  /** Sequence numbers of the newly stored events. */
  storedSeqs: number[];
  /** The newly stored events by seq, the very objects whose JSON payload_json holds (for the refresh). */
  stored: Map<number, TrackingEvent>;
  /** Events skipped because their eventID is already stored. */
  alreadyStored: number;
}

export async function storeEvents(
  db: Db,
  dialect: SqlDialect,
  carrierCode: string,
  events: readonly TrackingEvent[],
  ingestedAt: string,
): Promise<StoredEvents> {
  if (events.length === 0) return { storedSeqs: [], stored: new Map(), alreadyStored: 0 };
  const known = new Set<string>();
  for (const ids of chunks(events.map((e) => e.eventID))) {
    const rows = await db.selectFrom('event').select('event_id').where('event_id', 'in', ids).execute();
    for (const row of rows) known.add(row.event_id);
  }
  const fresh = events.filter((e) => !known.has(e.eventID));

  const seqById = new Map<string, number>();
  for (const batch of chunks(fresh, rowsPerInsert(17))) {
    const insert = db.insertInto('event').values(
      batch.map((e) => ({
        event_id: e.eventID,
        carrier_code: carrierCode,
        event_type: e.eventType,
        event_date_time: e.eventDateTime,
        event_created_date_time: e.eventCreatedDateTime,
        payload_json: JSON.stringify(e),
        ingested_at: ingestedAt,
        ...factColumns(e),
      })),
    );
    if (insertReturns(dialect)) {
      // SQLite returns the sequence numbers with the insert.
      for (const row of await insert.returning(['seq', 'event_id']).execute()) seqById.set(row.event_id, row.seq);
    } else {
      await insert.execute();
    }
  }
  if (!insertReturns(dialect)) {
    // Read the sequence numbers back: MySQL has no RETURNING, and the ids of a
    // multi-row insert are not guaranteed consecutive under concurrent inserts.
    for (const ids of chunks(fresh.map((e) => e.eventID))) {
      const rows = await db.selectFrom('event').select(['seq', 'event_id']).where('event_id', 'in', ids).execute();
      for (const row of rows) seqById.set(row.event_id, row.seq);
    }
  }

  const stored = new Map<number, TrackingEvent>();
  const referenceRows = fresh.flatMap((e) => {
    const seq = seqById.get(e.eventID);
    if (seq === undefined) throw new Error(`event ${e.eventID} was inserted but not found`);
    stored.set(seq, e);
    return eventReferences(e).map((r) => ({ event_seq: seq, carrier_code: carrierCode, kind: r.kind, value: r.value }));
  });
  for (const batch of chunks(referenceRows, rowsPerInsert(4, 1000))) {
    await db.insertInto('event_reference').values(batch).execute();
  }
  return { storedSeqs: [...seqById.values()], stored, alreadyStored: events.length - fresh.length };
}

/** The columns the DCSA 2.2 filters of GET /v2/events select on (docs: src/db/tables/event.ts). */
export function factColumns(event: TrackingEvent) {
  const f = eventFacts(event);
  return {
    type_code: f.typeCode,
    document_type_code: f.documentTypeCode,
    transport_call_id: f.transportCallID,
    vessel_imo_number: f.vesselIMONumber,
    export_voyage_number: f.exportVoyageNumber,
    carrier_service_code: f.carrierServiceCode,
    call_location_code: f.callLocationCode,
    event_location_code: f.eventLocationCode,
    equipment_reference: f.equipmentReference,
    dcsa_publishable: f.publishable ? 1 : 0,
  };
}
