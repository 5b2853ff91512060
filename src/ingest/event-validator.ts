import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import {
  DOCUMENT_REFERENCE_TYPES,
  DOCUMENT_TYPE_CODES,
  EMPTY_INDICATOR_CODES,
  EQUIPMENT_EVENT_TYPE_CODES,
  EVENT_CLASSIFIER_CODES,
  FACILITY_CODE_LIST_PROVIDERS,
  FACILITY_TYPE_CODES,
  MODES_OF_TRANSPORT,
  SHIPMENT_EVENT_TYPE_CODES,
  TRANSPORT_EVENT_TYPE_CODES,
} from '../domain/code-lists.js';
import { explainInvalidContainerNumber } from '../domain/container-number.js';
import { correctedStandard, toJsonSchema } from '../domain/dcsa/dcsa-standard.js';
import { explainInvalidImoNumber } from '../domain/imo-number.js';
import { toUtcIso } from '../domain/timestamps.js';
import type { TrackingEvent } from '../domain/types.js';
import { normalizeEvent } from './event-schema.js';

/**
 * The per-event path of ingest: validators compiled by ajv from the DCSA 2.2
 * event schemas (the vendored standard with its known defects corrected,
 * src/domain/dcsa/dcsa-standard.ts), each joined with this service's stricter rules
 * (code lists, lengths, required fields the domain needs), then the rules
 * JSON Schema cannot say, as code (check digits, timestamps with offsets,
 * agreeing spellings), then normalization.
 *
 * An event this path accepts is stored as it normalizes. One it does not
 * accept goes to the explaining validator (src/ingest/event-schema.ts), which
 * names every problem with the event's index and field path, and which also
 * accepts null for a missing field, which a schema of the standard rejects. So the verdict is always the documented one, and the
 * equivalence (whatever this path accepts, the explaining validator accepts
 * as the same event) is a property test (test/event-validator.test.ts).
 */

type Json = Record<string, any>;

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UN_LOCATION_CODE = '^[A-Z]{2}[A-Z2-9]{3}$';
const INT32 = { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };

/** DCSA free text as the domain's pattern `^\S+(\s+\S+)*$` reads it: no leading or trailing whitespace. */
function text(maxLength: number): Json {
  return { type: 'string', minLength: 1, maxLength, pattern: '^\\S(?:[\\s\\S]*\\S)?$' };
}

const location: Json = {
  type: 'object',
  properties: {
    locationName: text(100),
    UNLocationCode: { type: 'string', pattern: UN_LOCATION_CODE },
    unLocationCode: { type: 'string', pattern: UN_LOCATION_CODE },
    facilityCode: text(6),
    facilityCodeListProvider: { enum: FACILITY_CODE_LIST_PROVIDERS },
    address: { type: 'object', properties: { name: text(100) } },
  },
};

const transportCall: Json = {
  type: 'object',
  required: ['modeOfTransport'],
  properties: {
    transportCallID: text(100),
    carrierServiceCode: text(5),
    carrierVoyageNumber: text(50),
    exportVoyageNumber: text(50),
    importVoyageNumber: text(50),
    transportCallSequenceNumber: INT32,
    UNLocationCode: { type: 'string', pattern: UN_LOCATION_CODE },
    unLocationCode: { type: 'string', pattern: UN_LOCATION_CODE },
    facilityCode: text(6),
    facilityCodeListProvider: { enum: FACILITY_CODE_LIST_PROVIDERS },
    facilityTypeCode: { enum: FACILITY_TYPE_CODES },
    modeOfTransport: { enum: MODES_OF_TRANSPORT },
    location,
    // DCSA makes the name optional; the spec's Vessel always carries it.
    vessel: {
      type: 'object',
      required: ['vesselIMONumber', 'vesselName'],
      properties: { vesselIMONumber: { type: 'string' }, vesselName: text(35) },
    },
  },
};

const base: Json = {
  type: 'object',
  required: ['eventID', 'eventCreatedDateTime', 'eventDateTime', 'eventClassifierCode', 'eventType'],
  properties: {
    eventID: { type: 'string', pattern: UUID },
    eventCreatedDateTime: { type: 'string' },
    eventDateTime: { type: 'string' },
    eventClassifierCode: { enum: EVENT_CLASSIFIER_CODES },
    documentReferences: {
      type: 'array',
      items: {
        type: 'object',
        required: ['documentReferenceType', 'documentReferenceValue'],
        properties: { documentReferenceType: { enum: DOCUMENT_REFERENCE_TYPES }, documentReferenceValue: text(100) },
      },
    },
  },
};

/** This service's rules by eventType, joined with the standard's schema of that type. */
const OWN_RULES: Record<TrackingEvent['eventType'], { standard: string; rules: Json }> = {
  SHIPMENT: {
    standard: 'shipmentEvent',
    rules: {
      required: ['documentID', 'documentTypeCode', 'shipmentEventTypeCode'],
      properties: {
        documentID: text(100),
        documentTypeCode: { enum: DOCUMENT_TYPE_CODES },
        shipmentEventTypeCode: { enum: SHIPMENT_EVENT_TYPE_CODES },
      },
    },
  },
  TRANSPORT: {
    standard: 'transportEvent',
    rules: {
      required: ['transportEventTypeCode', 'transportCall'],
      properties: { transportEventTypeCode: { enum: TRANSPORT_EVENT_TYPE_CODES }, transportCall },
    },
  },
  EQUIPMENT: {
    standard: 'equipmentEvent',
    rules: {
      // DCSA makes equipmentReference optional: an equipment event without a container tracks nothing.
      required: ['equipmentEventTypeCode', 'equipmentReference', 'emptyIndicatorCode'],
      properties: {
        equipmentEventTypeCode: { enum: EQUIPMENT_EVENT_TYPE_CODES },
        equipmentReference: { type: 'string' },
        emptyIndicatorCode: { enum: EMPTY_INDICATOR_CODES },
        eventLocation: location,
        transportCall,
      },
    },
  },
};

const STANDARD_ID = 'urn:dcsa:tnt:2.2.0';

/** By eventType; a Map, so that no eventType (`constructor`, `hasOwnProperty`) finds Object.prototype's members. */
let compiled: Map<string, ValidateFunction> | undefined;

/** Compiled on first use: commands that never ingest (`--help`, lookups) do not pay for it. */
function validators(): Map<string, ValidateFunction> {
  if (compiled) return compiled;
  const standard = correctedStandard();
  // The one deviation ingest documents (README: Loading data): events in the spec's own format carry no
  // transportCallID, which 2.2 requires of a call. Everything else of the standard applies as published.
  const call = standard.components.schemas.transportCall as Json;
  call.required = (call.required as string[]).filter((field) => field !== 'transportCallID');
  // `unicode: false`: lengths in UTF-16 code units, as String.length and the explaining validator count them
  // (ajv calls the option deprecated but honours it; `logger: false` keeps that notice out of the service's output).
  // Formats are not checked here: timestamps are checked (and normalized) as code below, more strictly.
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false, unicode: false, logger: false });
  ajv.addSchema({
    $id: STANDARD_ID,
    components: { schemas: toJsonSchema(standard.components.schemas, `${STANDARD_ID}#/components/schemas/`) },
  });
  compiled = new Map();
  for (const [eventType, { standard: name, rules }] of Object.entries(OWN_RULES)) {
    compiled.set(eventType, ajv.compile({ allOf: [{ $ref: `${STANDARD_ID}#/components/schemas/${name}` }, base, rules] }));
  }
  return compiled;
}

/**
 * The event, normalized, when the compiled validators and the code rules
 * accept it; undefined when they do not (the caller then asks the explaining
 * validator, which decides and says why).
 */
export function acceptEvent(raw: unknown): TrackingEvent | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const event = raw as Json;
  const validate = typeof event.eventType === 'string' ? validators().get(event.eventType) : undefined;
  if (!validate?.(raw)) return undefined;
  const eventDateTime = toUtcIso(event.eventDateTime);
  const eventCreatedDateTime = toUtcIso(event.eventCreatedDateTime);
  if (eventDateTime === null || eventCreatedDateTime === null) return undefined;
  if (event.eventType === 'EQUIPMENT') {
    if (explainInvalidContainerNumber(event.equipmentReference)) return undefined;
    if (event.eventLocation && !spellingsAgree(event.eventLocation)) return undefined;
  }
  if (event.transportCall && !transportCallHolds(event.transportCall)) return undefined;
  // normalizeEvent copies field by field into a new object; these three take their normalized values there.
  const normalized = normalizeEvent(event as never) as Json;
  normalized.eventID = event.eventID.toLowerCase();
  normalized.eventDateTime = eventDateTime;
  normalized.eventCreatedDateTime = eventCreatedDateTime;
  return normalized as TrackingEvent;
}

function spellingsAgree(place: Json): boolean {
  return place.UNLocationCode === undefined || place.unLocationCode === undefined || place.UNLocationCode === place.unLocationCode;
}

/** The call's own rules: a valid IMO number, agreeing spellings, and a UN/LOCODE on the call or its location. */
function transportCallHolds(call: Json): boolean {
  if (call.vessel && explainInvalidImoNumber(call.vessel.vesselIMONumber)) return false;
  if (!spellingsAgree(call) || (call.location && !spellingsAgree(call.location))) return false;
  return (call.UNLocationCode ?? call.unLocationCode ?? call.location?.UNLocationCode ?? call.location?.unLocationCode) !== undefined;
}
