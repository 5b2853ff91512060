/**
 * A wall-clock time in an IANA zone as an instant (docs/carriers.md "Times"). The offsets, daylight saving
 * included, are the IANA database's as Node's ICU holds it, read through Intl; no offset is written here.
 *
 * At a change of summer time a local time may not exist (the hour skipped in spring) or exist twice (the hour
 * repeated in autumn). The rule, RFC 5545's and Temporal's `disambiguation: 'compatible'`:
 * - a time that exists twice is the earlier of the two (the summer-time one);
 * - a time that does not exist is read with the offset in force before the change, so it lands as far after
 *   the change as it names after the change's start (02:30 on a day the clocks go from 02:00 to 03:00 is 03:30).
 * Pure: Intl is data, not I/O.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's UTC offset at an instant, in milliseconds (whole seconds). */
export function zoneOffsetAt(zone: string, epochMs: number): number {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(epochMs)) parts[p.type] = p.value;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(epochMs / 1000) * 1000;
}

/** Whether Intl knows the zone. */
export function isKnownZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

const DAY = 86_400_000;

/**
 * The instant of a wall-clock time (`wallMs`: the wall time's fields read as if UTC, Date.UTC(...)) in a zone.
 * Offsets a day before and a day after bracket any change of summer time near it (zones change at most once a day).
 */
export function wallTimeToInstant(wallMs: number, zone: string): number {
  const before = zoneOffsetAt(zone, wallMs - DAY);
  const after = zoneOffsetAt(zone, wallMs + DAY);
  const fits = [...new Set([before, after])].map((offset) => wallMs - offset).filter((t) => wallMs - zoneOffsetAt(zone, t) === t);
  if (fits.length > 0) return Math.min(...fits);
  // In the hour skipped: the offset before the change.
  return wallMs - before;
}
