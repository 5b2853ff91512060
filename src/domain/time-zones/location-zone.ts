import table from './location-zones.json' with { type: 'json' };

/**
 * The IANA time zone of a location named by its UN/LOCODE (docs/carriers.md "Times"): the zone its local times
 * are read in. The table (location-zones.json) is vendored by scripts/vendor-location-zones.ts and names its
 * sources and the tzdata version of its country list:
 *
 * - a country with one zone (zone.tab lists one, or its zones have kept the same time since 2015) gives its
 *   zone to every location of it;
 * - a country with several gives a location the zone of its own entry, found from the entry's coordinates;
 * - any other location has no zone that can be known, and is never given one by a guess.
 *
 * Pure: the table is data, read once.
 */

export type LocationZone = { ok: true; zone: string } | { ok: false; reason: string };

interface ZoneTable {
  tzdata: string;
  locationSource: string;
  singleZone: Record<string, string>;
  multiZone: Record<string, string[]>;
  /** Zone -> the space-separated UN/LOCODEs in it (compact: one string per zone). */
  locations: Record<string, string>;
}

const zones: ZoneTable = table;

/** The tzdata version of the country list (zone.tab), for the docs and error messages. */
export const TZDATA_VERSION = zones.tzdata;

let byLocation: Map<string, string> | undefined;

function locationZones(): Map<string, string> {
  if (!byLocation) {
    byLocation = new Map();
    for (const [zone, codes] of Object.entries(zones.locations)) for (const code of codes.split(' ')) byLocation.set(code, zone);
  }
  return byLocation;
}

export function zoneOfLocation(locode: string): LocationZone {
  const country = locode.slice(0, 2);
  const single = zones.singleZone[country];
  if (single) return { ok: true, zone: single };
  const several = zones.multiZone[country];
  if (!several) return { ok: false, reason: `${country} is no country of the IANA time zone database (tzdata ${zones.tzdata} zone.tab)` };
  const zone = locationZones().get(locode);
  if (zone) return { ok: true, zone };
  return {
    ok: false,
    reason:
      `${country} has ${several.length} time zones and the location table has no entry for ${locode}, ` +
      `so its local time cannot be placed`,
  };
}
