import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';
import type { ContainerMaster, TrackingEvent, TrackingException } from '../domain/types.js';
import { parseContainerMaster, parseEvent, parseException } from './json-columns.js';

/**
 * Set-based reads of one shipment's parts: each is exactly one SQL round
 * trip whatever the number of containers, events or exceptions.
 */

export async function loadContainers(db: Kysely<DatabaseSchema>, shipmentId: number): Promise<ContainerMaster[]> {
  const rows = await db
    .selectFrom('shipment_container')
    .select('master_json')
    .where('shipment_id', '=', shipmentId)
    .orderBy('position')
    .execute();
  return rows.map((r) => parseContainerMaster(r.master_json));
}

/** Every stored version of every event linked to the shipment. */
export async function loadEvents(db: Kysely<DatabaseSchema>, shipmentId: number): Promise<TrackingEvent[]> {
  const rows = await db
    .selectFrom('shipment_event')
    .innerJoin('event', 'event.seq', 'shipment_event.event_seq')
    .select('event.payload_json')
    .where('shipment_event.shipment_id', '=', shipmentId)
    .execute();
  return rows.map((r) => parseEvent(r.payload_json));
}

export async function loadExceptions(db: Kysely<DatabaseSchema>, shipmentId: number): Promise<TrackingException[]> {
  const rows = await db
    .selectFrom('tracking_exception')
    .select('body_json')
    .where('shipment_id', '=', shipmentId)
    .execute();
  return rows
    .map((r) => parseException(r.body_json))
    .sort((a, b) =>
      a.detectedDateTime !== b.detectedDateTime
        ? a.detectedDateTime < b.detectedDateTime
          ? -1
          : 1
        : a.exceptionID < b.exceptionID
          ? -1
          : 1,
    );
}
