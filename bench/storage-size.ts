import { sql } from 'kysely';
import type { Database } from '../src/db/connect.js';
import { createBenchDatabase } from './databases.js';
import { fixed, table, thousands } from './report.js';
import { bundleIndexes, bundleOf } from './generate.js';
import { emptyTiming, ingestRaw, type IngestTiming } from './seed.js';

/**
 * Bytes on disk per table and per event: `node dist-bench/bench/storage-size.js [--sqlite] [--shipments N]`
 * (default 1,000 shipments, the quick bench's seed). Seeds its own database (`tt_bench_storage`, or a temporary
 * SQLite file) through the real ingest path, so it never touches the database of a running `npm run bench`, and
 * prints each table's data and index bytes (MariaDB: information_schema.TABLES after ANALYZE TABLE; SQLite: the
 * dbstat virtual table) with their share per event. `--keep` keeps the database.
 */

export interface TableSize {
  table: string;
  rows: number;
  dataBytes: number;
  indexBytes: number;
  /** Per index (MariaDB: mysql.innodb_index_stats' size in pages; SQLite: dbstat), bytes. */
  indexes: { name: string; bytes: number }[];
}

/** Data and index bytes of every table of the database, largest first. */
export async function tableSizes(database: Database): Promise<TableSize[]> {
  const db = database.db;
  if (database.dialect === 'mysql') {
    const { rows: tables } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables where table_schema = database() and table_type = 'BASE TABLE'`.execute(db);
    for (const t of tables) await sql`analyze table ${sql.table(t.name)}`.execute(db);
    const { rows } = await sql<{ name: string; rows: number; data: number; idx: number }>`
      select table_name as name, table_rows as \`rows\`, data_length as data, index_length as idx
      from information_schema.tables where table_schema = database() and table_type = 'BASE TABLE'`.execute(db);
    const { rows: pages } = await sql<{ t: string; i: string; pages: number }>`
      select table_name as t, index_name as i, stat_value as pages from mysql.innodb_index_stats
      where database_name = database() and stat_name = 'size'`.execute(db);
    const { rows: pageSize } = await sql<{ v: number }>`select @@innodb_page_size as v`.execute(db);
    const page = Number(pageSize[0]?.v ?? 16384);
    return rows
      .map((r) => ({
        table: r.name,
        rows: Number(r.rows),
        dataBytes: Number(r.data),
        indexBytes: Number(r.idx),
        indexes: pages.filter((p) => p.t === r.name).map((p) => ({ name: p.i, bytes: Number(p.pages) * page })),
      }))
      .sort((a, b) => b.dataBytes + b.indexBytes - (a.dataBytes + a.indexBytes));
  }
  const { rows } = await sql<{ name: string; tbl: string; type: string; bytes: number }>`
    select s.name as name, m.tbl_name as tbl, m.type as type, sum(s.pgsize) as bytes
    from dbstat s join sqlite_schema m on m.name = s.name group by s.name`.execute(db);
  const byTable = new Map<string, TableSize>();
  for (const r of rows) {
    const t = byTable.get(r.tbl) ?? { table: r.tbl, rows: 0, dataBytes: 0, indexBytes: 0, indexes: [] };
    byTable.set(r.tbl, t);
    if (r.type === 'table') t.dataBytes += Number(r.bytes);
    else {
      t.indexBytes += Number(r.bytes);
      t.indexes.push({ name: r.name, bytes: Number(r.bytes) });
    }
  }
  for (const t of byTable.values()) {
    const { rows: n } = await sql<{ n: number }>`select count(*) as n from ${sql.table(t.table)}`.execute(db);
    t.rows = Number(n[0]?.n ?? 0);
  }
  return [...byTable.values()].sort((a, b) => b.dataBytes + b.indexBytes - (a.dataBytes + a.indexBytes));
}

/** The size table: per table, and per event of the whole database. */
export function sizeTable(sizes: readonly TableSize[], events: number, shipments: number): string {
  const total = sizes.reduce((s, t) => s + t.dataBytes + t.indexBytes, 0);
  const rows = sizes
    .filter((t) => t.dataBytes + t.indexBytes > 0)
    .map((t) => [
      t.table,
      thousands(t.rows),
      fixed(t.dataBytes / 2 ** 20, 2),
      fixed(t.indexBytes / 2 ** 20, 2),
      fixed(t.dataBytes / events, 0),
      fixed(t.indexBytes / events, 0),
      t.indexes
        .filter((i) => i.bytes > 0 && i.name !== 'PRIMARY')
        .map((i) => `${i.name} ${fixed(i.bytes / events, 0)}`)
        .join(', '),
    ]);
  rows.push(['total', '', fixed(total / 2 ** 20, 2), '', fixed(total / events, 0), '', `${fixed(total / shipments, 0)} B/shipment`]);
  return table(['table', 'rows', 'data MiB', 'index MiB', 'data B/event', 'index B/event', 'secondary indexes, B/event'], rows);
}

/** The quick bench's seed (59-event shipments), one bundle of 250 after another through the real ingest path. */
async function seedSerially(database: Database, shipments: number): Promise<IngestTiming> {
  const timing = emptyTiming();
  for (const indexes of bundleIndexes(shipments, 250, 0)) await ingestRaw(database, bundleOf(indexes, {}), timing);
  return timing;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dialect = argv.includes('--sqlite') ? 'sqlite' : 'mysql';
  const at = argv.indexOf('--shipments');
  const shipments = at >= 0 ? Number(argv[at + 1]) : 1_000;
  const bench = await createBenchDatabase(dialect, 'tt_bench_storage');
  try {
    const timing = await seedSerially(bench.database, shipments);
    const sizes = await tableSizes(bench.database);
    process.stdout.write(
      `${dialect === 'mysql' ? 'MariaDB' : 'SQLite'}: ${thousands(timing.shipments)} shipments, ${thousands(timing.events)} events ` +
        `(${fixed(timing.events / (timing.parseSeconds + timing.ingestSeconds), 0)} events/s)\n`,
    );
    process.stdout.write(`${sizeTable(sizes, timing.events, timing.shipments)}\n`);
    if (argv.includes('--keep')) process.stdout.write(`kept: ${bench.url}\n`);
  } finally {
    if (argv.includes('--keep')) await bench.database.close();
    else await bench.destroy();
  }
}

if (process.argv[1]?.endsWith('storage-size.js') || process.argv[1]?.endsWith('storage-size.ts')) {
  main().catch((err: unknown) => {
    process.stderr.write(`storage-size failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
