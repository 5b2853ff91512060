import {
  EDI_PORT_FUNCTIONS,
  EDI_REFERENCE_QUALIFIERS,
  EDI_SCHEDULE_QUALIFIERS,
  EDI_STATUS_CODES,
} from '../../src/domain/edi-status-map.js';
import { EDI_TIME_SOURCES, EDIFACT_DATE_FORMATS, X12_TIME_CODES, type TimeReading } from '../../src/domain/edi-times.js';

/**
 * The EDI map (src/domain/edi-status-map.ts) as docs/carriers.md "EDI" prints it; test/edi-map.test.ts
 * checks the page holds exactly these tables, and test/edi-equivalence.test.ts leaves these fields out.
 */

/** DCSA 2.2 event fields neither the 315 nor the IFTSTA map carries (docs/carriers.md "EDI", What EDI does not carry). */
export const FIELDS_EDI_LACKS = [
  'transportCall.transportCallID',
  'transportCall.carrierServiceCode',
  'transportCall.transportCallSequenceNumber',
  'transportCall.facilityCode / facilityCodeListProvider / facilityTypeCode',
  'location.locationName',
  'transportCall.importVoyageNumber distinct from exportVoyageNumber (one voyage: Q2-09, TDT 8028)',
  'eventClassifierCode PLN (EDI reports ACT and EST)',
  'eventCreatedDateTime per event (one per group: GS04/05; per message: DTM+137)',
  'SHIPMENT events (documentTypeCode/shipmentEventTypeCode)',
  'seconds of a time (HHMM; DTM 203)',
];

const row = (cells: string[]) => `| ${cells.join(' | ')} |\n`;

/** The tables as docs/carriers.md prints them. */
export function ediTables(): Record<string, string> {
  const status =
    row(['Code (B4-03, STS C555)', 'Meaning', 'DCSA 2.2 event', 'Empty/laden', 'Where']) +
    row(['---', '---', '---', '---', '---']) +
    Object.entries(EDI_STATUS_CODES)
      .map(([code, { meaning, kind }]) =>
        row([
          `\`${code}\``,
          meaning,
          `${kind.eventType} \`${kind.code}\``,
          kind.eventType === 'TRANSPORT' ? '(transport event)' : kind.empty ? 'EMPTY' : 'LADEN, unless B4-09 `E` / EQD `4`',
          kind.mode
            ? `${kind.mode.toLowerCase()} call at the activity location${kind.port ? `, else the port of ${kind.port === 'LOAD' ? 'loading' : 'discharge'}` : ''}`
            : 'eventLocation: the activity location',
        ]),
      )
      .join('');
  const references =
    row(['Qualifier (N9-01, RFF C506)', 'Meaning', 'documentReferenceType']) +
    row(['---', '---', '---']) +
    Object.entries(EDI_REFERENCE_QUALIFIERS)
      .map(([q, r]) => row([`\`${q}\``, r.meaning, `\`${r.documentReferenceType}\``]))
      .join('');
  const schedule =
    row(['Format', 'DTM qualifier', 'Meaning', 'DCSA 2.2 event']) +
    row(['---', '---', '---', '---']) +
    Object.entries(EDI_SCHEDULE_QUALIFIERS)
      .map(([q, s]) =>
        row([s.format, `\`${q}\``, s.meaning, `TRANSPORT ${s.code ? `\`${s.code}\`` : '`DEPA` at L, `ARRI` at D'}, \`${s.classifier}\``]),
      )
      .join('');
  const ports =
    row(['Format', 'Qualifier (R4-01, LOC 3227)', 'Meaning']) +
    row(['---', '---', '---']) +
    Object.entries(EDI_PORT_FUNCTIONS)
      .map(([q, p]) => row([p.format, `\`${q}\``, p.meaning]))
      .join('');
  const reading = (r: TimeReading, location: string | null) =>
    r === 'zone-code'
      ? "at the offset of its time code (table below), whatever the carrier's `--times`"
      : r === 'utc'
        ? 'UTC (it names no location)'
        : r === 'local-always'
          ? `local time of ${location}, whatever the carrier's \`--times\``
          : `local time of ${location}; UTC for a carrier with \`--times utc\``;
  const sources =
    row(['Format', 'Time', 'Read as']) +
    row(['---', '---', '---']) +
    Object.values(EDI_TIME_SOURCES)
      .map((t) => row([t.format, t.time, reading(t.reading, t.location)]))
      .join('');
  const times =
    row(['X12 time code (DTM-04)', 'UTC offset']) +
    row(['---', '---']) +
    Object.entries(X12_TIME_CODES)
      .map(([code, offset]) => row([`\`${code}\``, offset]))
      .join('') +
    row(['`LT`', 'the local time of the `R4` port']) +
    '\n' +
    row(['EDIFACT format (DTM C507/2379)', 'Read as']) +
    row(['---', '---']) +
    Object.entries(EDIFACT_DATE_FORMATS)
      .map(([code, meaning]) => row([`\`${code}\``, `${meaning}, as its source above says`]))
      .join('');
  return {
    'edi-status-codes': status,
    'edi-references': references,
    'edi-schedule': schedule,
    'edi-ports': ports,
    'edi-time-sources': sources,
    'edi-times': times,
  };
}
