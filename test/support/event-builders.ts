import { v5 as uuidv5 } from 'uuid';
import type {
  ContainerMaster,
  ContainerReferences,
  EquipmentEvent,
  EventClassifierCode,
  Location,
  ShipmentEvent,
  ShipmentMaster,
  TransportCall,
  TransportEvent,
  Vessel,
} from '../../src/domain/types.js';

/**
 * Small typed factories for domain-level (already normalized) tracking data:
 * spec spellings, canonical UTC timestamps. Every event gets a deterministic
 * UUID derived from its content unless `id` is given, so the same builder
 * call always yields the same event (and two calls that differ in anything
 * yield different events).
 */

/** Fixed reference instant of test timelines. */
export const T0 = '2026-03-02T00:00:00.000Z';

/** `base` plus `hours` (negative and fractional allowed), canonical UTC. */
export function at(hours: number, base: string = T0): string {
  return new Date(Date.parse(base) + Math.round(hours * 3_600_000)).toISOString();
}

export const PORTS = {
  CNSHA: { unLocationCode: 'CNSHA', locationName: 'Shanghai' },
  SGSIN: { unLocationCode: 'SGSIN', locationName: 'Singapore' },
  NLRTM: { unLocationCode: 'NLRTM', locationName: 'Rotterdam' },
  DEHAM: { unLocationCode: 'DEHAM', locationName: 'Hamburg' },
  DEDUI: { unLocationCode: 'DEDUI', locationName: 'Duisburg' },
  MYPKG: { unLocationCode: 'MYPKG', locationName: 'Port Klang' },
} as const satisfies Record<string, Location>;

export type PortCode = keyof typeof PORTS;

/** Vessels with valid IMO check digits. */
export const VESSELS = {
  ALPHA: { vesselName: 'MAERSK ALPHA', vesselIMONumber: '9321483' },
  BRAVO: { vesselName: 'MAERSK BRAVO', vesselIMONumber: '9312341' },
  CHARLIE: { vesselName: 'MAERSK CHARLIE', vesselIMONumber: '9753246' },
  DELTA: { vesselName: 'MAERSK DELTA', vesselIMONumber: '9800013' },
} as const satisfies Record<string, Vessel>;

/** Container numbers with valid ISO 6346 check digits. */
export const CONTAINERS = ['MSKU1234565', 'MSKU7654328', 'MRKU1122331', 'MRKU4455660'] as const;

const TEST_EVENT_NAMESPACE = '7b0c4f1e-2a55-4c8e-9b43-1f0d2c3e4a5b';

/** A deterministic UUID for a readable name (`eventId('arrival-1')`). */
export function eventId(name: string): string {
  return uuidv5(name, TEST_EVENT_NAMESPACE);
}

function contentId(kind: string, spec: object): string {
  return eventId(`${kind}:${JSON.stringify(spec)}`);
}

export interface CallSpec {
  port: PortCode | string;
  vessel?: Vessel;
  /** Sets both export and import voyage numbers unless those are given. */
  voyage?: string;
  exportVoyageNumber?: string;
  importVoyageNumber?: string;
  modeOfTransport?: string;
  facilityTypeCode?: string;
}

function locationOf(port: string): Location {
  return port in PORTS ? { ...PORTS[port as PortCode] } : { unLocationCode: port };
}

export function transportCall(spec: CallSpec): TransportCall {
  const exportVoyageNumber = spec.exportVoyageNumber ?? spec.voyage;
  const importVoyageNumber = spec.importVoyageNumber ?? spec.voyage;
  return {
    ...(spec.vessel ? { vessel: { ...spec.vessel } } : {}),
    location: locationOf(spec.port),
    unLocationCode: spec.port,
    modeOfTransport: spec.modeOfTransport ?? (spec.vessel ? 'VESSEL' : 'TRUCK'),
    facilityTypeCode: spec.facilityTypeCode ?? 'POTE',
    ...(exportVoyageNumber ? { exportVoyageNumber } : {}),
    ...(importVoyageNumber ? { importVoyageNumber } : {}),
  };
}

interface EventSpecBase {
  classifier: EventClassifierCode;
  /** The milestone's time. */
  eventDateTime: string;
  /** When this version became known (eventCreatedDateTime). */
  created: string;
  id?: string;
  /** Carrier booking reference put in documentReferences (default none). */
  booking?: string;
}

export interface TransportEventSpec extends EventSpecBase, CallSpec {
  type: 'ARRI' | 'DEPA';
}

export function transportEvent(spec: TransportEventSpec): TransportEvent {
  return {
    eventID: spec.id ?? contentId('TRANSPORT', spec),
    eventType: 'TRANSPORT',
    eventDateTime: spec.eventDateTime,
    eventCreatedDateTime: spec.created,
    eventClassifierCode: spec.classifier,
    ...(spec.booking ? { documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: spec.booking }] } : {}),
    transportCall: transportCall(spec),
    transportEventTypeCode: spec.type,
  };
}

export interface EquipmentEventSpec extends EventSpecBase, Partial<CallSpec> {
  type: 'LOAD' | 'DISC' | 'GTOT' | 'GTIN';
  container: string;
  port: PortCode | string;
  /** Default LADEN. */
  empty?: 'LADEN' | 'EMPTY';
}

/** With a vessel: the event carries a transportCall (LOAD/DISC); without: only an eventLocation (gate moves). */
export function equipmentEvent(spec: EquipmentEventSpec): EquipmentEvent {
  return {
    eventID: spec.id ?? contentId('EQUIPMENT', spec),
    eventType: 'EQUIPMENT',
    eventDateTime: spec.eventDateTime,
    eventCreatedDateTime: spec.created,
    eventClassifierCode: spec.classifier,
    ...(spec.booking ? { documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: spec.booking }] } : {}),
    eventLocation: locationOf(spec.port),
    ...(spec.vessel ? { transportCall: transportCall({ ...spec, port: spec.port }) } : {}),
    emptyIndicatorCode: spec.empty ?? 'LADEN',
    equipmentReference: spec.container,
    equipmentEventTypeCode: spec.type,
  };
}

export interface ShipmentEventSpec extends EventSpecBase {
  type: 'CONF' | 'ISSU' | string;
  documentTypeCode?: 'BKG' | 'TRD' | string;
  documentID: string;
}

export function shipmentEvent(spec: ShipmentEventSpec): ShipmentEvent {
  return {
    eventID: spec.id ?? contentId('SHIPMENT', spec),
    eventType: 'SHIPMENT',
    eventDateTime: spec.eventDateTime,
    eventCreatedDateTime: spec.created,
    eventClassifierCode: spec.classifier,
    documentID: spec.documentID,
    documentTypeCode: spec.documentTypeCode ?? (spec.type === 'ISSU' ? 'TRD' : 'BKG'),
    shipmentEventTypeCode: spec.type,
  };
}

/** A MAEU shipment Shanghai → (Singapore) → Rotterdam → Duisburg; override anything. */
export function shipmentMaster(overrides: Partial<ShipmentMaster> = {}): ShipmentMaster {
  return {
    bookingReference: 'FWD-0001',
    carrierBookingReference: 'MAEU260000001',
    billOfLadingNumber: 'MAEU260000001B',
    carrierCode: 'MAEU',
    carrierName: 'Maersk',
    serviceType: 'PORT_TO_DOOR',
    vesselName: VESSELS.ALPHA.vesselName,
    voyageNumber: '610W',
    portOfLoading: { ...PORTS.CNSHA },
    portOfDischarge: { ...PORTS.NLRTM },
    placeOfReceipt: { ...PORTS.CNSHA },
    placeOfDelivery: { ...PORTS.DEDUI },
    references: { customer_name: 'Test Customer' },
    ...overrides,
  };
}

export function containerMaster(containerNumber: string, references: ContainerReferences = {}): ContainerMaster {
  return { containerNumber, isoType: '45G1', references };
}
