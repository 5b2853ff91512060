import { createConnection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchDatabase, openKeptBenchDatabase, type BenchDatabase } from '../bench/databases.js';
import { bundleOf } from '../bench/generate.js';
import { emptyTiming, ingestRaw } from '../bench/seed.js';
import { warmBufferPool } from '../bench/warm-pool.js';
import { TEST_MYSQL_URL } from './support/databases.js';

/**
 * `npm run bench -- --reuse-seed` measures a kept bench database as it is, and must refuse one that is not the
 * seed asked for: the wrong number of shipments, or migrations other than the code's (bench/README.md, Scale runs).
 */
describe.skipIf(!TEST_MYSQL_URL)('bench --reuse-seed: the kept database', () => {
  const base = 'tt_bench_reuse_check';
  let kept: BenchDatabase;
  let name: string;

  beforeAll(async () => {
    process.env.BENCH_MYSQL_URL = TEST_MYSQL_URL;
    kept = await createBenchDatabase('mysql', base);
    name = new URL(kept.url).pathname.slice(1);
    // The seed's shipments 0, 1 and 2, through the real ingest path.
    await ingestRaw(kept.database, bundleOf([0, 1, 2], {}), emptyTiming());
  });

  afterAll(async () => {
    await kept?.destroy();
  });

  it('opens a database holding exactly the shipments asked, and leaves it in place', async () => {
    const reused = await openKeptBenchDatabase(base, 3);
    await reused.destroy();
    const rows = await kept.database.db.selectFrom('shipment').select('id').execute();
    expect(rows).toHaveLength(3);
  });

  it('refuses another number of shipments, saying how many it holds', async () => {
    await expect(openKeptBenchDatabase(base, 5)).rejects.toThrow(`${name} holds 3 seeded shipments, not the 5 asked: give --shipments 3`);
    await expect(openKeptBenchDatabase(base, 2)).rejects.toThrow('holds 3 seeded shipments, not the 2 asked');
  });

  it('refuses a database behind the code’s migrations', async () => {
    const admin = await createConnection(`${TEST_MYSQL_URL}`);
    try {
      const [rows] = await admin.query(`select name from \`${name}\`.release_migration order by name desc limit 1`);
      const last = (rows as { name: string }[])[0]?.name ?? '';
      await admin.query(`delete from \`${name}\`.release_migration where name = ?`, [last]);
      await expect(openKeptBenchDatabase(base, 3)).rejects.toThrow(`lacks the code's migrations ${last}: it is behind the code`);
      await admin.query(`insert into \`${name}\`.release_migration (name, timestamp) values (?, ?)`, [last, new Date().toISOString()]);
    } finally {
      await admin.end();
    }
  });

  it('refuses a server without the bench database', async () => {
    await expect(openKeptBenchDatabase('tt_bench_reuse_none', 3)).rejects.toThrow(/has no database tt_bench_reuse_none/);
  });

  it('warms the buffer pool with every index of the lookup tables before a stage is measured', async () => {
    const warmed = await warmBufferPool(kept);
    expect(warmed.tables).toBe(6);
    // The shipment table alone has its primary key and the identifier indexes the lookups use.
    expect(warmed.indexes).toBeGreaterThan(6);
    expect(warmed.mebibytes).toBeGreaterThan(0);
  });
});
