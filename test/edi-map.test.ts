import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { carrierEventsBundle } from '../src/carriers/carrier-events.js';
import { EDI_STATUS_CODES, EdiProblem, ediContainerNumber, ediStatusEvents, type EdiStatus } from '../src/domain/edi-status-map.js';
import { edifactStatedTime, placeTime, x12StatedTime } from '../src/domain/edi-times.js';
import { TZDATA_VERSION } from '../src/domain/time-zones/location-zone.js';
import { ediTables, FIELDS_EDI_LACKS } from './support/edi-docs.js';

/**
 * The EDI map is a table (src/domain/edi-status-map.ts): this test reads it, checks that every row gives
 * events the DCSA validator accepts, and that docs/carriers.md prints exactly these tables (between the
 * `<!-- edi-… -->` markers), and names every field EDI does not carry.
 */

const docs = readFileSync(new URL('../docs/carriers.md', import.meta.url), 'utf8');

function between(marker: string): string {
  const m = new RegExp(`<!-- ${marker} -->\\n([\\s\\S]*?)<!-- /${marker} -->`).exec(docs);
  if (!m) throw new Error(`docs/carriers.md has no <!-- ${marker} --> block`);
  return m[1]!;
}

const status = (statusCode: string): EdiStatus => ({
  statusCode,
  statusAt: { tag: 'B4', position: 2 },
  // Rotterdam local time (+01:00 on 2 March): 07:30Z.
  eventDateTime: { source: 'x12-b4', wall: '2026-03-02T08:30:00', at: { tag: 'B4', position: 2 } },
  createdDateTime: '2026-03-02T09:00:00.000Z',
  equipmentReference: 'MSKU1234565',
  activityLocode: 'NLRTM',
  vessel: { name: 'MAERSK ALPHA', imo: '9321483' },
  voyage: '401E',
  ports: [{ role: 'DISCHARGE', locode: 'NLRTM' }],
  references: [{ type: 'TRD', value: 'MAEUBL1' }],
  schedule: [
    {
      code: 'ARRI',
      classifier: 'EST',
      locode: 'NLRTM',
      dateTime: { source: 'x12-r4-dtm-zone', wall: '2026-03-03T08:30:00', offset: '+00:00', at: { tag: 'DTM', position: 7 } },
    },
  ],
});

describe('the EDI map', () => {
  it.each(Object.keys(EDI_STATUS_CODES))('maps status %s to DCSA events the validator accepts', (code) => {
    const events = ediStatusEvents(status(code), 'MAEU', 'local');
    const kind = EDI_STATUS_CODES[code]!.kind;
    expect(events[0]).toMatchObject(
      kind.eventType === 'TRANSPORT'
        ? { eventType: 'TRANSPORT', transportEventTypeCode: kind.code, eventClassifierCode: 'ACT' }
        : { eventType: 'EQUIPMENT', equipmentEventTypeCode: kind.code, emptyIndicatorCode: kind.empty ? 'EMPTY' : 'LADEN' },
    );
    expect(events[1]).toMatchObject({ eventType: 'TRANSPORT', transportEventTypeCode: 'ARRI', eventClassifierCode: 'EST' });
    const parsed = carrierEventsBundle('MAEU', events);
    expect(parsed.ok, JSON.stringify(parsed.ok ? null : parsed.issues)).toBe(true);
  });

  it('gives the same fact the same eventID whenever it is sent, and another fact another', () => {
    const a = ediStatusEvents(status('AE'), 'MAEU', 'local');
    expect(a[0]).toMatchObject({ eventDateTime: '2026-03-02T07:30:00.000Z' });
    const later = ediStatusEvents({ ...status('AE'), createdDateTime: '2026-03-05T00:00:00.000Z' }, 'MAEU', 'local');
    expect(later.map((e) => e.eventID)).toEqual(a.map((e) => e.eventID));
    const minuteLater = { ...status('AE'), eventDateTime: { ...status('AE').eventDateTime, wall: '2026-03-02T08:31:00' } };
    expect(ediStatusEvents(minuteLater, 'MAEU', 'local')[0]!.eventID).not.toBe(a[0]!.eventID);
    expect(ediStatusEvents(status('AE'), 'CMDU', 'local')[0]!.eventID).not.toBe(a[0]!.eventID);
  });

  it('refuses what it cannot map, naming the segment', () => {
    const at = { tag: 'B4', position: 2 };
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        expect(err).toBeInstanceOf(EdiProblem);
        return `${(err as EdiProblem).at?.tag}@${(err as EdiProblem).at?.position}: ${(err as Error).message}`;
      }
      throw new Error('not refused');
    };
    expect(refused(() => ediStatusEvents(status('ZZ'), 'MAEU', 'local'))).toMatch(/^B4@2: unknown status code "ZZ"/);
    expect(refused(() => ediStatusEvents({ ...status('AE'), equipmentReference: undefined }, 'MAEU', 'local'))).toMatch(
      /names no container/,
    );
    expect(refused(() => ediStatusEvents({ ...status('VD'), activityLocode: undefined, ports: [] }, 'MAEU', 'local'))).toMatch(
      /status VD names no location/,
    );
    // An in-gate without a location: its local time has no zone, unless the carrier sends UTC.
    const nowhere = { ...status('I'), activityLocode: undefined, ports: [] };
    expect(refused(() => ediStatusEvents(nowhere, 'MAEU', 'local'))).toMatch(
      /^B4@2: `B4-04`\/`B4-05` \(the status\) is a local time and the message names no location/,
    );
    expect(ediStatusEvents(nowhere, 'MAEU', 'utc')[0]).toMatchObject({ eventDateTime: '2026-03-02T08:30:00.000Z' });
    expect(refused(() => ediContainerNumber({ initial: 'MSKU', number: '123456', checkDigit: '4' }, at))).toMatch(
      /wrong check digit \(ISO 6346 gives 5\)/,
    );
    expect(ediContainerNumber({ initial: 'MSKU', number: '123456', checkDigit: '5' }, at)).toBe('MSKU1234565');
    expect(refused(() => x12StatedTime('x12-b4', '20260230', '1200', undefined, at))).toMatch(/bad date/);
    expect(refused(() => x12StatedTime('x12-b4', '20260301', '2500', undefined, at))).toMatch(/bad date/);
    expect(refused(() => x12StatedTime('x12-r4-dtm', '20260301', '1200', 'XT', at))).toMatch(/unknown time code "XT"/);
    expect(refused(() => x12StatedTime('x12-b4', '20260301', '1200', 'LT', at))).toMatch(/unknown time code "LT"/);
    expect(placeTime(x12StatedTime('x12-r4-dtm', '20260301', '1200', 'ET', at), 'NLRTM', 'local')).toBe('2026-03-01T17:00:00.000Z');
    expect(refused(() => edifactStatedTime('iftsta-port', '202603011200', '303', at))).toMatch(/date format 303 is not read/);
    expect(placeTime(edifactStatedTime('iftsta-issued', '20260301', '102', at), undefined, 'local')).toBe('2026-03-01T00:00:00.000Z');
  });

  it('is printed in docs/carriers.md as it is', () => {
    for (const [marker, table] of Object.entries(ediTables())) expect(between(marker), marker).toBe(table);
    for (const field of FIELDS_EDI_LACKS) expect(docs, field).toContain(field);
    // The country list's tzdata version, as the vendored table holds it.
    expect(docs).toContain(`(tzdata ${TZDATA_VERSION})`);
  });
});
