/**
 * Canonical timestamps: every stored and served timestamp is UTC with
 * millisecond precision and a `Z` suffix, so string order is time order.
 */

// ISO 8601 date-time with a mandatory offset (Z or ±hh:mm); DCSA eventDateTime
// is local time with offset, and a timestamp without one is ambiguous.
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an ISO 8601 timestamp with offset; returns canonical UTC or null when malformed. */
export function toUtcIso(value: string): string | null {
  const m = ISO_WITH_OFFSET.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction, offset] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? '0');
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  // Reject calendar overflow such as 2026-02-30, which Date would silently roll over.
  if (day > daysInMonth(Number(y), month)) return null;
  // Already canonical (UTC, seconds and milliseconds given): Date would give back the same string.
  if (offset === 'Z' && fraction?.length === 3) return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString();
}

/**
 * Days in the month, as `new Date(Date.UTC(year, month, 0)).getUTCDate()`
 * gives them, without allocating a Date: Date.UTC reads the years 0 to 99 as
 * 1900 to 1999, so 0000-02-29 stays rejected as it always was.
 */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  const y = year <= 99 ? 1900 + year : year;
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
}

export function hoursBetween(fromIso: string, toIso: string): number {
  return (Date.parse(toIso) - Date.parse(fromIso)) / 3_600_000;
}

export function addHours(iso: string, hours: number): string {
  return new Date(Date.parse(iso) + hours * 3_600_000).toISOString();
}
