import {
  DOCUMENT_TYPE_CODE_LIST,
  EQUIPMENT_EVENT_TYPE_CODE_LIST,
  FACILITY_TYPE_CODE_LIST,
  SHIPMENT_EVENT_TYPE_CODE_LIST,
  TRANSPORT_EVENT_TYPE_CODE_LIST,
} from '../code-lists.js';
import { transportCallKey } from '../milestones.js';
import type { TrackingEvent, TransportCall } from '../types.js';

/**
 * Stored events as this service publishes them in DCSA Track & Trace 2.2 (README: Consuming the service as a
 * DCSA publisher): which events the 2.2 schema can carry, the attributes its filters select on, and the 2.2
 * spelling of an event.
 */

/** The code lists of the 2.2 OpenAPI enums (the DCSA reference data, which ingest accepts, is wider). */
export const DCSA22_SHIPMENT_EVENT_TYPE_CODES = codes(SHIPMENT_EVENT_TYPE_CODE_LIST, ['PENC', 'CANC']);
export const DCSA22_EQUIPMENT_EVENT_TYPE_CODES = codes(EQUIPMENT_EVENT_TYPE_CODE_LIST, ['AVPU', 'AVDO', 'CUSS', 'CUSI', 'CUSR', 'WAYP']);
export const DCSA22_TRANSPORT_EVENT_TYPE_CODES = codes(TRANSPORT_EVENT_TYPE_CODE_LIST, []);
export const DCSA22_DOCUMENT_TYPE_CODES = codes(DOCUMENT_TYPE_CODE_LIST, ['DEI', 'DEO', 'TRO', 'CRO', 'CUC', 'CQU', 'INV']);
const DCSA22_FACILITY_TYPE_CODES = new Set(codes(FACILITY_TYPE_CODE_LIST, ['PBPL', 'BRTH', 'ANCH']));

function codes(list: Readonly<Record<string, string>>, notIn22: readonly string[]): readonly string[] {
  return Object.keys(list).filter((code) => !notIn22.includes(code));
}

/**
 * Whether the event can be published as a valid 2.2 event: every code it carries is in the 2.2 enums. Codes of
 * the DCSA reference data that 2.2 lacks (a cancelled booking, a customs selection, a berth) are kept and served
 * by the lookup, but left out of /v2/events and event subscriptions rather than sent invalid.
 */
export function isDcsa22Publishable(event: TrackingEvent): boolean {
  const callOk = (call: TransportCall | undefined) => !call?.facilityTypeCode || DCSA22_FACILITY_TYPE_CODES.has(call.facilityTypeCode);
  switch (event.eventType) {
    case 'SHIPMENT':
      return (
        DCSA22_SHIPMENT_EVENT_TYPE_CODES.includes(event.shipmentEventTypeCode) &&
        DCSA22_DOCUMENT_TYPE_CODES.includes(event.documentTypeCode)
      );
    case 'TRANSPORT':
      return DCSA22_TRANSPORT_EVENT_TYPE_CODES.includes(event.transportEventTypeCode) && callOk(event.transportCall);
    case 'EQUIPMENT':
      return DCSA22_EQUIPMENT_EVENT_TYPE_CODES.includes(event.equipmentEventTypeCode) && callOk(event.transportCall);
  }
}

/**
 * The 2.2 `transportCallID` of a call: the carrier's, or, when it sent none (2.2 requires one), the call's
 * identity as the snapshot rules key it (docs/architecture.md, Snapshot rules): `at/<UN/LOCODE>/<sequence
 * number>/<IMO number or mode of transport>`. A consumer that keys calls by transportCallID therefore groups the
 * versions of a call exactly as this service does, and in the same order.
 */
export function dcsaTransportCallID(call: TransportCall): string {
  return call.transportCallID ?? transportCallKey(call);
}

/** What the filters of GET /v2/events and of event subscriptions select an event by (stored with it). */
export interface EventFacts {
  eventType: TrackingEvent['eventType'];
  /** shipmentEventTypeCode, transportEventTypeCode or equipmentEventTypeCode: each event has one of them. */
  typeCode: string;
  documentTypeCode: string | null;
  transportCallID: string | null;
  vesselIMONumber: string | null;
  exportVoyageNumber: string | null;
  carrierServiceCode: string | null;
  /** The transport call's UN/LOCODE. */
  callLocationCode: string | null;
  /** An equipment event's eventLocation UN/LOCODE. */
  eventLocationCode: string | null;
  equipmentReference: string | null;
  publishable: boolean;
}

export function eventFacts(event: TrackingEvent): EventFacts {
  const call = event.eventType === 'SHIPMENT' ? undefined : event.transportCall;
  return {
    eventType: event.eventType,
    typeCode:
      event.eventType === 'SHIPMENT'
        ? event.shipmentEventTypeCode
        : event.eventType === 'TRANSPORT'
          ? event.transportEventTypeCode
          : event.equipmentEventTypeCode,
    documentTypeCode: event.eventType === 'SHIPMENT' ? event.documentTypeCode : null,
    transportCallID: call ? dcsaTransportCallID(call) : null,
    vesselIMONumber: call?.vessel?.vesselIMONumber ?? null,
    exportVoyageNumber: call?.exportVoyageNumber ?? null,
    carrierServiceCode: call?.carrierServiceCode ?? null,
    callLocationCode: call?.unLocationCode ?? null,
    eventLocationCode: event.eventType === 'EQUIPMENT' ? (event.eventLocation?.unLocationCode ?? null) : null,
    equipmentReference: event.eventType === 'EQUIPMENT' ? event.equipmentReference : null,
    publishable: isDcsa22Publishable(event),
  };
}

type Json = Record<string, unknown>;

/**
 * Keys renamed on the way out: the 2.2 spelling of the UN/LOCODE, and the alias under which the fixed document
 * selects an equipment event's transportCall (GraphQL cannot merge it with a transport event's, which is non-null).
 */
const RENAMED: Record<string, string> = { unLocationCode: 'UNLocationCode', equipmentTransportCall: 'transportCall' };

/**
 * An event as GraphQL answers it (spec spelling, null for absent fields) in DCSA 2.2 spelling: absent fields
 * left out, `unLocationCode` written `UNLocationCode` wherever it occurs. Field order as the 2.2 schemas list it.
 */
export function toDcsaEvent(event: Json): Json {
  return present(event) as Json;
}

function present(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(present);
  const out: Json = {};
  for (const [key, v] of Object.entries(value as Json)) {
    if (v === null || v === undefined || key === '__typename') continue;
    out[RENAMED[key] ?? key] = present(v);
  }
  return out;
}
