/**
 * Writes the time-zone table the EDI readers take a location's zone from (src/domain/time-zones/location-zones.json,
 * read by src/domain/time-zones/location-zone.ts; docs/carriers.md "Times"):
 *
 * - every country's zones, from the IANA time zone database's zone.tab (its tzdata version, from tzdata.zi
 *   beside it, is written into the table);
 * - zones of one country that have had the same UTC offset at every instant from 2015 to 2037 (as Node's ICU
 *   tells, sampled daily and each change found to the minute) count as one: such a country has one zone
 *   (Germany's Europe/Busingen keeps Europe/Berlin's time, Argentina's zones keep Buenos Aires'), and its
 *   principal zone (the first zone.tab lists) is the zone of all its locations;
 * - for a country left with several zones, each location's zone is found from its coordinates in the
 *   time-zone boundaries of timezone-boundary-builder (the `geo-tz` package, `geo-tz/all`: every IANA zone),
 *   kept only when zone.tab lists that zone for the country. The coordinates are UN/LOCODE's own (the
 *   `coordinates` column, "DDMMN DDDMMW"). A location whose table also names a zone (`timezone`; the
 *   sea-ports package's own zone in the table used) that keeps other time than the coordinates' is left out:
 *   two sources that disagree are not settled by a guess. A location without coordinates takes its subdivision's zone when the subdivision's
 *   located entries (at least three) all keep one time.
 *
 * Usage (geo-tz is not a dependency of the service: install it where the script runs, e.g.
 * `npm install --no-save geo-tz@8` in the working directory):
 * `npx tsx scripts/vendor-location-zones.ts ZONEINFO_DIR "SOURCE NAME" TABLE.csv [MORE.csv …]`. A table is a
 * CSV with the columns `unlocode`, `subdivision`, `coordinates` and, optionally, `timezone`; the first table
 * that names a location wins. Then `npx prettier --write src/domain/time-zones/location-zones.json`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zoneOffsetAt } from '../src/domain/time-zones/local-time.js';

const [zoneinfo, sourceName, ...tables] = process.argv.slice(2);
if (!zoneinfo || !sourceName || tables.length === 0) {
  console.error('usage: npx tsx scripts/vendor-location-zones.ts ZONEINFO_DIR "SOURCE NAME" TABLE.csv [MORE.csv …]');
  process.exit(2);
}

const tzdataVersion = /^# version (\S+)/m.exec(readFileSync(join(zoneinfo, 'tzdata.zi'), 'utf8'))?.[1];
if (!tzdataVersion) throw new Error(`no "# version" line in ${join(zoneinfo, 'tzdata.zi')}`);

const countryZones = new Map<string, string[]>();
for (const line of readFileSync(join(zoneinfo, 'zone.tab'), 'utf8').split('\n')) {
  if (line.startsWith('#') || line.trim() === '') continue;
  const [country, , zone] = line.split('\t');
  if (!country || !zone) continue;
  countryZones.set(country, [...(countryZones.get(country) ?? []), zone]);
}

/** The zone's UTC offset at an instant, in whole minutes: the service's own reading of the IANA data (Intl). */
function offsetMinutes(zone: string, ms: number): number {
  return Math.round(zoneOffsetAt(zone, ms) / 60_000);
}

/** The zone's offsets from 2015 to 2037: the offset at the start and every change, to the minute. */
const histories = new Map<string, string>();
function history(zone: string): string {
  const known = histories.get(zone);
  if (known !== undefined) return known;
  const day = 86_400_000;
  const start = Date.UTC(2015, 0, 1);
  const end = Date.UTC(2038, 0, 1);
  let previous = offsetMinutes(zone, start);
  const changes = [`${start}:${previous}`];
  for (let t = start + day; t < end; t += day) {
    const now = offsetMinutes(zone, t);
    if (now === previous) continue;
    let lo = t - day;
    let hi = t;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offsetMinutes(zone, mid) === previous) lo = mid;
      else hi = mid;
    }
    changes.push(`${hi}:${now}`);
    previous = now;
  }
  histories.set(zone, changes.join(','));
  return changes.join(',');
}

const singleZone: Record<string, string> = {};
const multiZone: Record<string, string[]> = {};
for (const [country, zones] of [...countryZones].sort(([a], [b]) => a.localeCompare(b))) {
  const kinds = new Set(zones.map(history));
  if (kinds.size === 1) singleZone[country] = zones[0]!;
  else multiZone[country] = zones;
}

/** The fields of a CSV line; the tables escape a comma inside a name as `","`, which only names hold. */
function fields(line: string): string[] {
  return line.replace(/","/g, ' ').split(',');
}

/** UN/LOCODE coordinates, "DDMMN DDDMMW", as degrees; undefined when absent or malformed. */
function coordinates(text: string): { lat: number; lon: number } | undefined {
  const m = /^(\d{2})(\d{2})([NS]) (\d{3})(\d{2})([EW])$/.exec(text.trim());
  if (!m) return undefined;
  const lat = (Number(m[1]) + Number(m[2]) / 60) * (m[3] === 'S' ? -1 : 1);
  const lon = (Number(m[4]) + Number(m[5]) / 60) * (m[6] === 'W' ? -1 : 1);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined;
}

// Resolved from the working directory: geo-tz is installed where the script runs, not in the service's dependencies.
const { find } = createRequire(join(process.cwd(), 'package.json'))('geo-tz/all') as { find: (lat: number, lon: number) => string[] };
const sameTime = (a: string, b: string) => a === b || history(a) === history(b);

const locations = new Map<string, string>();
const subdivisionOf = new Map<string, string>();
/** Every row's verdict: the first table that locates a location decides it; a row without coordinates defers to later tables. */
const decided = new Set<string>();
const seen = new Set<string>();
const left = { malformed: 0, outside: 0, disagreeing: 0, unlocated: 0 };
for (const table of tables) {
  const [header, ...lines] = readFileSync(table, 'utf8').split('\n');
  const columns = fields(header ?? '');
  const at = (name: string) => columns.indexOf(name);
  if (at('unlocode') < 0 || at('coordinates') < 0 || at('subdivision') < 0)
    throw new Error(`${table}: no unlocode, subdivision or coordinates column`);
  for (const line of lines) {
    if (line.trim() === '') continue;
    const f = fields(line);
    if (f.length !== columns.length) {
      left.malformed += 1;
      continue;
    }
    const code = f[at('unlocode')] ?? '';
    const country = code.slice(0, 2);
    const zones = multiZone[country];
    if (!/^[A-Z]{2}[A-Z2-9]{3}$/.test(code) || !zones || decided.has(code)) continue;
    seen.add(code);
    if (f[at('subdivision')] && !subdivisionOf.has(code)) subdivisionOf.set(code, `${country}-${f[at('subdivision')]}`);
    const place = coordinates(f[at('coordinates')] ?? '');
    if (!place) continue;
    decided.add(code);
    const zone = find(place.lat, place.lon).find((z) => zones.includes(z));
    if (!zone) {
      left.outside += 1;
      continue;
    }
    const named = at('timezone') >= 0 ? f[at('timezone')] : undefined;
    if (named && zones.includes(named) && !sameTime(named, zone)) {
      left.disagreeing += 1;
      continue;
    }
    locations.set(code, zone);
  }
}
const unlocated = [...seen].filter((code) => !decided.has(code)).map((code) => ({ code, subdivision: subdivisionOf.get(code) ?? '' }));
// A subdivision whose located entries (three or more) all keep one time lends it to its entries without coordinates.
const subdivisionZones = new Map<string, string[]>();
for (const [code, zone] of locations) {
  const sub = subdivisionOf.get(code);
  if (sub) subdivisionZones.set(sub, [...(subdivisionZones.get(sub) ?? []), zone]);
}
for (const { code, subdivision } of unlocated) {
  const zones = subdivisionZones.get(subdivision) ?? [];
  if (zones.length >= 3 && zones.every((z) => sameTime(z, zones[0]!))) locations.set(code, zones[0]!);
  else left.unlocated += 1;
}

const byZone: Record<string, string> = {};
for (const [code, zone] of [...locations].sort(([a], [b]) => a.localeCompare(b))) {
  byZone[zone] = byZone[zone] ? `${byZone[zone]} ${code}` : code;
}
const target = fileURLToPath(new URL('../src/domain/time-zones/location-zones.json', import.meta.url));
const sorted = Object.fromEntries(Object.entries(byZone).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(
  target,
  `${JSON.stringify(
    {
      tzdata: tzdataVersion,
      icuTz: process.versions.tz ?? null,
      locationSource: sourceName,
      singleZone,
      multiZone,
      locations: sorted,
    },
    null,
    2,
  )}\n`,
);
console.log(
  `wrote ${target}: tzdata ${tzdataVersion}, ${Object.keys(singleZone).length} countries of one zone, ` +
    `${Object.keys(multiZone).length} of several, ${locations.size} locations of theirs (left out: ${JSON.stringify(left)})`,
);
