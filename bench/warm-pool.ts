import { sql } from 'kysely';
import type { BenchDatabase } from './databases.js';

/**
 * Reads the tables a lookup reads, every index of each, into MariaDB's buffer pool before a scale stage is
 * measured. A service that has answered lookups for a while holds those pages; a freshly seeded database holds the
 * seed's last-written event pages instead, and a few seconds of warm-up over a million random keys touch only a
 * fraction of the rest. Without this step the large stage measures the disk, not the service (bench/README.md,
 * Scale runs). The event tables are left out: they are larger than the pool at a million and only
 * `GET /v2/events` reads them.
 */
const LOOKUP_TABLES = [
  'shipment',
  'shipment_snapshot',
  'shipment_account',
  'shipment_bill_of_lading',
  'shipment_container',
  'tracking_exception',
] as const;

export interface WarmedPool {
  tables: number;
  indexes: number;
  mebibytes: number;
  seconds: number;
}

/** MariaDB only: scans each index of the lookup tables once (COUNT(*) with FORCE INDEX reads all its pages). */
export async function warmBufferPool(bench: BenchDatabase): Promise<WarmedPool> {
  const { db } = bench.database;
  const started = performance.now();
  const indexes = await sql<{ table_name: string; index_name: string }>`
    select distinct table_name as table_name, index_name as index_name from information_schema.statistics
    where table_schema = database() and table_name in (${sql.join(LOOKUP_TABLES.map((t) => sql.lit(t)))})`.execute(db);
  const sizes = await sql<{ bytes: number | string | null }>`
    select sum(data_length + index_length) as bytes from information_schema.tables
    where table_schema = database() and table_name in (${sql.join(LOOKUP_TABLES.map((t) => sql.lit(t)))})`.execute(db);
  // A scan's pages enter the LRU list's old part (3/8 of the pool) and stay there unless touched again a second
  // later (innodb_old_blocks_time, 1000 ms): InnoDB's defence against one-off scans, which here could let each
  // index evict the one scanned before it, leaving about 3 GiB of an 8 GiB pool warm. Pages touched while the
  // setting is 0 go to the young part at once; it is set back afterwards.
  const previous = await sql<{ value: number }>`select @@global.innodb_old_blocks_time as value`.execute(db);
  await sql`set global innodb_old_blocks_time = 0`.execute(db);
  try {
    for (const { table_name, index_name } of indexes.rows) {
      // Unbounded: one index of a million rows read from disk may take longer than the service's statement limit.
      await sql`set statement max_statement_time = 0 for select count(*) from ${sql.table(table_name)} force index (${sql.id(index_name)})`.execute(
        db,
      );
    }
  } finally {
    await sql`set global innodb_old_blocks_time = ${sql.lit(Number(previous.rows[0]?.value ?? 1000))}`.execute(db);
  }
  return {
    tables: new Set(indexes.rows.map((r) => r.table_name)).size,
    indexes: indexes.rows.length,
    mebibytes: Number(sizes.rows[0]?.bytes ?? 0) / 2 ** 20,
    seconds: (performance.now() - started) / 1000,
  };
}
