import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearException } from '../src/store/shipment-writes/exception-clear.js';
import { readStoredSnapshot } from '../src/store/shipments/stored-snapshots.js';
import { evaluateTimeRules } from '../src/store/shipment-writes/time-rules.js';
import { runCaptured } from './support/cli-run.js';
import { dialects } from './support/databases.js';
import { createSandboxApp, SANDBOX_LOOKUPS, SANDBOX_SEEDED_AT, type SandboxApp } from './support/sandbox-app.js';

/**
 * Lookups serve the snapshot stored at the shipment's version
 * (src/store/shipments/stored-snapshots.ts) instead of assembling it per read. What a
 * client relies on: the stored snapshot is exactly what assembly from the
 * stored parts gives, it moves with every change that moves the version, and
 * a shipment without one (stored before snapshots were) is served the same.
 * The in-memory cache is off here so every lookup reads the store.
 */
describe.each(dialects)('stored snapshots on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  beforeAll(async () => {
    if (enabled) f = await createSandboxApp(name, { snapshotCacheBytes: 0 } as never);
  });
  afterAll(async () => f?.destroy());

  const db = () => f.t.database.db;

  async function trackingOf(query: string): Promise<unknown> {
    const response = await f.get(`/v2/shipments?${query}`, f.token);
    expect(response.status).toBe(200);
    return ((await response.json()) as { shipmentTracking: unknown }).shipmentTracking;
  }

  async function servedAll(): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [label, query] of Object.entries(SANDBOX_LOOKUPS)) out[label] = await trackingOf(query);
    return out;
  }

  /** Shipments whose stored snapshot is missing or not at the shipment's version. */
  async function stale(): Promise<number[]> {
    const rows = await db()
      .selectFrom('shipment as s')
      .leftJoin('shipment_snapshot as ss', 'ss.shipment_id', 's.id')
      .select(['s.id', 's.version', 'ss.version as snapshot_version'])
      .execute();
    return rows.filter((r) => Number(r.snapshot_version) !== Number(r.version)).map((r) => r.id);
  }

  it.skipIf(!enabled)('every ingested shipment has its snapshot at its current version', async () => {
    expect(await db().selectFrom('shipment').select('id').execute()).not.toHaveLength(0);
    expect(await stale()).toEqual([]);
  });

  it.skipIf(!enabled)('serves what assembly from the parts gives: the same body with and without stored snapshots', async () => {
    const stored = await servedAll();
    const saved = await db().selectFrom('shipment_snapshot').selectAll().execute();
    await db().deleteFrom('shipment_snapshot').execute();
    try {
      expect(await servedAll()).toEqual(stored);
    } finally {
      await db().insertInto('shipment_snapshot').values(saved).execute();
    }
  });

  it.skipIf(!enabled)('the clock and an operator clear move the snapshot with the version', async () => {
    // A day on, a sandbox free-time window has moved: a version moves, and its snapshot with it.
    const later = new Date(SANDBOX_SEEDED_AT.getTime() + 86_400_000);
    const { changed } = await evaluateTimeRules(f.t.database, f.config.thresholds, later);
    expect(changed).toBeGreaterThan(0);
    expect(await stale()).toEqual([]);

    const open = await db()
      .selectFrom('tracking_exception')
      .select(['exception_id', 'shipment_id'])
      .where('status', '=', 'DETECTED')
      .orderBy('exception_id')
      .executeTakeFirst();
    expect(open).toBeDefined();
    await clearException(f.t.database, open?.exception_id ?? '', 'checked with the carrier', later);
    expect(await stale()).toEqual([]);
    const snapshot = await readStoredSnapshot(db(), open?.shipment_id ?? 0, new Set(['exceptions']));
    const cleared = (snapshot?.exceptions ?? []).find((e) => e.exceptionID === open?.exception_id);
    expect(cleared?.status).toBe('RESOLVED');
  });

  it.skipIf(!enabled)('`tracking migrate` backfills shipments stored before snapshots were, and they are served the same', async () => {
    const before = await servedAll();
    const ids = (await db().selectFrom('shipment').select('id').execute()).map((r) => r.id);
    await db().deleteFrom('shipment_snapshot').where('shipment_id', 'in', ids.slice(0, 3)).execute();
    expect(await stale()).toHaveLength(3);
    expect(await servedAll()).toEqual(before);
    const migrate = await runCaptured(['migrate'], { env: { DATABASE_URL: f.t.url }, database: f.t.database });
    expect(migrate.code).toBe(0);
    expect(await stale()).toEqual([]);
    expect(await servedAll()).toEqual(before);
  });
});
