/**
 * `npx tsx bench/snapshot-forms.ts`: in process, on SQLite, the two sides of compact stored snapshots
 * (bench/README.md, Compact stored snapshots), each as alternated passes in one window:
 *
 * - a first lookup's service time (GET /v2/shipments through app.fetch, snapshot cache off) with the rows in the
 *   old stored form (plain JSON: parse, walk, serialize) and in the compact form with the stored REST rendering;
 * - the snapshot writer's time per shipment, before (two JSON.stringify) and after (rendering, three deflates).
 */
import { createApp } from '../src/app/create-app.js';
import { loadConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { snapshotTrackingParts } from '../src/domain/snapshot.js';
import { createLogger } from '../src/observability/logger.js';
import { loadShipmentStates } from '../src/store/shipments/chunked-state.js';
import { loadLifecycleRows } from '../src/store/exceptions/exception-state.js';
import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
import { decompressText } from '../src/store/encoding/snapshot-compression.js';
import { backfillCompactSnapshots, snapshotRow, storedSnapshotOf } from '../src/store/shipments/stored-snapshots.js';
import { BENCH_ACCOUNT, bundleOf, shipmentKey } from './generate.js';
import { emptyTiming, ingestRaw } from './seed.js';

const BASE = 'http://localhost:3000';
const N = 200;
const ROUNDS = 7;
const median = (a: readonly number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;

const db = connectDatabase('sqlite::memory:');
await migrateToLatest(db);
const timing = emptyTiming();
for (let i = 0; i < N; i += 10) await ingestRaw(db, bundleOf([...Array(10).keys()].map((k) => i + k)), timing);

const config = loadConfig({
  TT_BASE_URL: BASE,
  TT_EVALUATE_INTERVAL_SECONDS: '0',
  TT_QUOTA_LOOKUPS_PER_MINUTE: '1000000',
  TT_QUOTA_LOOKUPS_BURST: '1000000',
});
const app = await createApp({ config, database: db, logger: createLogger('silent'), snapshotCacheBytes: 0, clientCacheTtlMs: 60_000 });
const creds = await app.clients.createClient({ name: 'snapshot-forms', account: BENCH_ACCOUNT });
const tokenResponse = await app.fetch(`${BASE}/oauth/token`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: creds.client_id,
    client_secret: creds.client_secret,
  }).toString(),
});
const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
const keys = [...Array(N).keys()].map((i) => shipmentKey(i));

/** µs per lookup over every shipment once. */
async function pass(): Promise<number> {
  const t0 = performance.now();
  for (const k of keys) {
    const query = `carrierCode=${k.carrierCode}&carrierBookingReference=${k.carrierBookingReference}`;
    const response = await app.fetch(`${BASE}/v2/shipments?${query}`, { headers: { Authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
    await response.text();
  }
  return ((performance.now() - t0) * 1000) / keys.length;
}

/** Every row as migration 007 stored it. */
async function toOldForm(): Promise<void> {
  for (const r of await db.db.selectFrom('shipment_snapshot').selectAll().execute()) {
    await db.db
      .updateTable('shipment_snapshot')
      .set({
        stored_form: 0,
        tracking_json: decompressText(r.tracking_z),
        exceptions_json: decompressText(r.exceptions_z),
        tracking_z: null,
        exceptions_z: null,
        rest_tracking_z: null,
      })
      .where('shipment_id', '=', r.shipment_id)
      .execute();
  }
}

await pass();
const lookups = { old: [] as number[], compact: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  await toOldForm();
  await pass();
  lookups.old.push(await pass());
  await backfillCompactSnapshots(db.db);
  await pass();
  lookups.compact.push(await pass());
}

const ids = (await db.db.selectFrom('shipment').select('id').execute()).map((r) => r.id);
const states = [...(await loadShipmentStates(db.db, db.dialect, ids)).values()];
const exceptions = await loadLifecycleRows(db.db, ids);
const writer = { old: [] as number[], compact: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  let t0 = performance.now();
  for (const s of states) {
    JSON.stringify(snapshotTrackingParts(s.containers, s.events));
    JSON.stringify((exceptions.get(s.id) ?? []).map((r) => r.body));
  }
  writer.old.push(((performance.now() - t0) * 1000) / states.length);
  t0 = performance.now();
  for (const s of states)
    snapshotRow(
      storedSnapshotOf(
        s,
        s.containers,
        s.events,
        (exceptions.get(s.id) ?? []).map((r) => r.body),
      ),
    );
  writer.compact.push(((performance.now() - t0) * 1000) / states.length);
}

const line = (label: string, values: readonly number[]) =>
  console.log(`${label}: median ${Math.round(median(values))} µs (passes ${values.map(Math.round).join(', ')})`);
line('first lookup, old form (parse, walk, serialize)', lookups.old);
line('first lookup, compact form (stored rendering)', lookups.compact);
console.log(`old/compact ${(median(lookups.old) / median(lookups.compact)).toFixed(2)}`);
line('writer per shipment, old (two JSON.stringify)', writer.old);
line('writer per shipment, compact (rendering, three deflates)', writer.compact);
await app.close();
await db.close();
