import { containerCheckDigit } from '../../src/domain/container-number.js';

/**
 * A small, hand-checked data set for contract tests: raw ingest bundles as an
 * operator would load them (docs/architecture.md, Ingest bundle), in both DCSA spellings.
 *
 * - MAEU booking MAEU-BKG-1001 / BL MAEU1001BL, account acct-a, containers C1 and C2,
 *   Rotterdam -> Shanghai; arrival estimate revised (PLN, then EST later) and departed (ACT).
 * - MAEU booking MAEU-BKG-0999 / BL MAEU0999BL, account acct-a: an older shipment that
 *   used container C1 before (backfilled: ingested after, with older event times).
 * - CMDU booking CMDU-BKG-2001 / BL CMDU2001BL, account acct-b only.
 * - CMDU booking MAEU-BKG-1001 (same number as the MAEU booking, other carrier), account acct-b.
 */

export function containerNumber(ownerAndSerial: string): string {
  return `${ownerAndSerial}${containerCheckDigit(ownerAndSerial)}`;
}

export const C1 = containerNumber('MSKU123456');
export const C2 = containerNumber('MSKU765432');
export const C3 = containerNumber('CMAU555000');

const NLRTM = { locationName: 'Rotterdam', UNLocationCode: 'NLRTM' };
const CNSHA = { locationName: 'Shanghai', UNLocationCode: 'CNSHA' };
const VESSEL = { vesselName: 'MAERSK EDINBURGH', vesselIMONumber: '9299628' };

/** Deterministic UUIDs, distinct per call site. */
function uuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

function transport(
  n: number,
  code: 'DEPA' | 'ARRI',
  classifier: 'PLN' | 'EST' | 'ACT',
  at: string,
  created: string,
  port: { locationName: string; UNLocationCode: string },
  booking: string,
) {
  return {
    eventID: uuid(n),
    eventType: 'TRANSPORT',
    eventClassifierCode: classifier,
    eventDateTime: at,
    eventCreatedDateTime: created,
    transportEventTypeCode: code,
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: booking }],
    transportCall: {
      transportCallID: `TC-${port.UNLocationCode}-${booking}`,
      modeOfTransport: 'VESSEL',
      facilityTypeCode: 'POTE',
      UNLocationCode: port.UNLocationCode,
      location: port,
      exportVoyageNumber: '241W',
      importVoyageNumber: '241W',
      vessel: VESSEL,
    },
  };
}

function equipment(
  n: number,
  code: 'GTOT' | 'GTIN' | 'LOAD' | 'DISC',
  classifier: 'PLN' | 'EST' | 'ACT',
  at: string,
  created: string,
  container: string,
  port: { locationName: string; UNLocationCode: string },
  booking: string,
  empty = false,
) {
  return {
    eventID: uuid(n),
    eventType: 'EQUIPMENT',
    eventClassifierCode: classifier,
    eventDateTime: at,
    eventCreatedDateTime: created,
    equipmentEventTypeCode: code,
    equipmentReference: container,
    emptyIndicatorCode: empty ? 'EMPTY' : 'LADEN',
    eventLocation: { locationName: port.locationName, UNLocationCode: port.UNLocationCode },
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: booking }],
  };
}

function references(extra: Record<string, string | null> = {}) {
  return { customer_name: 'ACME Imports', string_ref1: 'PO-4711', ...extra };
}

export function maeuBundle() {
  return {
    carrierCode: 'MAEU',
    shipments: [
      {
        bookingReference: 'FWD-1001',
        carrierBookingReference: 'MAEU-BKG-1001',
        billOfLadingNumber: 'MAEU1001BL',
        carrierCode: 'MAEU',
        carrierName: 'Maersk',
        serviceType: 'PORT_TO_DOOR',
        vesselName: 'MAERSK EDINBURGH',
        voyageNumber: '241W',
        portOfLoading: { locationName: 'Rotterdam', unLocationCode: 'NLRTM' },
        portOfDischarge: { locationName: 'Shanghai', unLocationCode: 'CNSHA' },
        placeOfDelivery: { locationName: 'Suzhou', unLocationCode: 'CNSZV' },
        references: references({ booking_dt: '2026-10-01T08:00:00Z' }),
        accounts: ['acct-a'],
        containers: [
          { containerNumber: C1, isoType: '45G1', references: references({ free_time_exp_dt: null }) },
          { containerNumber: C2, isoType: '22G1', references: references() },
        ],
      },
      {
        bookingReference: 'FWD-0999',
        carrierBookingReference: 'MAEU-BKG-0999',
        billOfLadingNumber: 'MAEU0999BL',
        carrierCode: 'MAEU',
        carrierName: 'Maersk',
        serviceType: 'PORT_TO_PORT',
        portOfLoading: { locationName: 'Rotterdam', unLocationCode: 'NLRTM' },
        portOfDischarge: { locationName: 'Shanghai', unLocationCode: 'CNSHA' },
        references: references(),
        accounts: ['acct-a'],
        containers: [{ containerNumber: C1, isoType: '45G1', references: references() }],
      },
    ],
    events: [
      {
        eventID: uuid(1),
        eventType: 'SHIPMENT',
        eventClassifierCode: 'ACT',
        eventDateTime: '2026-10-01T08:00:00Z',
        eventCreatedDateTime: '2026-10-01T08:00:05Z',
        shipmentEventTypeCode: 'CONF',
        documentTypeCode: 'BKG',
        documentID: 'MAEU-BKG-1001',
      },
      transport(10, 'DEPA', 'PLN', '2026-11-01T10:00:00Z', '2026-10-01T08:00:00Z', NLRTM, 'MAEU-BKG-1001'),
      transport(11, 'DEPA', 'ACT', '2026-11-01T12:00:00+01:00', '2026-11-01T11:05:00Z', NLRTM, 'MAEU-BKG-1001'),
      transport(12, 'ARRI', 'PLN', '2026-12-01T06:00:00Z', '2026-10-01T08:00:00Z', CNSHA, 'MAEU-BKG-1001'),
      transport(13, 'ARRI', 'EST', '2026-12-01T10:00:00Z', '2026-11-05T08:00:00Z', CNSHA, 'MAEU-BKG-1001'),
      transport(14, 'ARRI', 'EST', '2026-12-01T09:00:00Z', '2026-11-06T08:00:00Z', CNSHA, 'MAEU-BKG-1001'),
      equipment(20, 'GTIN', 'ACT', '2026-10-30T09:00:00Z', '2026-10-30T09:01:00Z', C1, NLRTM, 'MAEU-BKG-1001'),
      equipment(21, 'LOAD', 'PLN', '2026-11-01T06:00:00Z', '2026-10-01T08:00:00Z', C1, NLRTM, 'MAEU-BKG-1001'),
      equipment(22, 'LOAD', 'ACT', '2026-11-01T05:30:00Z', '2026-11-01T05:31:00Z', C1, NLRTM, 'MAEU-BKG-1001'),
      equipment(23, 'DISC', 'PLN', '2026-12-01T12:00:00Z', '2026-10-01T08:00:00Z', C1, CNSHA, 'MAEU-BKG-1001'),
      equipment(24, 'LOAD', 'ACT', '2026-11-01T05:40:00Z', '2026-11-01T05:41:00Z', C2, NLRTM, 'MAEU-BKG-1001'),
    ],
  };
}

/** The older shipment's events, loaded afterwards (a backfill): they must not hide the current shipment of C1. */
export function maeuBackfillBundle() {
  return {
    carrierCode: 'MAEU',
    events: [
      equipment(30, 'LOAD', 'ACT', '2026-03-01T05:00:00Z', '2026-03-01T05:01:00Z', C1, NLRTM, 'MAEU-BKG-0999'),
      equipment(31, 'DISC', 'ACT', '2026-04-01T05:00:00Z', '2026-04-01T05:01:00Z', C1, CNSHA, 'MAEU-BKG-0999'),
      equipment(32, 'GTIN', 'ACT', '2026-04-05T05:00:00Z', '2026-04-05T05:01:00Z', C1, CNSHA, 'MAEU-BKG-0999', true),
    ],
  };
}

export function cmduBundle() {
  return {
    carrierCode: 'CMDU',
    shipments: [
      {
        carrierBookingReference: 'CMDU-BKG-2001',
        billOfLadingNumber: 'CMDU2001BL',
        carrierCode: 'CMDU',
        carrierName: 'CMA CGM',
        serviceType: 'DOOR_TO_DOOR',
        portOfLoading: { locationName: 'Le Havre', unLocationCode: 'FRLEH' },
        portOfDischarge: { locationName: 'New York', unLocationCode: 'USNYC' },
        references: references(),
        accounts: ['acct-b'],
        containers: [{ containerNumber: C3, isoType: '45G1', references: references() }],
      },
      {
        carrierBookingReference: 'MAEU-BKG-1001',
        billOfLadingNumber: 'CMDU1001BL',
        carrierCode: 'CMDU',
        carrierName: 'CMA CGM',
        references: references(),
        accounts: ['acct-b'],
        containers: [],
      },
    ],
    events: [],
  };
}
