import type { Db } from '../db/connect.js';
import { skipDuplicateKeys, type SqlDialect } from '../db/dialect.js';
import { chunks } from '../store/chunked-state.js';

/**
 * Maintains shipment_event, the resolved links between shipments and events
 * (DESIGN section 4). A link exists exactly when an event reference matches
 * a shipment of the same carrier: BKG its carrier booking reference, TRD its
 * bill of lading number, EQ one of its container numbers. The relation is a
 * function of the stored data, so linking runs from both sides (new events
 * to stored shipments, new or changed shipments to stored events) and the
 * order of arrival does not matter.
 *
 * Matching is done in SQL (INSERT ... SELECT), so both directions compare
 * values under the same column collation.
 */

type Scope = { shipmentIds: readonly number[] } | { eventSeqs: readonly number[] };

/** Inserts every missing link within the scope, one statement per kind of reference. */
async function insertLinks(db: Db, dialect: SqlDialect, scope: Scope): Promise<void> {
  const byBooking = db
    .selectFrom('event_reference as er')
    .innerJoin('shipment as s', (join) =>
      join
        .onRef('s.carrier_code', '=', 'er.carrier_code')
        .onRef('s.carrier_booking_reference', '=', 'er.value')
        .on('er.kind', '=', 'BKG'),
    )
    .select(['s.id as shipment_id', 'er.event_seq as event_seq']);
  const byBillOfLading = db
    .selectFrom('event_reference as er')
    .innerJoin('shipment as s', (join) =>
      join
        .onRef('s.carrier_code', '=', 'er.carrier_code')
        .onRef('s.bill_of_lading_number', '=', 'er.value')
        .on('er.kind', '=', 'TRD'),
    )
    .select(['s.id as shipment_id', 'er.event_seq as event_seq']);
  const byContainer = db
    .selectFrom('event_reference as er')
    .innerJoin('shipment_container as sc', (join) =>
      join.onRef('sc.container_number', '=', 'er.value').on('er.kind', '=', 'EQ'),
    )
    .innerJoin('shipment as s', (join) =>
      join.onRef('s.id', '=', 'sc.shipment_id').onRef('s.carrier_code', '=', 'er.carrier_code'),
    )
    .select(['s.id as shipment_id', 'er.event_seq as event_seq']);

  for (const select of [byBooking, byBillOfLading, byContainer]) {
    const scoped =
      'shipmentIds' in scope
        ? select.where('s.id', 'in', scope.shipmentIds)
        : select.where('er.event_seq', 'in', scope.eventSeqs);
    // An event can match one shipment by several keys: the first statement
    // links it, the later ones skip the duplicate.
    await skipDuplicateKeys(
      dialect,
      db.insertInto('shipment_event').columns(['shipment_id', 'event_seq']).expression(scoped),
    ).execute();
  }
}

/**
 * Links shipments to the events already stored: events that arrived before
 * their shipment, or that match a changed bill of lading or container list.
 * Call it before storing the bundle's own events, which linkNewEvents links.
 *
 * @param relinkIds shipments whose link keys changed: their links are
 *   recomputed from scratch, so a removed container or replaced bill of
 *   lading drops the links it made.
 */
export async function linkShipmentsToStoredEvents(
  db: Db,
  dialect: SqlDialect,
  shipmentIds: readonly number[],
  relinkIds: readonly number[],
): Promise<void> {
  for (const ids of chunks(relinkIds)) {
    await db.deleteFrom('shipment_event').where('shipment_id', 'in', ids).execute();
  }
  for (const ids of chunks([...new Set([...shipmentIds, ...relinkIds])])) {
    await insertLinks(db, dialect, { shipmentIds: ids });
  }
}

export interface NewEventLinks {
  /** Shipments that gained at least one of the new events. */
  shipmentIds: Set<number>;
  /** New events that match no shipment yet (kept; linked when the shipment comes). */
  unlinked: number;
}

/** Links newly stored events to the matching shipments of their carrier. */
export async function linkNewEvents(db: Db, dialect: SqlDialect, eventSeqs: readonly number[]): Promise<NewEventLinks> {
  const shipmentIds = new Set<number>();
  let unlinked = 0;
  for (const seqs of chunks(eventSeqs)) {
    await insertLinks(db, dialect, { eventSeqs: seqs });
    const links = await db
      .selectFrom('shipment_event')
      .select(['shipment_id', 'event_seq'])
      .where('event_seq', 'in', seqs)
      .execute();
    const linked = new Set<number>();
    for (const link of links) {
      shipmentIds.add(link.shipment_id);
      linked.add(link.event_seq);
    }
    unlinked += seqs.length - linked.size;
  }
  return { shipmentIds, unlinked };
}
