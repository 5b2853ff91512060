import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations, PREVIOUS_RELEASE_MIGRATIONS } from '../db/migrations/index.js';
import { VERSION } from '../src/domain/release.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { writesCompact } from '../src/store/encoding/write-forms.js';
import { decodeEventJson } from '../src/store/events/event-payload.js';
import { contractSteps } from '../src/store/housekeeping/contract-steps.js';
import { beat, listInstances, startHeartbeat } from '../src/store/housekeeping/instance-heartbeats.js';
import { migrateToLatest, RELEASE_MIGRATION_TABLE } from '../src/store/housekeeping/migrate.js';
import { finishUpgrade } from '../src/store/housekeeping/upgrade-finish.js';
import { FINISHED_MARK, readUpgradeState, recordedMigrations } from '../src/store/housekeeping/upgrade-state.js';
import { decodeMilestonesJson } from '../src/store/shipments/milestones-payload.js';
import { readStoredSnapshot } from '../src/store/shipments/stored-snapshots.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { maeuBackfillBundle, maeuBundle } from './support/fixture-bundle.js';

/**
 * Rolling upgrades from 0.4.0 (docs/upgrading.md), on both stores: the bookkeeping both releases accept, the
 * forms this release writes until the finish, and what finish does.
 */

/**
 * Release 0.4.0's row decoding, copied from 269978e (src/store/stored-snapshots.ts readStoredSnapshot,
 * src/store/chunked-state.ts and src/store/dcsa-events.ts for events, src/store/derived-state.ts for the milestone
 * index): it reads only the text columns, and JSON.parse('') is the SyntaxError the issue saw.
 */
const release040 = {
  async snapshot(db: Kysely<any>, shipmentId: number) {
    const row = await db
      .selectFrom('shipment_snapshot')
      .select(['version', 'tracking_json', 'exceptions_json'])
      .where('shipment_id', '=', shipmentId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      version: Number(row.version),
      tracking: JSON.parse(row.tracking_json) as unknown,
      exceptions: JSON.parse(row.exceptions_json) as unknown,
    };
  },
  async events(db: Kysely<any>) {
    const rows = await db.selectFrom('event').select(['seq', 'payload_json']).orderBy('seq').execute();
    return rows.map((r: { seq: number; payload_json: string }) => ({ seq: Number(r.seq), event: JSON.parse(r.payload_json) as unknown }));
  },
  async milestones(db: Kysely<any>) {
    const rows = await db.selectFrom('shipment').select(['id', 'milestones_json']).orderBy('id').execute();
    // "No index yet (a shipment stored before push delivery)": null reads as none; anything else is parsed.
    return rows.map((r: { id: number; milestones_json: string | null }) =>
      r.milestones_json === null ? null : (JSON.parse(r.milestones_json) as unknown),
    );
  },
};

/** 0.4.0's Migrator at its start-up: its own migrations, Kysely's default table (src/store/migrate.ts at 269978e). */
async function startRelease040(t: TestDatabase): Promise<void> {
  const all = migrations(t.database.dialect);
  const known: Record<string, Migration> = Object.fromEntries(PREVIOUS_RELEASE_MIGRATIONS.map((n) => [n, all[n]!]));
  const { error } = await new Migrator({ db: t.database.db, provider: { getMigrations: async () => known } }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

async function ingest(t: TestDatabase, raw: unknown): Promise<void> {
  const parsed = parseBundle(raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  await ingestBundle(t.database, parsed.bundle, { now: () => new Date('2026-11-20T00:00:00Z') });
}

describe.each(dialects)('a rolling upgrade from 0.4.0 on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    // The database as 0.4.0 left it.
    if (enabled) t = await createTestDatabase(name, { migrateTo: '014-tracking-requests' });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('keeps 0.4.0 starting while this release migrates, and records later migrations apart', async () => {
    const applied = await migrateToLatest(t.database);
    expect(applied).toEqual(Object.keys(migrations(t.database.dialect)).filter((n) => !PREVIOUS_RELEASE_MIGRATIONS.includes(n)));
    expect(await recordedMigrations(t.database.db)).toEqual([...PREVIOUS_RELEASE_MIGRATIONS]);
    await expect(startRelease040(t)).resolves.toBeUndefined();
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(RELEASE_MIGRATION_TABLE)} order by name`.execute(
      t.database.db,
    );
    expect(rows.map((r) => r.name)).toEqual(applied);
    // Both start again, in either order.
    expect(await migrateToLatest(t.database)).toEqual([]);
    await expect(startRelease040(t)).resolves.toBeUndefined();
    expect(await readUpgradeState(t.database.db)).toEqual({ writesCompact: false, pending: Object.keys(contractSteps()), finished: false });
  });

  it.skipIf(!enabled)('writes only what 0.4.0 reads until the finish, and reads it itself', async () => {
    expect(writesCompact(t.database.db)).toBe(false);
    await ingest(t, maeuBundle());
    await ingest(t, maeuBackfillBundle());
    const db = t.database.db as Kysely<any>;
    const events = await release040.events(db);
    expect(events.length).toBeGreaterThan(10);
    const shipments = await db.selectFrom('shipment').select('id').orderBy('id').execute();
    for (const { id } of shipments) expect(await release040.snapshot(db, id)).toMatchObject({ version: expect.any(Number) });
    const milestones = await release040.milestones(db);
    expect(milestones.some((m: unknown) => m !== null)).toBe(true);
    // No compact column filled that a 0.4.0 write would leave stale.
    const compact = await db.selectFrom('event').select('seq').where('payload', 'is not', null).execute();
    expect(compact).toEqual([]);
    const snapshotForms = await db.selectFrom('shipment_snapshot').select('stored_form').distinct().execute();
    expect(snapshotForms.map((r: { stored_form: number }) => Number(r.stored_form))).toEqual([0]);
  });

  it.skipIf(!enabled)('refuses to finish while an older release is alive, and until the operator says 0.4.0 is stopped', async () => {
    const now = new Date();
    await beat(t.database.db, t.database.dialect, { id: 'old-host:1', version: '0.4.9', startedAt: now.toISOString() }, now);
    const blocked = await finishUpgrade(t.database, { propagationMs: 0 });
    expect(blocked).toMatchObject({ status: 'older-instances-alive', instances: [{ id: 'old-host:1', version: '0.4.9', alive: true }] });
    // Half a minute without a beat: no longer alive.
    const later = new Date(now.getTime() + 31_000);
    expect(await listInstances(t.database.db, later)).toMatchObject([{ id: 'old-host:1', alive: false }]);
    expect(await finishUpgrade(t.database, { propagationMs: 0, now: () => later })).toEqual({
      status: 'previous-release-may-run',
      previousVersion: '0.4.0',
    });
    expect((await readUpgradeState(t.database.db)).writesCompact).toBe(false);
  });

  it.skipIf(!enabled)(
    'finishes: the contract steps rewrite every row compact, reads give the same, and 0.4.0 can no longer start',
    async () => {
      const db = t.database.db as Kysely<any>;
      const shipments = (await db.selectFrom('shipment').select('id').orderBy('id').execute()).map((r: { id: number }) => r.id);
      const read = async () => ({
        events: (await db.selectFrom('event').select(['seq', 'payload', 'payload_json']).orderBy('seq').execute()).map(decodeEventJson),
        milestones: (await db.selectFrom('shipment').select(['milestones', 'milestones_json']).orderBy('id').execute()).map(
          decodeMilestonesJson,
        ),
        snapshots: await Promise.all(
          shipments.map((id: number) => readStoredSnapshot(db, id, new Set(['tracking', 'exceptions'] as const))),
        ),
      });
      const before = await read();
      const later = new Date(Date.now() + 31_000);
      expect(await finishUpgrade(t.database, { previousReleaseStopped: true, propagationMs: 0, now: () => later })).toEqual({
        status: 'finished',
        ran: Object.keys(contractSteps()),
      });
      expect(writesCompact(t.database.db)).toBe(true);
      const after = await read();
      expect(after.events).toEqual(before.events);
      expect(after.milestones).toEqual(before.milestones);
      expect(after.snapshots.map((s) => ({ ...s, bytes: 0 }))).toEqual(before.snapshots.map((s) => ({ ...s, bytes: 0 })));
      expect(await db.selectFrom('event').select('seq').where('payload', 'is', null).execute()).toEqual([]);
      expect(await db.selectFrom('shipment_snapshot').select('shipment_id').where('stored_form', '=', 0).execute()).toEqual([]);
      await expect(startRelease040(t)).rejects.toThrow(`corrupted migrations: previously executed migration ${FINISHED_MARK} is missing`);
      expect(await finishUpgrade(t.database, {})).toEqual({ status: 'nothing-to-do' });
      expect(await migrateToLatest(t.database)).toEqual([]);
    },
  );
});

describe.each(dialects)('a database this release creates on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('is finished at once: compact writes, nothing pending, 0.4.0 refuses it', async () => {
    expect(await readUpgradeState(t.database.db)).toEqual({ writesCompact: true, pending: [], finished: true });
    expect(writesCompact(t.database.db)).toBe(true);
    await expect(startRelease040(t)).rejects.toThrow(/corrupted migrations/);
  });

  it.skipIf(!enabled)('lists instances by heartbeat with their release, and forgets one that stops', async () => {
    const heartbeat = await startHeartbeat(t.database.db, t.database.dialect, { intervalMs: 60_000 });
    expect(await listInstances(t.database.db, new Date())).toMatchObject([{ id: heartbeat.id, version: VERSION, alive: true }]);
    await heartbeat.stop();
    expect(await listInstances(t.database.db, new Date())).toEqual([]);
  });
});

describe.each(dialects)('a database migrated by an unreleased build (015-023 in kysely_migration) on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name, { migrateTo: '001-initial' });
    // What main before 0.5.0 did: every migration in Kysely's own table.
    const all = migrations(t.database.dialect);
    const { '024-instance-heartbeats': _later, ...before } = all;
    const { error } = await new Migrator({ db: t.database.db, provider: { getMigrations: async () => before } }).migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)(
    'is taken over as it is: only the new migration runs, 0.4.0 keeps refusing it, finish needs no word about 0.4.0',
    async () => {
      expect(await migrateToLatest(t.database)).toEqual(['024-instance-heartbeats']);
      expect(await migrateToLatest(t.database)).toEqual([]);
      await expect(startRelease040(t)).rejects.toThrow(/corrupted migrations/);
      expect(await finishUpgrade(t.database, { propagationMs: 0 })).toMatchObject({ status: 'finished' });
    },
  );
});
