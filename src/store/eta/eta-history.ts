import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import type { VoyageFacts } from '../../domain/eta/predictor.js';
import { actualArrival } from '../../domain/eta/voyage-state.js';
import type { TrackingEvent } from '../../domain/types.js';
import { chunks } from '../batching/chunks.js';
import { parseShipmentMaster } from '../encoding/json-columns.js';
import { decodeEventJson } from '../events/event-payload.js';

/**
 * The history the predicted arrival learns from and predicts over (src/domain/eta/predictor.ts): a shipment's
 * voyage as VoyageFacts, every stored version of its events with when the service stored each (ingested_at).
 * Reads only; the same statements on SQLite and MySQL/MariaDB.
 */

type Db = Kysely<DatabaseSchema>;

/** One shipment's voyage; null for an unknown shipment. */
export async function loadVoyageFacts(db: Db, shipmentId: number): Promise<VoyageFacts | null> {
  const [facts] = await loadVoyagesOf(db, [shipmentId]);
  return facts ?? null;
}

/** The voyages of these shipments, in the order given (unknown ids left out). */
export async function loadVoyagesOf(db: Db, shipmentIds: readonly number[]): Promise<VoyageFacts[]> {
  const ids = [...new Set(shipmentIds)];
  const byId = new Map<number, VoyageFacts>();
  for (const chunk of chunks(ids)) {
    const shipments = await db.selectFrom('shipment').select(['id', 'carrier_code', 'master_json']).where('id', 'in', chunk).execute();
    for (const row of shipments) {
      const master = parseShipmentMaster(row.master_json);
      byId.set(Number(row.id), {
        shipmentId: String(row.id),
        carrierCode: row.carrier_code,
        portOfLoading: master.portOfLoading?.unLocationCode ?? null,
        portOfDischarge: master.portOfDischarge?.unLocationCode ?? null,
        vesselKey: master.vesselName && master.voyageNumber ? `${master.vesselName}/${master.voyageNumber}` : null,
        events: [],
        receivedAt: [],
      });
    }
    // In storage order (seq), so that the same database always gives the same facts.
    const events = await db
      .selectFrom('shipment_event')
      .innerJoin('event', 'event.seq', 'shipment_event.event_seq')
      .select(['shipment_event.shipment_id', 'event.seq', 'event.payload', 'event.payload_json', 'event.ingested_at'])
      .where('shipment_event.shipment_id', 'in', chunk)
      .orderBy('shipment_event.shipment_id')
      .orderBy('event.seq')
      .execute();
    for (const row of events) {
      const facts = byId.get(Number(row.shipment_id));
      if (!facts) continue;
      (facts.events as TrackingEvent[]).push(JSON.parse(decodeEventJson(row)) as TrackingEvent);
      (facts.receivedAt as string[]).push(row.ingested_at);
    }
  }
  return shipmentIds.flatMap((id) => {
    const facts = byId.get(id);
    return facts ? [facts] : [];
  });
}

export interface ArrivedBatch {
  /** The voyages whose actual arrival at their port of discharge was stored in this stretch of the history. */
  voyages: VoyageFacts[];
  /** Pass back to read on; the same cursor gives the same batch. */
  cursor: HistoryCursor;
  /** False once the batch reached the end of the event store and of the ordered change log (read again later). */
  more: boolean;
}

/**
 * Where training stands in the history, two positions:
 * - `seq`: the event store (event.seq), read in storage order. Cheap, and it sees a corrected arrival (a new
 *   version of an actual arrival, which changes no milestone); but seq is taken at insert, not at commit: an
 *   ingest that commits after a later one has a smaller seq than rows already read, and this position alone would
 *   pass it forever.
 * - `change`: the change log's commit order (change_log.commit_seq, src/store/changes/change-order.ts): numbered
 *   after commit, so every committed row gets a number above every number handed out before it was visible, and a
 *   reader resuming after a number never skips a row. An ingest that stores an actual arrival makes the milestone
 *   new or flips it to ACT, and so writes an EVENT_TRIGGER row for its shipment in its own transaction (0.4.0's
 *   ingest too): the change position finds every arrival, however late its transaction commits.
 * A voyage found by both is folded once per batch; folded again later, it replaces its own samples
 * (src/domain/eta/eta-model.ts, foldVoyages), so seeing it twice changes nothing.
 */
export interface HistoryCursor {
  seq: number;
  change: number;
}

export const HISTORY_START: HistoryCursor = { seq: 0, change: 0 };

/** The stored text (eta_training.history_cursor): `s<seq>:c<commit_seq>`; a bare number is the seq-only cursor of before. */
export function parseHistoryCursor(text: string | null): HistoryCursor {
  if (text === null || text === '') return HISTORY_START;
  const both = /^s(\d+):c(\d+)$/.exec(text);
  if (both) return { seq: Number(both[1]), change: Number(both[2]) };
  // A cursor written before the change position existed: the change log is read from its start once.
  return /^\d+$/.test(text) ? { seq: Number(text), change: 0 } : HISTORY_START;
}

export function formatHistoryCursor(cursor: HistoryCursor): string {
  return `s${cursor.seq}:c${cursor.change}`;
}

/** Events of the store (and rows of the change log) read per batch: bounds each statement's work. */
export const ARRIVAL_SCAN_EVENTS = 5000;

/**
 * The voyages that arrived, in bounded batches by a cursor over the history (HistoryCursor): each call reads the
 * next `scanEvents` stored events and keeps the actual arrivals among them, and the next `scanEvents` ordered rows
 * of the change log and keeps the shipments of their EVENT_TRIGGERs, and loads those voyages that arrived at their
 * port of discharge. Start with HISTORY_START; keep the last cursor to fold in only newer arrivals (incremental
 * training). The change log must be ordered first (orderCommittedChanges): rows not numbered yet are read by a
 * later batch. A voyage whose arrival was corrected comes again with the correction.
 */
export async function loadArrivedVoyages(db: Db, cursor: HistoryCursor, scanEvents = ARRIVAL_SCAN_EVENTS): Promise<ArrivedBatch> {
  const bySeq = await arrivalsBySeq(db, cursor.seq, scanEvents);
  const byChange = await arrivalsByChange(db, cursor.change, scanEvents);
  const next = { seq: bySeq.end, change: byChange.end };
  const more = bySeq.more || byChange.more;
  const candidates = [...new Set([...bySeq.ports.keys(), ...byChange.shipments])];
  if (candidates.length === 0) return { voyages: [], cursor: next, more };
  const changed = new Set(byChange.shipments);
  // An actual arrival counts only at the voyage's port of discharge (not at a transshipment port).
  const voyages = (await loadVoyagesOf(db, candidates)).filter((v) => {
    if (v.portOfDischarge === null) return false;
    if (bySeq.ports.get(Number(v.shipmentId))?.has(v.portOfDischarge)) return true;
    return changed.has(Number(v.shipmentId)) && actualArrival(v) !== null;
  });
  return { voyages, cursor: next, more };
}

/** The next `scanEvents` stored events after `cursor` (by seq): the ports of their actual arrivals, per shipment. */
async function arrivalsBySeq(
  db: Db,
  cursor: number,
  scanEvents: number,
): Promise<{ ports: Map<number, Set<string>>; end: number; more: boolean }> {
  const ports = new Map<number, Set<string>>();
  // The stretch's end on the primary key alone, so the batch costs the same whatever the events are.
  const last = await db
    .selectFrom('event')
    .select('seq')
    .where('seq', '>', cursor)
    .orderBy('seq')
    .limit(1)
    .offset(scanEvents - 1)
    .executeTakeFirst();
  const end = last ? Number(last.seq) : await maxSeq(db);
  if (end <= cursor) return { ports, end: cursor, more: false };

  const arrivals = await db
    .selectFrom('event')
    .innerJoin('shipment_event', 'shipment_event.event_seq', 'event.seq')
    .select(['shipment_event.shipment_id', 'event.payload', 'event.payload_json', 'event.call_location_code'])
    .where('event.seq', '>', cursor)
    .where('event.seq', '<=', end)
    .where('event.event_type', '=', 'TRANSPORT')
    .where('event.type_code', '=', 'ARRI')
    .orderBy('event.seq')
    .execute();
  for (const row of arrivals) {
    const event = JSON.parse(decodeEventJson(row)) as TrackingEvent;
    if (event.eventClassifierCode !== 'ACT' || event.eventType !== 'TRANSPORT') continue;
    const id = Number(row.shipment_id);
    if (!ports.has(id)) ports.set(id, new Set());
    ports.get(id)!.add(event.transportCall.unLocationCode);
  }
  return { ports, end, more: last !== undefined };
}

/**
 * The shipments of the EVENT_TRIGGER rows among the next `scanRows` numbered rows of the change log after
 * `cursor` (by commit_seq). The stretch ends at a whole ordering batch (its rows share one number, at most
 * 1000 of them), read on the (commit_seq, id) index.
 */
async function arrivalsByChange(db: Db, cursor: number, scanRows: number): Promise<{ shipments: number[]; end: number; more: boolean }> {
  const last = await db
    .selectFrom('change_log')
    .select('commit_seq')
    .where('commit_seq', '>', cursor)
    .orderBy('commit_seq')
    .orderBy('id')
    .limit(1)
    .offset(scanRows - 1)
    .executeTakeFirst();
  const end = last ? Number(last.commit_seq) : await maxCommitSeq(db);
  if (end <= cursor) return { shipments: [], end: cursor, more: false };
  const rows = await db
    .selectFrom('change_log')
    .select('shipment_id')
    .distinct()
    .where('commit_seq', '>', cursor)
    .where('commit_seq', '<=', end)
    .where('trigger_type', '=', 'EVENT_TRIGGER')
    .execute();
  return { shipments: rows.map((r) => Number(r.shipment_id)), end, more: last !== undefined };
}

async function maxCommitSeq(db: Db): Promise<number> {
  const row = await db
    .selectFrom('change_log')
    .select((eb) => eb.fn.max('commit_seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

async function maxSeq(db: Db): Promise<number> {
  const row = await db
    .selectFrom('event')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}
