import {
  DOCUMENT_REFERENCE_TYPE_LIST,
  DOCUMENT_TYPE_CODE_LIST,
  EMPTY_INDICATOR_CODE_LIST,
  EQUIPMENT_EVENT_TYPE_CODE_LIST,
  EVENT_CLASSIFIER_CODE_LIST,
  FACILITY_CODE_LIST_PROVIDER_LIST,
  FACILITY_TYPE_CODE_LIST,
  MODE_OF_TRANSPORT_LIST,
  SHIPMENT_EVENT_TYPE_CODE_LIST,
  TRANSPORT_EVENT_TYPE_CODE_LIST,
} from './code-lists.js';
import {
  EXCEPTION_CATEGORY_LIST,
  EXCEPTION_STATUS_LIST,
  EXCEPTION_TYPE_LIST,
  RESOLUTION_TYPE_LIST,
  SEVERITY_LIST,
} from './enumerations.js';
import { ALWAYS_CARRIED, NULLS_KEPT_UNDER } from './rest-nulls.js';
import type { SnapshotTrackingParts } from './snapshot.js';
import {
  CONTAINER_DATE_REFERENCE_KEYS,
  CONTAINER_STRING_REFERENCE_KEYS,
  SHIPMENT_DATE_REFERENCE_KEYS,
  SHIPMENT_STRING_REFERENCE_KEYS,
  type ShipmentMaster,
  type TrackingException,
} from './types.js';

/**
 * REST's `shipmentTracking` as JSON text, computed from a shipment's stored state alone: the text
 * GET /v2/shipments serves for it (src/executor/shipment-rendering.ts runs the lookup document, omits the
 * absent nulls and serializes). Written with the stored snapshot, so that a first lookup serves it as stored,
 * without parsing, walking and serializing again (docs/architecture.md, Snapshot rules).
 *
 * Every field under `shipmentTracking` is a function of what is stored at one version: the master data, the
 * row's etd/eta (derived at ingest), the snapshot's tracking parts and its exceptions. None reads the caller or
 * the clock (the transmission header does, and is not part of this). This function follows the lookup
 * document's selection (src/executor/shipment-document.ts) field by field, in its order, with the schema's
 * serialization of each field (strings, enums from the code lists, canonical UTC timestamps, integers) and
 * REST's omission of absent nulls (rest-nulls.ts). test/rest-tracking.test.ts holds the two equal, byte for
 * byte, over generated shipments.
 *
 * It is exact or silent: where the schema would answer anything other than the stored value itself (a value
 * it would convert, or refuse with an error), it returns undefined, and the lookup renders through the
 * executor as before.
 *
 * REST_TRACKING_FORM names this rendering: a change of the selection or of a serialization rule changes it,
 * so that renderings stored before are no longer served (stored-snapshots.ts).
 */
export const REST_TRACKING_FORM = 1;

/** The parts of a shipment's state the rendering reads. */
export interface RestTrackingInput {
  master: ShipmentMaster;
  etd: string | null;
  eta: string | null;
  tracking: SnapshotTrackingParts;
  exceptions: readonly TrackingException[];
}

export function restTrackingJson(input: RestTrackingInput): string | undefined {
  try {
    return JSON.stringify(shipmentTracking(input));
  } catch (err) {
    if (err instanceof NotVerbatim) return undefined;
    throw err;
  }
}

/** The schema would not serve the stored value as it is. */
class NotVerbatim extends Error {}

type Out = Record<string, unknown>;
type Value = unknown;

const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A field's value as REST keeps it: an absent (null) value is left out unless REST carries its null. */
function put(out: Out, key: string, value: Value, keepNulls = false): void {
  if (value === null) {
    if (keepNulls || ALWAYS_CARRIED.has(key)) out[key] = null;
  } else {
    out[key] = value;
  }
}

function record(value: Value, nullable: boolean): Record<string, unknown> | null {
  if (value === undefined || value === null) {
    if (nullable) return null;
    throw new NotVerbatim();
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw new NotVerbatim();
  return value as Record<string, unknown>;
}

function string(value: Value, nullable = false): string | null {
  if (value === undefined || value === null) {
    if (nullable) return null;
    throw new NotVerbatim();
  }
  if (typeof value !== 'string') throw new NotVerbatim();
  return value;
}

function enumValue(list: Readonly<Record<string, string>>, value: Value, nullable = false): string | null {
  const s = string(value, nullable);
  if (s !== null && !Object.hasOwn(list, s)) throw new NotVerbatim();
  return s;
}

function dateTime(value: Value, nullable = false): string | null {
  const s = string(value, nullable);
  if (s !== null && !CANONICAL_UTC.test(s)) throw new NotVerbatim();
  return s;
}

function int(value: Value): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value > 2147483647 || value < -2147483648) throw new NotVerbatim();
  return value;
}

function float(value: Value): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new NotVerbatim();
  return value;
}

function list<T>(value: Value, item: (v: Value) => T, nullable = false): T[] | null {
  if (value === undefined || value === null) {
    if (nullable) return null;
    throw new NotVerbatim();
  }
  if (!Array.isArray(value)) throw new NotVerbatim();
  return value.map(item);
}

/** `locationName unLocationCode facilityCode facilityCodeListProvider address { name }` */
function location(value: Value): Out | null {
  const l = record(value, true);
  if (l === null) return null;
  const out: Out = {};
  put(out, 'locationName', string(l.locationName, true));
  put(out, 'unLocationCode', string(l.unLocationCode, true));
  put(out, 'facilityCode', string(l.facilityCode, true));
  put(out, 'facilityCodeListProvider', enumValue(FACILITY_CODE_LIST_PROVIDER_LIST, l.facilityCodeListProvider, true));
  const a = record(l.address, true);
  put(out, 'address', a === null ? null : { name: string(a.name) });
  return out;
}

function transportCall(value: Value, nullable: boolean): Out | null {
  const c = record(value, nullable);
  if (c === null) return null;
  const out: Out = {};
  const v = record(c.vessel, true);
  put(out, 'vessel', v === null ? null : { vesselName: string(v.vesselName), vesselIMONumber: string(v.vesselIMONumber) });
  put(out, 'location', location(c.location));
  put(out, 'facilityCode', string(c.facilityCode, true));
  put(out, 'unLocationCode', string(c.unLocationCode));
  put(out, 'modeOfTransport', enumValue(MODE_OF_TRANSPORT_LIST, c.modeOfTransport));
  put(out, 'facilityTypeCode', enumValue(FACILITY_TYPE_CODE_LIST, c.facilityTypeCode, true));
  put(out, 'exportVoyageNumber', string(c.exportVoyageNumber, true));
  put(out, 'importVoyageNumber', string(c.importVoyageNumber, true));
  put(out, 'facilityCodeListProvider', enumValue(FACILITY_CODE_LIST_PROVIDER_LIST, c.facilityCodeListProvider, true));
  put(out, 'transportCallSequenceNumber', int(c.transportCallSequenceNumber));
  return out;
}

/** `eventID eventType eventDateTime eventCreatedDateTime eventClassifierCode`, of an event of `type`. */
function eventFields(e: Record<string, unknown>, type: string): Out {
  // The list's object type accepts only events of its own type (isTypeOf).
  if (e.eventType !== type) throw new NotVerbatim();
  const out: Out = {};
  put(out, 'eventID', string(e.eventID));
  put(out, 'eventType', type);
  put(out, 'eventDateTime', dateTime(e.eventDateTime));
  put(out, 'eventCreatedDateTime', dateTime(e.eventCreatedDateTime));
  put(out, 'eventClassifierCode', enumValue(EVENT_CLASSIFIER_CODE_LIST, e.eventClassifierCode));
  return out;
}

function documentReferences(out: Out, value: Value): void {
  put(
    out,
    'documentReferences',
    list(
      value,
      (r) => {
        const ref = record(r, false)!;
        return {
          documentReferenceType: enumValue(DOCUMENT_REFERENCE_TYPE_LIST, ref.documentReferenceType),
          documentReferenceValue: string(ref.documentReferenceValue),
        };
      },
      true,
    ),
  );
}

function shipmentEvent(value: Value): Out {
  const e = record(value, false)!;
  const out = eventFields(e, 'SHIPMENT');
  documentReferences(out, e.documentReferences);
  put(out, 'documentID', string(e.documentID));
  put(out, 'documentTypeCode', enumValue(DOCUMENT_TYPE_CODE_LIST, e.documentTypeCode));
  put(out, 'shipmentEventTypeCode', enumValue(SHIPMENT_EVENT_TYPE_CODE_LIST, e.shipmentEventTypeCode));
  return out;
}

function transportEvent(value: Value): Out {
  const e = record(value, false)!;
  const out = eventFields(e, 'TRANSPORT');
  documentReferences(out, e.documentReferences);
  put(out, 'transportCall', transportCall(e.transportCall, false));
  put(out, 'transportEventTypeCode', enumValue(TRANSPORT_EVENT_TYPE_CODE_LIST, e.transportEventTypeCode));
  return out;
}

/** The lookup document's EquipmentEventFields fragment (no documentReferences). */
function equipmentEvent(value: Value, nullable: boolean): Out | null {
  const e = record(value, nullable);
  if (e === null) return null;
  const out = eventFields(e, 'EQUIPMENT');
  put(out, 'eventLocation', location(e.eventLocation));
  put(out, 'transportCall', transportCall(e.transportCall, true));
  put(out, 'emptyIndicatorCode', enumValue(EMPTY_INDICATOR_CODE_LIST, e.emptyIndicatorCode));
  put(out, 'equipmentReference', string(e.equipmentReference));
  put(out, 'equipmentEventTypeCode', enumValue(EQUIPMENT_EVENT_TYPE_CODE_LIST, e.equipmentEventTypeCode));
  return out;
}

/** A `references` object: string keys ('' when unset), date keys (null when unset, and the null is kept). */
function references(value: Value, stringKeys: readonly string[], dateKeys: readonly string[]): Out {
  const refs = record(value, false)!;
  const out: Out = {};
  for (const key of stringKeys) put(out, key, string(refs[key] ?? ''));
  for (const key of dateKeys) put(out, key, dateTime(refs[key], true), true);
  return out;
}

function container(value: Value): Out {
  const c = record(value, false)!;
  const out: Out = {};
  put(out, 'containerNumber', string(c.containerNumber));
  put(out, 'isoType', string(c.isoType, true));
  put(out, NULLS_KEPT_UNDER, references(c.references, CONTAINER_STRING_REFERENCE_KEYS, CONTAINER_DATE_REFERENCE_KEYS));
  put(out, 'latestEvent', equipmentEvent(c.latestEvent, true));
  put(
    out,
    'eventHistory',
    list(c.eventHistory, (e) => equipmentEvent(e, false)),
  );
  return out;
}

function exception(value: Value): Out {
  const x = record(value, false)!;
  const out: Out = {};
  put(out, 'exceptionID', string(x.exceptionID));
  put(out, 'exceptionType', enumValue(EXCEPTION_TYPE_LIST, x.exceptionType));
  put(out, 'exceptionCategory', enumValue(EXCEPTION_CATEGORY_LIST, x.exceptionCategory));
  put(out, 'severity', enumValue(SEVERITY_LIST, x.severity));
  put(out, 'status', enumValue(EXCEPTION_STATUS_LIST, x.status));
  put(out, 'detectedDateTime', dateTime(x.detectedDateTime));
  put(out, 'resolvedDateTime', dateTime(x.resolvedDateTime, true));
  put(out, 'resolutionType', enumValue(RESOLUTION_TYPE_LIST, x.resolutionType, true));
  put(out, 'resolutionNote', string(x.resolutionNote, true));
  put(out, 'title', string(x.title));
  put(out, 'description', string(x.description));
  put(out, 'relatedEventID', string(x.relatedEventID, true));
  put(
    out,
    'affectedContainers',
    list(x.affectedContainers, (c) => string(c)),
  );
  const impact = record(x.impact, true);
  if (impact !== null) {
    const i: Out = {};
    put(i, 'field', string(impact.field));
    put(i, 'previousValue', string(impact.previousValue));
    put(i, 'revisedValue', string(impact.revisedValue));
    put(i, 'delayHours', float(impact.delayHours));
    put(out, 'impact', i);
  }
  put(out, 'recommendedAction', string(x.recommendedAction));
  return out;
}

/** The lookup document's ShipmentTracking selection (SHIPMENT_TRACKING_SELECTION), in its order. */
function shipmentTracking({ master, etd, eta, tracking, exceptions }: RestTrackingInput): Out {
  const m = record(master, false)!;
  const out: Out = {};
  put(out, 'bookingReference', string(m.bookingReference, true));
  put(out, 'carrierBookingReference', string(m.carrierBookingReference));
  put(out, 'billOfLadingNumber', string(m.billOfLadingNumber, true));
  put(out, 'carrierCode', string(m.carrierCode));
  put(out, 'carrierName', string(m.carrierName, true));
  put(out, 'vesselName', string(m.vesselName, true));
  put(out, 'voyageNumber', string(m.voyageNumber, true));
  put(out, 'portOfLoading', location(m.portOfLoading));
  put(out, 'portOfDischarge', location(m.portOfDischarge));
  put(out, 'placeOfReceipt', location(m.placeOfReceipt));
  put(out, 'placeOfDelivery', location(m.placeOfDelivery));
  put(out, 'serviceType', string(m.serviceType, true));
  put(out, 'etd', dateTime(etd, true));
  put(out, 'eta', dateTime(eta, true));
  put(out, NULLS_KEPT_UNDER, references(m.references, SHIPMENT_STRING_REFERENCE_KEYS, SHIPMENT_DATE_REFERENCE_KEYS));
  put(out, 'shipmentEvents', list(tracking.shipmentEvents, shipmentEvent));
  put(out, 'transportEvents', list(tracking.transportEvents, transportEvent));
  put(out, 'containers', list(tracking.containers, container));
  put(out, 'exceptions', list(exceptions, exception));
  return out;
}
