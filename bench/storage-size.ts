import type { Database } from '../src/db/connect.js';
import { createBenchDatabase } from './databases.js';
import { fixed, table, thousands } from './report.js';
import { bundleIndexes, bundleOf } from './generate.js';
import { emptyTiming, ingestRaw, type IngestTiming } from './seed.js';
import { tableSizes, type TableSize } from './table-sizes.js';

/**
 * Bytes on disk per table and per event: `node dist-bench/bench/storage-size.js [--sqlite] [--shipments N]`
 * (default 1,000 shipments, the quick bench's seed). Seeds its own database (`tt_bench_storage`, or a temporary
 * SQLite file) through the real ingest path, so it never touches the database of a running `npm run bench`, and
 * prints each table's data and index bytes (bench/table-sizes.ts) with their share per event. `--keep` keeps the database.
 */

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
