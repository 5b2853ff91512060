/**
 * Raw ingest bundle pieces as carriers and shippers send them: events in
 * DCSA Track & Trace 2.2 spelling (UNLocationCode, transportCallID, local
 * times with offsets), shipments in the bundle's own format.
 */

export const CARRIER = 'MAEU';

/** A deterministic, well-formed eventID for fixture number `n`. */
export function eventId(n: number): string {
  return `0b7c9a2e-5d41-4c3a-8f6e-${n.toString(16).padStart(12, '0')}`;
}

// ISO 6346 numbers with valid check digits.
export const CONTAINER_A = 'MSKU1234565';
export const CONTAINER_B = 'MAEU1234567';
export const CONTAINER_C = 'CSQU3054383';

type Json = Record<string, unknown>;

export function rawShipment(overrides: Json = {}): Json {
  return {
    bookingReference: 'FWD-100',
    carrierBookingReference: 'BKG100',
    billOfLadingNumber: 'MAEUBL100',
    carrierCode: CARRIER,
    carrierName: 'Maersk',
    serviceType: 'PORT_TO_PORT',
    vesselName: 'MAERSK ESSEN',
    voyageNumber: '401E',
    portOfLoading: { locationName: 'Rotterdam', UNLocationCode: 'NLRTM' },
    portOfDischarge: { locationName: 'Singapore', unLocationCode: 'SGSIN' },
    references: { customer_name: 'ACME Corp', string_ref1: 'PO-4711', cargo_ready_dt: '2024-03-01T09:00:00+01:00' },
    accounts: ['acme'],
    containers: [
      { containerNumber: CONTAINER_A, isoType: '45G1', references: { free_time_exp_dt: '2024-04-10T00:00:00+08:00' } },
      { containerNumber: CONTAINER_B, isoType: '22G1' },
    ],
    ...overrides,
  };
}

function vesselCall(unLocationCode: string, overrides: Json = {}): Json {
  return {
    transportCallID: `TC-${unLocationCode}-401E`,
    carrierServiceCode: 'AE7',
    exportVoyageNumber: '401E',
    UNLocationCode: unLocationCode,
    facilityCode: 'ECT',
    facilityCodeListProvider: 'SMDG',
    facilityTypeCode: 'POTE',
    modeOfTransport: 'VESSEL',
    vessel: { vesselIMONumber: '9321483', vesselName: 'MAERSK ESSEN', vesselFlag: 'DK' },
    ...overrides,
  };
}

export function rawTransportEvent(n: number, overrides: Json = {}): Json {
  return {
    eventID: eventId(n),
    eventType: 'TRANSPORT',
    eventClassifierCode: 'EST',
    eventCreatedDateTime: '2024-03-02T08:00:00+01:00',
    eventDateTime: '2024-03-30T06:00:00+08:00',
    transportEventTypeCode: 'ARRI',
    delayReasonCode: 'WEA',
    transportCall: vesselCall('SGSIN'),
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG100' }],
    ...overrides,
  };
}

export function rawEquipmentEvent(n: number, overrides: Json = {}): Json {
  return {
    eventID: eventId(n),
    eventType: 'EQUIPMENT',
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: '2024-03-05T10:15:00+01:00',
    eventDateTime: '2024-03-05T10:00:00+01:00',
    equipmentEventTypeCode: 'LOAD',
    equipmentReference: CONTAINER_A,
    ISOEquipmentCode: '45G1',
    emptyIndicatorCode: 'LADEN',
    transportCall: vesselCall('NLRTM'),
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG100' }],
    seals: [{ sealNumber: 'S1', sealType: 'BLT' }],
    ...overrides,
  };
}

export function rawShipmentEvent(n: number, overrides: Json = {}): Json {
  return {
    eventID: eventId(n),
    eventType: 'SHIPMENT',
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: '2024-02-20T12:00:00+01:00',
    eventDateTime: '2024-02-20T12:00:00+01:00',
    shipmentEventTypeCode: 'CONF',
    documentTypeCode: 'BKG',
    documentID: 'BKG100',
    ...overrides,
  };
}
