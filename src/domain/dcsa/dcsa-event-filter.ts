import type { EventFacts } from './dcsa-events.js';
import type { EventType } from '../types.js';

/**
 * The filters of DCSA Track & Trace 2.2 (docs/dcsa-events.md: Consuming the service as a DCSA publisher): the query
 * parameters of GET /v2/events and the filter fields of an event subscription. Every filter given must hold
 * (AND); a list holds when any of its values does (OR). A filter on an attribute an event does not have (a
 * shipmentEventTypeCode on a transport event) does not hold, so contradicting filters select nothing, as the
 * standard describes. Values are checked at the edge (src/arguments/dcsa-event-query.ts).
 */
export interface EventFilter {
  eventType?: EventType[];
  shipmentEventTypeCode?: string[];
  documentTypeCode?: string[];
  transportEventTypeCode?: string[];
  equipmentEventTypeCode?: string[];
  /** Events linked to a shipment with this carrier booking reference. */
  carrierBookingReference?: string;
  /** Events linked to a shipment with this bill of lading number. */
  transportDocumentReference?: string;
  transportCallID?: string;
  vesselIMONumber?: string;
  exportVoyageNumber?: string;
  carrierServiceCode?: string;
  /** The transport call's UN/LOCODE, or an equipment event's eventLocation. */
  UNLocationCode?: string;
  equipmentReference?: string;
  /** Not in the standard: events published by this carrier (SCAC). */
  carrierCode?: string;
}

/** The filter fields of a subscription and of the query, in the order the standard lists them. */
export const EVENT_FILTER_FIELDS = [
  'eventType',
  'shipmentEventTypeCode',
  'documentTypeCode',
  'carrierBookingReference',
  'transportDocumentReference',
  'transportEventTypeCode',
  'transportCallID',
  'vesselIMONumber',
  'exportVoyageNumber',
  'carrierServiceCode',
  'UNLocationCode',
  'equipmentEventTypeCode',
  'equipmentReference',
  'carrierCode',
] as const satisfies readonly (keyof EventFilter)[];

/** `eventCreatedDateTime` bounds of GET /v2/events (`:gte`, `:gt`, `:lte`, `:lt`, `:eq`), canonical UTC. */
export interface TimeRange {
  gte?: string;
  gt?: string;
  lte?: string;
  lt?: string;
  eq?: string;
}

export const TIME_OPERATORS = ['gte', 'gt', 'lte', 'lt', 'eq'] as const;

/** What an event is matched on: its stored facts, its carrier and the shipments it is linked to. */
export interface MatchableEvent {
  facts: EventFacts;
  carrierCode: string;
  /** The linked shipments the subscriber may see (none: the event is not the subscriber's). */
  shipments: readonly { carrierBookingReference: string; billOfLadingNumber: string | null }[];
}

/** Whether an event passes every filter given (an event subscription's match; GET /v2/events does it in SQL). */
export function matchesEventFilter(filter: EventFilter, event: MatchableEvent): boolean {
  const f = event.facts;
  const inList = (list: readonly string[] | undefined, value: string | null) => !list || (value !== null && list.includes(value));
  const typed = (list: readonly string[] | undefined, type: EventFacts['eventType']) =>
    !list || (f.eventType === type && list.includes(f.typeCode));
  const equal = (wanted: string | undefined, value: string | null) => wanted === undefined || wanted === value;
  return (
    inList(filter.eventType, f.eventType) &&
    typed(filter.shipmentEventTypeCode, 'SHIPMENT') &&
    typed(filter.transportEventTypeCode, 'TRANSPORT') &&
    typed(filter.equipmentEventTypeCode, 'EQUIPMENT') &&
    inList(filter.documentTypeCode, f.documentTypeCode) &&
    equal(filter.transportCallID, f.transportCallID) &&
    equal(filter.vesselIMONumber, f.vesselIMONumber) &&
    equal(filter.exportVoyageNumber, f.exportVoyageNumber) &&
    equal(filter.carrierServiceCode, f.carrierServiceCode) &&
    (filter.UNLocationCode === undefined ||
      filter.UNLocationCode === f.callLocationCode ||
      filter.UNLocationCode === f.eventLocationCode) &&
    equal(filter.equipmentReference, f.equipmentReference) &&
    equal(filter.carrierCode, event.carrierCode) &&
    // Both given: one linked shipment has both (as GET /v2/events selects).
    event.shipments.some(
      (s) =>
        equal(filter.carrierBookingReference, s.carrierBookingReference) && equal(filter.transportDocumentReference, s.billOfLadingNumber),
    )
  );
}
