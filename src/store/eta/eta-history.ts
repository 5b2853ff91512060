import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import type { VoyageFacts } from '../../domain/eta/predictor.js';
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
  /** The voyages whose actual arrival at their port of discharge was stored in this stretch of the event store. */
  voyages: VoyageFacts[];
  /** Pass back to read on; the same cursor gives the same batch. */
  cursor: number;
  /** False once the batch reached the end of the event store (read again later for newer arrivals). */
  more: boolean;
}

/** Events of the store read per batch: bounds each statement's work, whatever share of them are arrivals. */
export const ARRIVAL_SCAN_EVENTS = 5000;

/**
 * The voyages that arrived, in bounded batches by a cursor over the event store (event.seq): each call reads
 * the next `scanEvents` stored events, keeps the actual arrivals among them and loads the voyages they
 * arrived at their port of discharge. Start with cursor 0; keep the last cursor to fold in only newer
 * arrivals (incremental training). A voyage whose arrival was corrected comes again with the correction.
 */
export async function loadArrivedVoyages(db: Db, cursor: number, scanEvents = ARRIVAL_SCAN_EVENTS): Promise<ArrivedBatch> {
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
  if (end <= cursor) return { voyages: [], cursor, more: false };

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
  const candidates: number[] = [];
  const ports = new Map<number, Set<string>>();
  for (const row of arrivals) {
    const event = JSON.parse(decodeEventJson(row)) as TrackingEvent;
    if (event.eventClassifierCode !== 'ACT' || event.eventType !== 'TRANSPORT') continue;
    const id = Number(row.shipment_id);
    if (!ports.has(id)) {
      ports.set(id, new Set());
      candidates.push(id);
    }
    ports.get(id)!.add(event.transportCall.unLocationCode);
  }
  // An actual arrival counts only at the voyage's port of discharge (not at a transshipment port).
  const voyages = (await loadVoyagesOf(db, candidates)).filter(
    (v) => v.portOfDischarge !== null && ports.get(Number(v.shipmentId))!.has(v.portOfDischarge),
  );
  return { voyages, cursor: end, more: last !== undefined };
}

async function maxSeq(db: Db): Promise<number> {
  const row = await db
    .selectFrom('event')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}
