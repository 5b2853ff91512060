import type { Db } from '../../db/connect.js';
import { generatedIds, insertRows } from '../../db/bulk-insert.js';
import { rowsPerInsert, type SqlDialect } from '../../db/dialect.js';
import type { TrackingEvent } from '../../domain/types.js';
import { chunks } from '../batching/chunks.js';
import { eventReferences } from '../../domain/event-references.js';
import { FACT_COLUMNS, factColumns } from './event-fact-columns.js';
import { encodeEventPayload } from './event-payload.js';
import { writesCompact } from '../encoding/write-forms.js';

/**
 * Appends a bundle's events to the event store inside the caller's
 * transaction, skipping every eventID already stored (ingest is idempotent;
 * a stored event version is never rewritten), and records the references
 * each new event links to shipments by.
 */

export interface StoredEvents {
  /** Sequence numbers of the newly stored events. */
  storedSeqs: number[];
  /** The newly stored events by seq, the very objects whose JSON the payload holds (for the refresh). */
  stored: Map<number, TrackingEvent>;
  /** Events skipped because their eventID is already stored. */
  alreadyStored: number;
}

const EVENT_COLUMNS = [
  'event_id',
  'carrier_code',
  'event_type',
  'event_date_time',
  'event_created_date_time',
  'payload_json',
  'payload',
  'ingested_at',
  ...FACT_COLUMNS,
  'dcsa_publishable',
] as const;
const REFERENCE_COLUMNS = ['event_seq', 'carrier_code', 'kind', 'value'] as const;

function eventRow(e: TrackingEvent, carrierCode: string, ingestedAt: string, compact: boolean) {
  return {
    event_id: e.eventID,
    carrier_code: carrierCode,
    event_type: e.eventType,
    event_date_time: e.eventDateTime,
    event_created_date_time: e.eventCreatedDateTime,
    // The compact form (src/store/events/event-payload.ts) once the upgrade is finished; until then the plain JSON
    // the previous release reads (src/store/encoding/write-forms.ts).
    ...(compact ? { payload_json: '', payload: encodeEventPayload(e) } : { payload_json: JSON.stringify(e), payload: null }),
    ingested_at: ingestedAt,
    ...factColumns(e),
  };
}

/** insertRows binds only the columns it is given: a column of eventRow missing from EVENT_COLUMNS fails to compile here. */
const everyEventColumn: Exclude<keyof ReturnType<typeof eventRow>, (typeof EVENT_COLUMNS)[number]> extends never ? true : never = true;
void everyEventColumn;

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
  const ids = await generatedIds(db, dialect);
  const compact = writesCompact(db);
  let readBack = false;
  for (const batch of chunks(fresh, rowsPerInsert(EVENT_COLUMNS.length))) {
    const seqs = await insertRows(
      db,
      dialect,
      'event',
      EVENT_COLUMNS,
      batch.map((e) => eventRow(e, carrierCode, ingestedAt, compact)),
      ids,
    );
    if (seqs) batch.forEach((e, i) => seqById.set(e.eventID, seqs[i]!));
    else readBack = true;
  }
  if (readBack) {
    // MySQL has no RETURNING, and without the lock mode's guarantee
    // (consecutiveIdStep) the ids of a multi-row insert are not consecutive
    // under concurrent inserts: read them back.
    for (const eventIds of chunks(fresh.map((e) => e.eventID))) {
      const rows = await db.selectFrom('event').select(['seq', 'event_id']).where('event_id', 'in', eventIds).execute();
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
  for (const batch of chunks(referenceRows, rowsPerInsert(REFERENCE_COLUMNS.length, 1000))) {
    await insertRows(db, dialect, 'event_reference', REFERENCE_COLUMNS, batch);
  }
  return { storedSeqs: [...seqById.values()], stored, alreadyStored: events.length - fresh.length };
}
