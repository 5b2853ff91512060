import { EdiProblem, type SegmentAt } from './edi-problem.js';
import { wallTimeToInstant } from './time-zones/local-time.js';
import { zoneOfLocation } from './time-zones/location-zone.js';

/**
 * The times of EDI status messages (docs/carriers.md "Times"). The carriers' 315 guides give B4-04/05 and the
 * R4 loop's DTM as the local time of the status location, DTM-04 naming a zone or saying LT (local time); the
 * IFTSTA guides give DTM 203 times as local to the LOC they follow. So a time is read as the readers find it (a
 * StatedTime: the wall-clock time and what the message says of its zone) and placed once the whole transaction
 * is read and its locations are known (placeTime). A carrier that sends UTC says so (`tracking carrier formats
 * --times utc`): its times without a zone code are then UTC. A location whose zone cannot be known refuses the
 * transaction, naming it; nothing is guessed.
 *
 * EDI_TIME_SOURCES is what docs/carriers.md prints (test/edi-map.test.ts compares them) and what placeTime
 * follows.
 */

/** How a carrier's times without a zone code are read: as the guides say (local), or as UTC. */
export const EDI_TIMES = ['local', 'utc'] as const;
export type EdiTimes = (typeof EDI_TIMES)[number];
export const DEFAULT_EDI_TIMES: EdiTimes = 'local';

/**
 * How a time is read: `local` in the zone of its location unless the carrier sends UTC; `local-always` in the
 * zone of its location whatever the carrier's setting (the message says LT itself); `zone-code` at the fixed
 * offset of its X12 time code; `utc` as UTC (it names no location).
 */
export type TimeReading = 'local' | 'local-always' | 'zone-code' | 'utc';

export type EdiTimeSource = keyof typeof EDI_TIME_SOURCES;

/** Every place a time is read from, and how it is read. `location`: whose zone a local time is in. */
export const EDI_TIME_SOURCES = {
  'x12-b4': {
    format: 'x12-315',
    time: '`B4-04`/`B4-05` (the status)',
    reading: 'local',
    location: 'the status location (`B4-11` with `B4-12` `UN`, else the port its status code names)',
  },
  'x12-r4-dtm': {
    format: 'x12-315',
    time: '`DTM` of an `R4` loop, no `DTM-04`',
    reading: 'local',
    location: 'the `R4` port',
  },
  'x12-r4-dtm-lt': {
    format: 'x12-315',
    time: '`DTM` of an `R4` loop, `DTM-04` `LT`',
    reading: 'local-always',
    location: 'the `R4` port',
  },
  'x12-r4-dtm-zone': {
    format: 'x12-315',
    time: '`DTM` of an `R4` loop, `DTM-04` a zone code',
    reading: 'zone-code',
    location: null,
  },
  'x12-gs': {
    format: 'x12-315',
    time: '`GS04`/`GS05` (eventCreatedDateTime)',
    reading: 'utc',
    location: null,
  },
  'iftsta-status': {
    format: 'iftsta',
    time: '`DTM+334` or `DTM+7` (the status)',
    reading: 'local',
    location: 'the status location (`LOC+175`, else the port its status code names)',
  },
  'iftsta-port': {
    format: 'iftsta',
    time: '`DTM` 132, 133, 178, 186 after a `LOC+9`/`LOC+11`',
    reading: 'local',
    location: 'the port of that `LOC`',
  },
  'iftsta-issued': {
    format: 'iftsta',
    time: '`DTM+137`, else the `UNB` date (eventCreatedDateTime)',
    reading: 'utc',
    location: null,
  },
} as const satisfies Record<string, { format: string; time: string; reading: TimeReading; location: string | null }>;

/**
 * X12 time codes (DTM-04, element 623) read as a fixed offset: each names its offset (ET is the guides' Eastern
 * Time as a fixed -05:00, ED daylight time -04:00). LT is no offset: the local time of the location.
 */
export const X12_TIME_CODES: Readonly<Record<string, string>> = {
  UT: '+00:00',
  GM: '+00:00',
  Z: '+00:00',
  ET: '-05:00',
  ES: '-05:00',
  ED: '-04:00',
  CT: '-06:00',
  CS: '-06:00',
  CD: '-05:00',
  MT: '-07:00',
  MS: '-07:00',
  MD: '-06:00',
  PT: '-08:00',
  PS: '-08:00',
  PD: '-07:00',
};

/** EDIFACT date/time formats (DTM C507/2379) read; they name no zone. */
export const EDIFACT_DATE_FORMATS: Readonly<Record<string, string>> = {
  '102': 'CCYYMMDD (midnight)',
  '203': 'CCYYMMDDHHMM',
  '204': 'CCYYMMDDHHMMSS',
};

/** A time as a message states it: the wall-clock time, where it was read, and the zone code it names, if any. */
export interface StatedTime {
  source: EdiTimeSource;
  /** YYYY-MM-DDTHH:MM:SS, checked to be a date and a time of day. */
  wall: string;
  /** The offset of its X12 time code (source x12-r4-dtm-zone). */
  offset?: string;
  at: SegmentAt;
}

/** An X12 date (CCYYMMDD) and time (HHMM, HHMMSS) with its time code (DTM-04) as stated; an unknown code is a problem. */
export function x12StatedTime(
  source: 'x12-b4' | 'x12-r4-dtm' | 'x12-gs',
  date: string,
  time: string | undefined,
  timeCode: string | undefined,
  at: SegmentAt,
): StatedTime {
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(date);
  const t = /^(\d{2})(\d{2})(\d{2})?$/.exec(time ?? '0000');
  if (!d || !t) throw new EdiProblem(`bad date or time "${date.slice(0, 12)}" "${(time ?? '').slice(0, 8)}" (CCYYMMDD, HHMM)`, at);
  const wall = checkedWall(`${d[1]}-${d[2]}-${d[3]}T${t[1]}:${t[2]}:${t[3] ?? '00'}`, at);
  if (!timeCode) return { source, wall, at };
  if (timeCode === 'LT' && source === 'x12-r4-dtm') return { source: 'x12-r4-dtm-lt', wall, at };
  const offset = X12_TIME_CODES[timeCode];
  if (offset === undefined || source !== 'x12-r4-dtm')
    throw new EdiProblem(`unknown time code "${timeCode.slice(0, 4)}" (known: ${['LT', ...Object.keys(X12_TIME_CODES)].join(', ')})`, at);
  return { source: 'x12-r4-dtm-zone', wall, offset, at };
}

/** An EDIFACT DTM value in format 102, 203 or 204, as stated. */
export function edifactStatedTime(
  source: 'iftsta-status' | 'iftsta-port' | 'iftsta-issued',
  value: string,
  format: string | undefined,
  at: SegmentAt,
): StatedTime {
  const code = format ?? '203';
  const m =
    code === '102'
      ? /^(\d{4})(\d{2})(\d{2})()()()$/.exec(value)
      : code === '203'
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})()$/.exec(value)
        : code === '204'
          ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value)
          : undefined;
  if (m === undefined)
    throw new EdiProblem(`date format ${code.slice(0, 4)} is not read (${Object.keys(EDIFACT_DATE_FORMATS).join(', ')})`, at);
  if (!m) throw new EdiProblem(`bad date "${value.slice(0, 16)}" for format ${code}`, at);
  return { source, wall: checkedWall(`${m[1]}-${m[2]}-${m[3]}T${m[4] || '00'}:${m[5] || '00'}:${m[6] || '00'}`, at), at };
}

/**
 * The instant of a stated time, as canonical UTC, following EDI_TIME_SOURCES: `locode` is the location its
 * source names (undefined when the message names none). A local time is placed in the location's IANA zone
 * (src/domain/time-zones: summer time from the IANA database through Intl; a time skipped or repeated at a change
 * of summer time by the rule of local-time.ts).
 */
export function placeTime(time: StatedTime, locode: string | undefined, times: EdiTimes): string {
  const source = EDI_TIME_SOURCES[time.source];
  const reading: TimeReading = source.reading;
  const wallMs = Date.parse(`${time.wall}Z`);
  if (reading === 'zone-code') return new Date(Date.parse(`${time.wall}${time.offset ?? '+00:00'}`)).toISOString();
  if (reading === 'utc' || (reading === 'local' && times === 'utc')) return new Date(wallMs).toISOString();
  if (!locode) {
    throw new EdiProblem(
      `${source.time} is a local time and the message names no location to take its zone from (${source.location}); ` +
        `a carrier that sends UTC says so: tracking carrier formats CODE FORMATS --times utc`,
      time.at,
    );
  }
  const zone = zoneOfLocation(locode);
  if (!zone.ok) {
    throw new EdiProblem(
      `the time zone of ${locode} is not known, so the local time ${time.wall} cannot be placed: ${zone.reason} ` +
        `(send the time in UTC with a zone code, or as a carrier that sends UTC: --times utc)`,
      time.at,
    );
  }
  return new Date(wallTimeToInstant(wallMs, zone.zone)).toISOString();
}

/** The wall time if it is a date and a time of day (2026-02-30 and 25:00 are not). */
function checkedWall(text: string, at: SegmentAt): string {
  const [y, mo, d] = text.slice(0, 10).split('-').map(Number);
  const [h, mi, s] = text.slice(11).split(':').map(Number);
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  if (h! > 23 || mi! > 59 || s! > 59) throw new EdiProblem(`bad date "${text.slice(0, 19)}"`, at);
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo! - 1 || day.getUTCDate() !== d)
    throw new EdiProblem(`bad date "${text.slice(0, 10)}"`, at);
  return text;
}
