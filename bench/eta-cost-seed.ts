import { createConnection } from 'mysql2/promise';
import { connectDatabase } from '../src/db/connect.js';
import { orderCommittedChanges } from '../src/store/changes/change-order.js';
import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
import { readUpgradeState } from '../src/store/housekeeping/upgrade-state.js';
import { ingestWorld } from './eta/ingest-world.js';
import { DEFAULT_WORLD, simulateWorld } from './eta/world.js';
import { bundleIndexes, bundleOf } from './generate.js';
import { emptyTiming, ingestRaw } from './seed.js';
import { databaseUrl, type SeedVariant } from './upgrade-seed.js';

/**
 * The seed of the ETA training's cost (bench/eta-cost.ts): bench/upgrade-seed.ts's seed by copies at the current
 * schema (every migration applied, the upgrade finished: a fresh database, so the service writes the compact forms).
 *
 * Its templates are what training learns from, as the service would have received it:
 * - the predicted-arrival evaluation's world (bench/eta/world.ts, seed 1: 1,705 voyages of 5 carriers on 17 lanes,
 *   about 10 transport events each: plans, the carrier's ETAs as they moved, actual departures and arrivals),
 *   ingested poll by poll through the real ingest paths (bench/eta/ingest-world.ts: DCSA bundles and X12 315s,
 *   each with `now` the poll's time, so `ingested_at` is when the service got it);
 * - shipments of bench/generate.ts's full profile (4 containers, 59 events: equipment and transport events, a
 *   carrier ETA but no actual arrival: voyages still under way), as many as bring the average to 20 events per
 *   shipment (the 1,000,000 shipments / 20,000,000 events).
 * Copy k of a world booking MAEU490000123 is MAEU49 and 123 + k times the stride, 7 digits; of a generated one,
 * generate.ts's key of index + k times the stride.
 */

/** Events per shipment the templates average. */
export const EVENTS_PER_SHIPMENT = 20;
const FULL_PROFILE_EVENTS = 59;

async function createCurrentDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = await createConnection(serverUrl);
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(serverUrl, name);
  const database = connectDatabase(url, { poolSize: 2 });
  try {
    // A fresh database: every migration, the upgrade recorded finished (src/store/housekeeping/migrate.ts).
    await migrateToLatest(database);
    const state = await readUpgradeState(database.db);
    if (!state.writesCompact) throw new Error(`${name} does not write the compact forms: the upgrade is not finished`);
  } finally {
    await database.close();
  }
  return url;
}

export const CURRENT_SCHEMA_SEED: SeedVariant = {
  createDatabase: createCurrentDatabase,
  async ingestTemplates(database) {
    const world = simulateWorld({ ...DEFAULT_WORLD, seed: 1 });
    const ingested = await ingestWorld(database, world);
    const events = async () => {
      const row = await database.db
        .selectFrom('event')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const worldEvents = await events();
    const voyages = world.shipments.length;
    // Full-profile shipments so that the templates average EVENTS_PER_SHIPMENT events.
    const full = Math.max(0, Math.ceil((EVENTS_PER_SHIPMENT * voyages - worldEvents) / (FULL_PROFILE_EVENTS - EVENTS_PER_SHIPMENT)));
    const timing = emptyTiming();
    for (const indexes of bundleIndexes(full, 250, 0)) await ingestRaw(database, bundleOf(indexes, { profile: 'full' }), timing);
    const total = await events();
    // The change log in commit order, as a running service's readers keep it (src/store/changes/change-order.ts):
    // copies of unnumbered rows would be numbered by the first reader after the seed, i.e. by the training run
    // (at a million shipments, 4.7 million rows before its first batch: its lease ran out).
    await orderCommittedChanges(database.db);
    return (
      `templates: ${voyages} voyages of bench/eta/world.ts (seed 1; ${worldEvents} events stored by ${ingested.bundles} DCSA bundles ` +
      `and ${ingested.interchanges} X12 315s) and ${full} full-profile shipments (${total - worldEvents} events), ` +
      `${(total / (voyages + full)).toFixed(1)} events per shipment,`
    );
  },
  skippedTriggers: null,
  extraTables: [
    {
      name: 'shipment_alias',
      join: 's.id = x.shipment_id',
      shipmentId: 'shipment_id',
      serials: ['carrier_booking_reference'],
      order: 't.shipment_id, t.carrier_booking_reference',
    },
    {
      name: 'shipment_bill_of_lading',
      join: 's.carrier_code = x.carrier_code AND s.bill_of_lading_number = x.bill_of_lading_number',
      shipmentId: null,
      serials: ['bill_of_lading_number'],
      order: 't.carrier_code, t.bill_of_lading_number',
    },
  ],
};
