import { z } from 'zod';
import type {
  DocumentReference,
  EquipmentEvent,
  Location,
  ShipmentEvent,
  TrackingEvent,
  TransportCall,
  TransportEvent,
  Vessel,
} from '../domain/types.js';
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
import {
  containerNumber,
  dcsaText,
  eventId,
  evenWhenFieldsFail,
  imoNumber,
  isRecord,
  optional,
  presentFields,
  timestamp,
  unLocationCode,
} from './field-schemas.js';

/**
 * DCSA Track & Trace 2.2 events as carriers publish them, and equally in the
 * spec's spelling, validated and normalized to the domain types (spec
 * spelling, UTC timestamps).
 *
 * @NOTE DCSA objects are open: fields this service does not model
 * (delayReasonCode, changeRemark, seals, references, latitude, deprecated
 * eventTypeCode, ...) are accepted and dropped, because rejecting them would
 * reject valid 2.2 events. Our own bundle format (shipments, references) is
 * strict instead.
 */

/**
 * The only field whose spelling differs: DCSA `UNLocationCode`, spec
 * `unLocationCode`. Either is accepted; both at once must agree.
 */
const unLocationCodeSpellings = {
  UNLocationCode: optional(unLocationCode),
  unLocationCode: optional(unLocationCode),
};

export function spellingsAgree(raw: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const dcsa = raw.UNLocationCode;
  const spec = raw.unLocationCode;
  if (typeof dcsa === 'string' && typeof spec === 'string' && dcsa !== spec) {
    ctx.addIssue({
      code: 'custom',
      path: ['UNLocationCode'],
      message: `"${dcsa}" conflicts with unLocationCode "${spec}"; send one spelling`,
    });
  }
}

export const locationShape = {
  locationName: optional(dcsaText(100)),
  ...unLocationCodeSpellings,
  facilityCode: optional(dcsaText(6)),
  facilityCodeListProvider: optional(z.enum(FACILITY_CODE_LIST_PROVIDERS)),
};

const dcsaLocation = z
  .object({ ...locationShape, address: optional(z.object({ name: optional(dcsaText(100)) })) })
  .superRefine((raw, ctx) => spellingsAgree(raw, ctx), evenWhenFieldsFail);

type RawLocation = z.output<typeof dcsaLocation>;

const vessel = z.object({
  vesselIMONumber: imoNumber,
  // DCSA makes the name optional, but the spec's Vessel (and its GraphQL type) always carries it.
  vesselName: dcsaText(35),
});

function locationCodeOf(raw: unknown): unknown {
  return isRecord(raw) ? (raw.UNLocationCode ?? raw.unLocationCode) : undefined;
}

const transportCall = z
  .object({
    transportCallID: optional(dcsaText(100)),
    carrierServiceCode: optional(dcsaText(5)),
    // Deprecated in 2.2: the export voyage when only one voyage is given.
    carrierVoyageNumber: optional(dcsaText(50)),
    exportVoyageNumber: optional(dcsaText(50)),
    importVoyageNumber: optional(dcsaText(50)),
    transportCallSequenceNumber: optional(z.int32()),
    ...unLocationCodeSpellings,
    facilityCode: optional(dcsaText(6)),
    facilityCodeListProvider: optional(z.enum(FACILITY_CODE_LIST_PROVIDERS)),
    facilityTypeCode: optional(z.enum(FACILITY_TYPE_CODES)),
    modeOfTransport: z.enum(MODES_OF_TRANSPORT),
    location: optional(dcsaLocation),
    vessel: optional(vessel),
  })
  .superRefine((raw, ctx) => {
    spellingsAgree(raw, ctx);
    // DCSA allows the UN/LOCODE on the call or only on its location; the
    // domain needs it to place the call (etd/eta, milestones).
    if ((locationCodeOf(raw) ?? locationCodeOf(raw.location)) == null) {
      ctx.addIssue({
        code: 'custom',
        path: ['unLocationCode'],
        message: 'is required: give the UN/LOCODE as UNLocationCode or unLocationCode, on the call or its location',
      });
    }
  }, evenWhenFieldsFail);

const documentReference = z.object({
  documentReferenceType: z.enum(DOCUMENT_REFERENCE_TYPES),
  // 2.2 sets no length and its own example carries a UUID here; 100 is the DCSA referenceValue length.
  documentReferenceValue: dcsaText(100),
});

const eventBase = {
  eventID: eventId,
  eventCreatedDateTime: timestamp,
  eventDateTime: timestamp,
  eventClassifierCode: z.enum(EVENT_CLASSIFIER_CODES),
  documentReferences: optional(z.array(documentReference)),
};

const shipmentEvent = z.object({
  ...eventBase,
  eventType: z.literal('SHIPMENT'),
  documentID: dcsaText(100),
  documentTypeCode: z.enum(DOCUMENT_TYPE_CODES),
  shipmentEventTypeCode: z.enum(SHIPMENT_EVENT_TYPE_CODES),
});

const transportEvent = z.object({
  ...eventBase,
  eventType: z.literal('TRANSPORT'),
  transportEventTypeCode: z.enum(TRANSPORT_EVENT_TYPE_CODES),
  transportCall,
});

const equipmentEvent = z.object({
  ...eventBase,
  eventType: z.literal('EQUIPMENT'),
  equipmentEventTypeCode: z.enum(EQUIPMENT_EVENT_TYPE_CODES),
  // Optional in DCSA 2.2, required here: an equipment event without a container tracks nothing.
  equipmentReference: containerNumber,
  emptyIndicatorCode: z.enum(EMPTY_INDICATOR_CODES),
  eventLocation: optional(dcsaLocation),
  transportCall: optional(transportCall),
});

/** One event of a bundle, validated and normalized to the domain's TrackingEvent. */
export const trackingEvent = z.discriminatedUnion('eventType', [shipmentEvent, transportEvent, equipmentEvent]).transform(normalizeEvent);

type RawEvent = z.output<typeof shipmentEvent> | z.output<typeof transportEvent> | z.output<typeof equipmentEvent>;

/** A Location in spec spelling, or undefined when nothing of it is given. */
export function normalizeLocation(raw: RawLocation): Location | undefined {
  const location: Location = presentFields({
    locationName: raw.locationName,
    unLocationCode: raw.unLocationCode ?? raw.UNLocationCode,
    facilityCode: raw.facilityCode,
    facilityCodeListProvider: raw.facilityCodeListProvider,
    // The spec's Address carries only a name; DCSA street fields are dropped.
    address: raw.address?.name != null ? { name: raw.address.name } : undefined,
  });
  return Object.keys(location).length > 0 ? location : undefined;
}

function normalizeTransportCall(raw: z.output<typeof transportCall>): TransportCall {
  const location = raw.location ? normalizeLocation(raw.location) : undefined;
  const vesselValue: Vessel | undefined = raw.vessel
    ? { vesselName: raw.vessel.vesselName, vesselIMONumber: raw.vessel.vesselIMONumber }
    : undefined;
  return presentFields({
    transportCallID: raw.transportCallID,
    carrierServiceCode: raw.carrierServiceCode,
    vessel: vesselValue,
    location,
    facilityCode: raw.facilityCode,
    // The superRefine guarantees one of these.
    unLocationCode: (raw.unLocationCode ?? raw.UNLocationCode ?? location?.unLocationCode) as string,
    modeOfTransport: raw.modeOfTransport,
    facilityTypeCode: raw.facilityTypeCode,
    exportVoyageNumber: raw.exportVoyageNumber ?? raw.carrierVoyageNumber,
    importVoyageNumber: raw.importVoyageNumber,
    facilityCodeListProvider: raw.facilityCodeListProvider,
    transportCallSequenceNumber: raw.transportCallSequenceNumber,
  });
}

function normalizeDocumentReferences(raw: RawEvent['documentReferences']): DocumentReference[] | undefined {
  return raw?.map((r) => ({ documentReferenceType: r.documentReferenceType, documentReferenceValue: r.documentReferenceValue }));
}

/**
 * The event in the domain's key order, without absent fields (as
 * presentFields would give it; built field by field because this runs for
 * every event of every bundle and the spread-then-copy doubled its cost).
 */
export function normalizeEvent(raw: RawEvent): TrackingEvent {
  const event: Record<string, unknown> = {
    eventID: raw.eventID,
    eventDateTime: raw.eventDateTime,
    eventCreatedDateTime: raw.eventCreatedDateTime,
    eventClassifierCode: raw.eventClassifierCode,
    eventType: raw.eventType,
  };
  const documentReferences = normalizeDocumentReferences(raw.documentReferences);
  if (documentReferences != null) event.documentReferences = documentReferences;
  switch (raw.eventType) {
    case 'SHIPMENT':
      event.documentID = raw.documentID;
      event.documentTypeCode = raw.documentTypeCode;
      event.shipmentEventTypeCode = raw.shipmentEventTypeCode;
      return event as unknown as ShipmentEvent;
    case 'TRANSPORT':
      event.transportCall = normalizeTransportCall(raw.transportCall);
      event.transportEventTypeCode = raw.transportEventTypeCode;
      return event as unknown as TransportEvent;
    case 'EQUIPMENT': {
      const eventLocation = raw.eventLocation ? normalizeLocation(raw.eventLocation) : undefined;
      if (eventLocation != null) event.eventLocation = eventLocation;
      if (raw.transportCall) event.transportCall = normalizeTransportCall(raw.transportCall);
      event.emptyIndicatorCode = raw.emptyIndicatorCode;
      event.equipmentReference = raw.equipmentReference;
      event.equipmentEventTypeCode = raw.equipmentEventTypeCode;
      return event as unknown as EquipmentEvent;
    }
  }
}
