import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import type { EventFilter, TimeRange } from '../../domain/dcsa/dcsa-event-filter.js';
import type { TrackingEvent } from '../../domain/types.js';
import { decodeEvent } from './event-payload.js';

/**
 * Stored events as GET /v2/events pages through them (docs/dcsa-events.md: Consuming the service as a DCSA publisher): one
 * statement per page, with the tenant rule inside it (only events linked to a shipment one of the caller's
 * accounts sees, as the lookup: src/store/shipments/shipment-lookup.ts), the DCSA filters on the columns eventFacts fills
 * at ingest, and keyset pagination on (sort values, seq): a page starts strictly after (or ends strictly before)
 * a boundary event, so events stored meanwhile neither shift nor repeat the pages a client walks.
 */

export interface EventPageRequest {
  accountIds: readonly string[];
  filter: EventFilter;
  created: TimeRange;
  sort: readonly { field: 'eventCreatedDateTime' | 'eventDateTime'; direction: 'ASC' | 'DESC' }[];
  limit: number;
  position: { at: 'start' | 'end' } | { after: Boundary } | { before: Boundary };
  /** Only these events (a notification's); not a DCSA filter. */
  eventIds?: readonly string[];
}

interface Boundary {
  values: readonly string[];
  seq: number;
}

export interface EventPageRow {
  seq: number;
  event: TrackingEvent;
  /** The event's values of the sort fields, in the sort's order. */
  values: string[];
}

const COLUMN = {
  eventCreatedDateTime: 'e.event_created_date_time',
  eventDateTime: 'e.event_date_time',
} as const;

type Eb = ExpressionBuilder<DatabaseSchema & { e: DatabaseSchema['event'] }, 'e'>;

/**
 * One page in the request's order, and whether more events follow it in the direction it was read (after the
 * last one for a forward page; before the first one for a page read backwards: `before` or `end`).
 */
export async function readEventPage(
  db: Kysely<DatabaseSchema>,
  request: EventPageRequest,
): Promise<{ rows: EventPageRow[]; more: boolean }> {
  if (request.accountIds.length === 0 || request.eventIds?.length === 0) return { rows: [], more: false };
  const backward = 'before' in request.position || ('at' in request.position && request.position.at === 'end');
  const keys = request.sort.map((k) => ({ column: COLUMN[k.field], descending: (k.direction === 'DESC') !== backward }));
  const seqDescending = keys[0]?.descending ?? backward;
  const boundary = 'after' in request.position ? request.position.after : 'before' in request.position ? request.position.before : null;

  let query = db
    .selectFrom('event as e')
    .select(['e.seq', 'e.payload', 'e.payload_json', 'e.event_created_date_time', 'e.event_date_time'])
    .where('e.dcsa_publishable', '=', 1)
    .where((eb) => visibleTo(eb, request.accountIds, request.filter))
    .where((eb) => eb.and(filters(eb, request.filter, request.created)));
  if (request.eventIds) query = query.where('e.event_id', 'in', [...request.eventIds]);
  if (boundary) {
    query = query.where((eb) => {
      // Strictly after the boundary in this statement's order: the first differing key decides.
      const branches = [...keys, { column: 'e.seq' as const, descending: seqDescending }].map((key, i) => {
        const value = i < keys.length ? boundary.values[i] : boundary.seq;
        const equalBefore = keys.slice(0, i).map((k, j) => eb(k.column, '=', boundary.values[j] as string));
        return eb.and([...equalBefore, eb(key.column, key.descending ? '<' : '>', value as never)]);
      });
      return eb.or(branches);
    });
  }
  for (const key of keys) query = query.orderBy(key.column, key.descending ? 'desc' : 'asc');
  query = query.orderBy('e.seq', seqDescending ? 'desc' : 'asc').limit(request.limit + 1);

  const found = await query.execute();
  const more = found.length > request.limit;
  const rows = found.slice(0, request.limit).map((r) => ({
    seq: Number(r.seq),
    event: decodeEvent(r),
    values: request.sort.map((k) => (k.field === 'eventCreatedDateTime' ? r.event_created_date_time : r.event_date_time)),
  }));
  if (backward) rows.reverse();
  return { rows, more };
}

/**
 * Events linked to a shipment one of the accounts sees (and, when asked, with that booking or bill of lading).
 *
 * Without a booking or bill of lading, an EXISTS per event: the page's order index (or a filter's) drives, and
 * each candidate is checked against shipment_event's PK and the account's shipments. With one, the other way
 * round (docs/architecture.md, Event storage): the shipments of that booking or bill of lading (an index each),
 * their events (shipment_event's PK) and the accounts' grant, a handful of seqs, which the page then reads by
 * seq and sorts; an EXISTS there made the store walk the order index through every event until it found a page.
 * Both are the same rule: one shipment that is linked to the event, visible to an account and (when asked) of
 * that booking and bill of lading.
 */
function visibleTo(eb: Eb, accountIds: readonly string[], filter: EventFilter) {
  if (filter.carrierBookingReference !== undefined || filter.transportDocumentReference !== undefined) {
    let ofShipment = eb
      .selectFrom('shipment as s')
      .innerJoin('shipment_event as se', 'se.shipment_id', 's.id')
      .innerJoin('shipment_account as sa', 'sa.shipment_id', 's.id')
      .select('se.event_seq')
      .where('sa.account_id', 'in', [...accountIds]);
    if (filter.carrierBookingReference !== undefined) {
      ofShipment = ofShipment.where('s.carrier_booking_reference', '=', filter.carrierBookingReference);
    }
    if (filter.transportDocumentReference !== undefined) {
      ofShipment = ofShipment.where('s.bill_of_lading_number', '=', filter.transportDocumentReference);
    }
    return eb('e.seq', 'in', ofShipment);
  }
  return eb.exists(
    eb
      .selectFrom('shipment_event as se')
      .innerJoin('shipment_account as sa', 'sa.shipment_id', 'se.shipment_id')
      .select('se.shipment_id')
      .whereRef('se.event_seq', '=', 'e.seq')
      .where('sa.account_id', 'in', [...accountIds]),
  );
}

/** The DCSA filters on the event's own columns (src/domain/dcsa/dcsa-event-filter.ts has the same rules in code). */
function filters(eb: Eb, filter: EventFilter, created: TimeRange) {
  const all = [];
  if (filter.eventType?.length) all.push(eb('e.event_type', 'in', filter.eventType));
  const typed = (list: readonly string[] | undefined, type: string) => {
    if (list?.length) all.push(eb.and([eb('e.event_type', '=', type), eb('e.type_code', 'in', [...list])]));
  };
  typed(filter.shipmentEventTypeCode, 'SHIPMENT');
  typed(filter.transportEventTypeCode, 'TRANSPORT');
  typed(filter.equipmentEventTypeCode, 'EQUIPMENT');
  if (filter.documentTypeCode?.length) all.push(eb('e.document_type_code', 'in', filter.documentTypeCode));
  if (filter.transportCallID !== undefined) all.push(eb('e.transport_call_id', '=', filter.transportCallID));
  if (filter.vesselIMONumber !== undefined) all.push(eb('e.vessel_imo_number', '=', filter.vesselIMONumber));
  if (filter.exportVoyageNumber !== undefined) all.push(eb('e.export_voyage_number', '=', filter.exportVoyageNumber));
  if (filter.carrierServiceCode !== undefined) all.push(eb('e.carrier_service_code', '=', filter.carrierServiceCode));
  if (filter.UNLocationCode !== undefined) {
    all.push(eb.or([eb('e.call_location_code', '=', filter.UNLocationCode), eb('e.event_location_code', '=', filter.UNLocationCode)]));
  }
  if (filter.equipmentReference !== undefined) all.push(eb('e.equipment_reference', '=', filter.equipmentReference));
  if (filter.carrierCode !== undefined) all.push(eb('e.carrier_code', '=', filter.carrierCode));
  const column = 'e.event_created_date_time';
  if (created.gte !== undefined) all.push(eb(column, '>=', created.gte));
  if (created.gt !== undefined) all.push(eb(column, '>', created.gt));
  if (created.lte !== undefined) all.push(eb(column, '<=', created.lte));
  if (created.lt !== undefined) all.push(eb(column, '<', created.lt));
  if (created.eq !== undefined) all.push(eb(column, '=', created.eq));
  return all;
}
