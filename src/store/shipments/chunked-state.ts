import type { Kysely } from 'kysely';
import { lockForUpdate, type SqlDialect } from '../../db/dialect.js';
import type { DatabaseSchema } from '../../db/schema.js';
import type { ContainerMaster, ShipmentMaster, TrackingEvent } from '../../domain/types.js';
import { chunks } from '../batching/chunks.js';
import { decodeEvent } from '../events/event-payload.js';
import { parseContainerMaster, parseShipmentMaster } from '../encoding/json-columns.js';
import { decodeMilestonesJson } from './milestones-payload.js';

/**
 * Loading the full state of many shipments at once, for the derivations of
 * derived-state.ts: a fixed number of queries per chunk of shipments.
 */

/** Everything the derivations need about a set of shipments, loaded in a fixed number of queries. */
export interface ShipmentState {
  id: number;
  /** The version as loaded (the row is locked on MySQL/MariaDB, so a bump makes it version + 1). */
  version: number;
  master: ShipmentMaster;
  etd: string | null;
  eta: string | null;
  clockSensitive: number;
  /** The milestones of the last refresh (see milestone-changes.ts); null before the first. */
  milestonesJson: string | null;
  containers: ContainerMaster[];
  containerLastEventAt: Map<string, string | null>;
  events: TrackingEvent[];
}

/**
 * The state of the given shipments. On MySQL/MariaDB their rows are locked
 * (`FOR UPDATE`, in id order, so concurrent refreshes cannot deadlock on
 * each other) until the caller's transaction ends; SQLite has one writer.
 *
 * @param stored events the caller stored in this transaction, by seq, as
 *   their stored payload holds them: these are not read back (an ingest's
 *   refresh read and parsed its own events again, about as long as storing
 *   them). Every other event of the shipments is read from the store. The
 *   objects are shared, not copied: the derivations only read them.
 */
export async function loadShipmentStates(
  db: Kysely<DatabaseSchema>,
  dialect: SqlDialect,
  shipmentIds: readonly number[],
  stored: ReadonlyMap<number, TrackingEvent> = new Map(),
): Promise<Map<number, ShipmentState>> {
  const states = new Map<number, ShipmentState>();
  for (const ids of chunks([...new Set(shipmentIds)].sort((a, b) => a - b))) {
    const query = db
      .selectFrom('shipment')
      .select(['id', 'version', 'master_json', 'etd', 'eta', 'clock_sensitive', 'milestones_json', 'milestones'])
      .where('id', 'in', ids)
      .orderBy('id');
    const shipments = await lockForUpdate(dialect, query).execute();
    for (const s of shipments) {
      states.set(s.id, {
        id: s.id,
        version: Number(s.version),
        master: parseShipmentMaster(s.master_json),
        etd: s.etd,
        eta: s.eta,
        clockSensitive: s.clock_sensitive,
        milestonesJson: decodeMilestonesJson(s),
        containers: [],
        containerLastEventAt: new Map(),
        events: [],
      });
    }
    const containers = await db
      .selectFrom('shipment_container')
      .select(['shipment_id', 'container_number', 'master_json', 'last_event_at'])
      .where('shipment_id', 'in', ids)
      .orderBy('shipment_id')
      .orderBy('position')
      .execute();
    for (const c of containers) {
      const state = states.get(c.shipment_id);
      state?.containers.push(parseContainerMaster(c.master_json));
      state?.containerLastEventAt.set(c.container_number, c.last_event_at);
    }
    for (const link of await loadEvents(db, ids, stored)) states.get(link.shipmentId)?.events.push(link.event);
  }
  return states;
}

/** The events linked to the shipments, in (shipment, seq) order: those in `stored` from there, the others read. */
async function loadEvents(
  db: Kysely<DatabaseSchema>,
  shipmentIds: readonly number[],
  stored: ReadonlyMap<number, TrackingEvent>,
): Promise<{ shipmentId: number; event: TrackingEvent }[]> {
  if (stored.size === 0) {
    const rows = await db
      .selectFrom('shipment_event')
      .innerJoin('event', 'event.seq', 'shipment_event.event_seq')
      .select(['shipment_event.shipment_id', 'event.payload', 'event.payload_json'])
      .where('shipment_event.shipment_id', 'in', shipmentIds)
      .orderBy('shipment_event.shipment_id')
      .orderBy('shipment_event.event_seq')
      .execute();
    return rows.map((r) => ({ shipmentId: r.shipment_id, event: decodeEvent(r) }));
  }
  const links = await db
    .selectFrom('shipment_event')
    .select(['shipment_id', 'event_seq'])
    .where('shipment_id', 'in', shipmentIds)
    .orderBy('shipment_id')
    .orderBy('event_seq')
    .execute();
  const read = new Map<number, TrackingEvent>();
  const missing = [...new Set(links.filter((l) => !stored.has(l.event_seq)).map((l) => l.event_seq))];
  for (const seqs of chunks(missing)) {
    for (const row of await db.selectFrom('event').select(['seq', 'payload', 'payload_json']).where('seq', 'in', seqs).execute()) {
      read.set(row.seq, decodeEvent(row));
    }
  }
  return links.map((l) => {
    const event = stored.get(l.event_seq) ?? read.get(l.event_seq);
    if (!event) throw new Error(`event ${l.event_seq} is linked but not stored`);
    return { shipmentId: l.shipment_id, event };
  });
}

/** Latest eventDateTime per container among the shipment's equipment events. */
export function containerLastEventTimes(state: ShipmentState): Map<string, string | null> {
  const latest = new Map<string, string | null>(state.containers.map((c) => [c.containerNumber, null]));
  for (const event of state.events) {
    if (event.eventType !== 'EQUIPMENT' || !latest.has(event.equipmentReference)) continue;
    const current = latest.get(event.equipmentReference);
    if (current == null || event.eventDateTime > current) latest.set(event.equipmentReference, event.eventDateTime);
  }
  return latest;
}
