/**
 * The tracking domain in the spec's own vocabulary (spec section 2).
 * Plain data only: these shapes are what ingest stores, what the domain
 * functions compute over and what GraphQL/REST serve.
 *
 * Timestamps are ISO 8601 UTC strings in the canonical form
 * `YYYY-MM-DDTHH:mm:ss.sssZ` (see `toUtcIso`), so that they compare correctly
 * as strings.
 */

export type EventClassifierCode = 'ACT' | 'EST' | 'PLN';
export type EventType = 'SHIPMENT' | 'TRANSPORT' | 'EQUIPMENT';
export type FacilityCodeListProvider = 'BIC' | 'SMDG';

export interface Address {
  name: string;
}

export interface Location {
  locationName?: string;
  unLocationCode?: string;
  facilityCode?: string;
  facilityCodeListProvider?: FacilityCodeListProvider;
  address?: Address;
}

export interface Vessel {
  vesselName: string;
  vesselIMONumber: string;
}

export interface TransportCall {
  /** DCSA transportCallID, kept to identify versions of the same call; not served. */
  transportCallID?: string;
  /** DCSA carrierServiceCode: the service the call belongs to (GET /v2/events filters by it). */
  carrierServiceCode?: string;
  vessel?: Vessel;
  location?: Location;
  facilityCode?: string;
  unLocationCode: string;
  modeOfTransport: string;
  facilityTypeCode?: string;
  exportVoyageNumber?: string;
  importVoyageNumber?: string;
  facilityCodeListProvider?: FacilityCodeListProvider;
  transportCallSequenceNumber?: number;
}

export interface DocumentReference {
  documentReferenceType: string;
  documentReferenceValue: string;
}

interface EventBase {
  eventID: string;
  eventDateTime: string;
  eventCreatedDateTime: string;
  eventClassifierCode: EventClassifierCode;
}

export interface ShipmentEvent extends EventBase {
  eventType: 'SHIPMENT';
  documentReferences?: DocumentReference[];
  documentID: string;
  documentTypeCode: string;
  shipmentEventTypeCode: string;
}

export interface TransportEvent extends EventBase {
  eventType: 'TRANSPORT';
  documentReferences?: DocumentReference[];
  transportCall: TransportCall;
  transportEventTypeCode: 'ARRI' | 'DEPA' | string;
}

export interface EquipmentEvent extends EventBase {
  eventType: 'EQUIPMENT';
  documentReferences?: DocumentReference[];
  eventLocation?: Location;
  transportCall?: TransportCall;
  emptyIndicatorCode: 'LADEN' | 'EMPTY';
  equipmentReference: string;
  equipmentEventTypeCode: 'GTOT' | 'GTIN' | 'LOAD' | 'DISC' | string;
}

export type TrackingEvent = ShipmentEvent | TransportEvent | EquipmentEvent;

/** Shipment-level `references` (spec section 2): string refs may be empty, date refs null. */
export type ShipmentReferences = Record<string, string | null>;
/** Container-level `references`. */
export type ContainerReferences = Record<string, string | null>;

export const SHIPMENT_STRING_REFERENCE_KEYS = ['customer_name', ...Array.from({ length: 8 }, (_, i) => `string_ref${i + 1}`)] as const;
export const SHIPMENT_DATE_REFERENCE_KEYS = [
  'cargo_ready_dt',
  'si_cutoff_dt',
  'vgm_cutoff_dt',
  'booking_dt',
  ...Array.from({ length: 4 }, (_, i) => `date_ref${i + 1}`),
] as const;
export const CONTAINER_STRING_REFERENCE_KEYS = SHIPMENT_STRING_REFERENCE_KEYS;
export const CONTAINER_DATE_REFERENCE_KEYS = [
  'stuffing_dt',
  'free_time_exp_dt',
  ...Array.from({ length: 6 }, (_, i) => `date_ref${i + 1}`),
] as const;

/** Master data of one container on one shipment (no events). */
export interface ContainerMaster {
  containerNumber: string;
  isoType?: string;
  references: ContainerReferences;
}

/** Master data of one shipment, as loaded by ingest (docs/architecture.md, Ingest bundle). */
export interface ShipmentMaster {
  bookingReference?: string;
  carrierBookingReference: string;
  billOfLadingNumber?: string;
  carrierCode: string;
  carrierName?: string;
  serviceType?: string;
  vesselName?: string;
  voyageNumber?: string;
  portOfLoading?: Location;
  portOfDischarge?: Location;
  placeOfReceipt?: Location;
  placeOfDelivery?: Location;
  references: ShipmentReferences;
}

/** Every exceptionType, in the order the docs list them (CLI filters name them when refusing a value). */
export const EXCEPTION_TYPES = ['ETA_DELAY', 'ROLLOVER', 'MISSED_CONNECTION', 'DEMURRAGE_RISK', 'DETENTION_RISK'] as const;
export type ExceptionType = (typeof EXCEPTION_TYPES)[number];
/** The states of a webhook delivery (the delivery log's `status`). */
export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type ExceptionCategory = 'SCHEDULE' | 'OPERATIONAL';
export type Severity = 'WARNING' | 'CRITICAL';
export type ExceptionStatus = 'DETECTED' | 'RESOLVED';
/**
 * How an exception was resolved (spec: examples SCHEDULE_RECOVERED, REBOOKED,
 * MANUAL_CLEAR, EVENT_ACTUALIZED). DATA_CORRECTED is ours: the shipment's data
 * changed (e.g. a later free time, another port) and the condition no longer
 * holds, with no event to say so.
 */
export type ResolutionType = 'SCHEDULE_RECOVERED' | 'REBOOKED' | 'EVENT_ACTUALIZED' | 'MANUAL_CLEAR' | 'DATA_CORRECTED';

export interface Impact {
  field: string;
  previousValue: string;
  revisedValue: string;
  delayHours?: number;
}

/** The spec's Exception schema. */
export interface TrackingException {
  exceptionID: string;
  exceptionType: ExceptionType;
  exceptionCategory: ExceptionCategory;
  severity: Severity;
  status: ExceptionStatus;
  detectedDateTime: string;
  resolvedDateTime?: string;
  resolutionType?: ResolutionType;
  resolutionNote?: string;
  title: string;
  description: string;
  relatedEventID?: string;
  affectedContainers: string[];
  impact?: Impact;
  recommendedAction: string;
}

/** The spec's Container schema, assembled. */
export interface ContainerSnapshot extends ContainerMaster {
  latestEvent: EquipmentEvent | null;
  eventHistory: EquipmentEvent[];
}

/** The spec's ShipmentTracking schema, assembled. */
export interface ShipmentTracking extends ShipmentMaster {
  etd: string | null;
  eta: string | null;
  shipmentEvents: ShipmentEvent[];
  transportEvents: TransportEvent[];
  containers: ContainerSnapshot[];
  exceptions: TrackingException[];
}
