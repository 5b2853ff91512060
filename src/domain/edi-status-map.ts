import { v5 as uuidv5 } from 'uuid';
import { containerCheckDigit } from './container-number.js';
import { EdiProblem, type SegmentAt } from './edi-problem.js';
import { placeTime, type EdiTimes, type StatedTime } from './edi-times.js';

export { EdiProblem, type SegmentAt } from './edi-problem.js';

/**
 * Carrier status messages in EDI (ANSI X12 315, UN/EDIFACT IFTSTA) as DCSA Track & Trace 2.2 events
 * (docs/carriers.md "EDI"). The readers (src/ingest/edi-x12.ts, src/ingest/edi-iftsta.ts) turn each
 * transaction (ST..SE, UNH..UNT) into one EdiStatus with the positions of its segments; this module maps
 * that to DCSA 2.2 event objects, which then go through the same validation as any carrier's events.
 * Pure: tables and functions over plain data. The tables are what docs/carriers.md prints and what
 * test/edi-map.test.ts reads.
 */

export const EDI_FORMATS = ['x12-315', 'iftsta'] as const;
export type EdiFormat = (typeof EDI_FORMATS)[number];

export type StatusKind =
  | { eventType: 'EQUIPMENT'; code: 'LOAD' | 'DISC' | 'GTIN' | 'GTOT'; mode?: 'VESSEL' | 'RAIL'; port?: PortRole; empty?: boolean }
  | { eventType: 'TRANSPORT'; code: 'ARRI' | 'DEPA'; mode: 'VESSEL'; port: PortRole };

export type PortRole = 'LOAD' | 'DISCHARGE';

/**
 * The status codes (X12 B4-03, code list 157 Shipment Status Code; IFTSTA STS C555/4405, where the
 * carriers' IFTSTA guides use the same codes) and the DCSA 2.2 event each becomes. `port` names the
 * port the event happens at when the message gives no activity location of its own (B4-11, LOC+175).
 */
export const EDI_STATUS_CODES: Readonly<Record<string, { meaning: string; kind: StatusKind }>> = {
  AE: { meaning: 'Loaded on vessel', kind: { eventType: 'EQUIPMENT', code: 'LOAD', mode: 'VESSEL', port: 'LOAD' } },
  UV: { meaning: 'Unloaded from vessel', kind: { eventType: 'EQUIPMENT', code: 'DISC', mode: 'VESSEL', port: 'DISCHARGE' } },
  VD: { meaning: 'Vessel departure', kind: { eventType: 'TRANSPORT', code: 'DEPA', mode: 'VESSEL', port: 'LOAD' } },
  VA: { meaning: 'Vessel arrival', kind: { eventType: 'TRANSPORT', code: 'ARRI', mode: 'VESSEL', port: 'DISCHARGE' } },
  I: { meaning: 'In-gate (full or as B4-09 says)', kind: { eventType: 'EQUIPMENT', code: 'GTIN' } },
  OA: { meaning: 'Out-gate (full or as B4-09 says)', kind: { eventType: 'EQUIPMENT', code: 'GTOT' } },
  RD: { meaning: 'Empty container returned', kind: { eventType: 'EQUIPMENT', code: 'GTIN', empty: true } },
  EE: { meaning: 'Empty container released to shipper', kind: { eventType: 'EQUIPMENT', code: 'GTOT', empty: true } },
  AL: { meaning: 'Loaded on rail', kind: { eventType: 'EQUIPMENT', code: 'LOAD', mode: 'RAIL' } },
  UR: { meaning: 'Unloaded from rail', kind: { eventType: 'EQUIPMENT', code: 'DISC', mode: 'RAIL' } },
};

/**
 * Reference qualifiers (X12 N9-01, EDIFACT RFF C506/1153) and the DCSA documentReferenceType they
 * become: the references events link to shipments by (docs/architecture.md, Ingest bundle). Other
 * qualifiers are not used.
 */
export const EDI_REFERENCE_QUALIFIERS: Readonly<Record<string, { meaning: string; documentReferenceType: 'TRD' | 'BKG' }>> = {
  BM: { meaning: 'Bill of lading number', documentReferenceType: 'TRD' },
  BN: { meaning: 'Booking number', documentReferenceType: 'BKG' },
};

/**
 * Schedule times (X12 DTM-01 within an R4 loop; EDIFACT DTM C507/2005 within a TDT or LOC group) and
 * the DCSA transport event they become at that port. X12 139 and 140 (estimated, actual) take
 * departure or arrival from the R4 port function: L (port of loading) departure, D (port of
 * discharge) arrival.
 */
export const EDI_SCHEDULE_QUALIFIERS: Readonly<
  Record<string, { format: EdiFormat; meaning: string; classifier: 'EST' | 'ACT'; code?: 'ARRI' | 'DEPA' }>
> = {
  '139': { format: 'x12-315', meaning: 'Estimated (departure at L, arrival at D)', classifier: 'EST' },
  '140': { format: 'x12-315', meaning: 'Actual (departure at L, arrival at D)', classifier: 'ACT' },
  '369': { format: 'x12-315', meaning: 'Estimated departure', classifier: 'EST', code: 'DEPA' },
  '370': { format: 'x12-315', meaning: 'Actual departure', classifier: 'ACT', code: 'DEPA' },
  '371': { format: 'x12-315', meaning: 'Estimated arrival', classifier: 'EST', code: 'ARRI' },
  '372': { format: 'x12-315', meaning: 'Actual arrival', classifier: 'ACT', code: 'ARRI' },
  '133': { format: 'iftsta', meaning: 'Departure date/time, estimated', classifier: 'EST', code: 'DEPA' },
  '186': { format: 'iftsta', meaning: 'Departure date/time, actual', classifier: 'ACT', code: 'DEPA' },
  '132': { format: 'iftsta', meaning: 'Arrival date/time, estimated', classifier: 'EST', code: 'ARRI' },
  '178': { format: 'iftsta', meaning: 'Arrival date/time, actual', classifier: 'ACT', code: 'ARRI' },
};

/** X12 R4-01 port functions and EDIFACT LOC 3227 qualifiers that name the ports of the voyage. */
export const EDI_PORT_FUNCTIONS: Readonly<Record<string, { format: EdiFormat; meaning: string; role: PortRole | 'ACTIVITY' }>> = {
  L: { format: 'x12-315', meaning: 'Port of loading', role: 'LOAD' },
  D: { format: 'x12-315', meaning: 'Port of discharge', role: 'DISCHARGE' },
  '9': { format: 'iftsta', meaning: 'Place/port of loading', role: 'LOAD' },
  '11': { format: 'iftsta', meaning: 'Place/port of discharge', role: 'DISCHARGE' },
  '175': { format: 'iftsta', meaning: 'Activity location (where the status happened)', role: 'ACTIVITY' },
};

/** What the DCSA events of one transaction are made from; positions name the segments for rejections. */
export interface EdiStatus {
  statusCode: string;
  statusAt: SegmentAt;
  /** The status time as stated (B4-04/05, DTM+334): placed in the zone of the event's location (docs/carriers.md "Times"). */
  eventDateTime: StatedTime;
  /** When the carrier issued it (GS04/05; IFTSTA DTM+137, else UNB), canonical UTC: DCSA eventCreatedDateTime. */
  createdDateTime: string;
  /** ISO 6346, checked. */
  equipmentReference?: string;
  /** From B4-09 (E/L) or EQD 8169 (4 empty, 5 full); absent: the status code's, else laden. */
  empty?: boolean;
  /** Where the status happened: B4-11 with B4-12 UN, LOC+175. */
  activityLocode?: string;
  vessel?: { name?: string; imo?: string };
  voyage?: string;
  ports: { role: PortRole; locode: string }[];
  references: { type: 'TRD' | 'BKG'; value: string }[];
  /** Schedule times at a port of the voyage, as stated: placed in the zone of that port. */
  schedule: { code: 'ARRI' | 'DEPA'; classifier: 'EST' | 'ACT'; locode: string; dateTime: StatedTime }[];
}

/** A DCSA 2.2 event object, as a carrier would publish it (validated by the caller like any). */
export type DcsaEventObject = Record<string, unknown>;

const EDI_EVENT_NAMESPACE = '5d7c3a52-9e0f-4f4b-8d36-6a1b8e2f0c11';

/**
 * The DCSA events of one status message: the status itself, and the schedule times it carries (one
 * transport event each). eventIDs are UUID v5 of the carrier and the event's content without its
 * creation time, so the same fact sent again (in a re-sent file, in the other format, in a later
 * message repeating an ETA) is the same event and is stored once. Times are placed here, where the locations
 * are known: `times` is the carrier's setting (`tracking carrier formats --times`).
 */
export function ediStatusEvents(status: EdiStatus, carrierCode: string, times: EdiTimes): DcsaEventObject[] {
  const entry = EDI_STATUS_CODES[status.statusCode];
  if (!entry) {
    throw new EdiProblem(
      `unknown status code "${status.statusCode.slice(0, 10)}" (known: ${Object.keys(EDI_STATUS_CODES).join(', ')})`,
      status.statusAt,
    );
  }
  const kind = entry.kind;
  const portOf = (role: PortRole | undefined) => (role ? status.ports.find((p) => p.role === role)?.locode : undefined);
  const locode = status.activityLocode ?? portOf(kind.port);
  const documentReferences =
    status.references.length > 0
      ? status.references.map((r) => ({ documentReferenceType: r.type, documentReferenceValue: r.value }))
      : undefined;
  const vessel =
    status.vessel?.imo && status.vessel.name ? { vesselIMONumber: status.vessel.imo, vesselName: status.vessel.name } : undefined;
  const call = (unLocationCode: string, mode: 'VESSEL' | 'RAIL') => ({
    UNLocationCode: unLocationCode,
    modeOfTransport: mode,
    ...(mode === 'VESSEL' && vessel ? { vessel } : {}),
    ...(mode === 'VESSEL' && status.voyage ? { exportVoyageNumber: status.voyage, importVoyageNumber: status.voyage } : {}),
  });
  const events: DcsaEventObject[] = [];
  const base = (classifier: string, eventDateTime: string) => ({
    eventClassifierCode: classifier,
    eventDateTime,
    eventCreatedDateTime: status.createdDateTime,
    ...(documentReferences ? { documentReferences } : {}),
  });

  // Placed after the checks below, so that a status without its location is refused for that first.
  const eventDateTime = () => placeTime(status.eventDateTime, locode, times);

  if (kind.eventType === 'TRANSPORT') {
    if (!locode)
      throw new EdiProblem(
        `status ${status.statusCode} names no location (no UN/LOCODE for it, nor a port of ${kind.port === 'LOAD' ? 'loading' : 'discharge'})`,
        status.statusAt,
      );
    events.push({
      eventType: 'TRANSPORT',
      ...base('ACT', eventDateTime()),
      transportEventTypeCode: kind.code,
      transportCall: call(locode, 'VESSEL'),
    });
  } else {
    if (!status.equipmentReference)
      throw new EdiProblem(`status ${status.statusCode} is a container event but names no container`, status.statusAt);
    const empty = status.empty ?? kind.empty ?? false;
    const where = locode
      ? kind.mode
        ? { transportCall: call(locode, kind.mode) }
        : { eventLocation: { UNLocationCode: locode } }
      : kind.mode
        ? null
        : {};
    if (where === null)
      throw new EdiProblem(
        `status ${status.statusCode} names no location for its ${kind.mode === 'RAIL' ? 'rail' : 'vessel'} call`,
        status.statusAt,
      );
    events.push({
      eventType: 'EQUIPMENT',
      ...base('ACT', eventDateTime()),
      equipmentEventTypeCode: kind.code,
      equipmentReference: status.equipmentReference,
      emptyIndicatorCode: empty ? 'EMPTY' : 'LADEN',
      ...where,
    });
  }
  for (const time of status.schedule) {
    events.push({
      eventType: 'TRANSPORT',
      ...base(time.classifier, placeTime(time.dateTime, time.locode, times)),
      transportEventTypeCode: time.code,
      transportCall: call(time.locode, 'VESSEL'),
    });
  }
  return events.map((event) => ({ eventID: ediEventId(carrierCode, event), ...event }));
}

function ediEventId(carrierCode: string, event: DcsaEventObject): string {
  const { eventCreatedDateTime: _created, ...content } = event;
  return uuidv5(JSON.stringify([carrierCode, content]), EDI_EVENT_NAMESPACE);
}

/**
 * A container number from its parts (X12 B4-07 initial, B4-08 number, B4-13 check digit; EDIFACT EQD
 * 8260 whole), checked against ISO 6346: a wrong check digit is a problem, never a guess.
 */
export function ediContainerNumber(parts: { initial?: string; number: string; checkDigit?: string }, at: SegmentAt): string {
  const raw = `${parts.initial ?? ''}${parts.number}${parts.checkDigit ?? ''}`.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{3}[UJZ]\d{7}$/.test(raw)) {
    throw new EdiProblem(`container "${raw.slice(0, 20)}" is not an ISO 6346 number (4 letters, 7 digits)`, at);
  }
  const expected = containerCheckDigit(raw.slice(0, 10));
  if (Number(raw[10]) !== expected) {
    throw new EdiProblem(`container ${raw} has a wrong check digit (ISO 6346 gives ${expected})`, at);
  }
  return raw;
}

/** A UN/LOCODE as given (5 characters, country and place); anything else is a problem. */
export function ediLocode(value: string, at: SegmentAt): string {
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{2}[A-Z2-9]{3}$/.test(code)) throw new EdiProblem(`"${value.slice(0, 12)}" is not a UN/LOCODE`, at);
  return code;
}
