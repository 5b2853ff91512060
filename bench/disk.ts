import { existsSync, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sql } from 'kysely';
import type { BenchDatabase } from './databases.js';
import { fixed, table, thousands } from './report.js';
import { tableSizes, type TableSize } from './table-sizes.js';

/**
 * The bench database's size on disk, per table and in all, and the disk guard of a large seed.
 *
 * The tables' figures come from bench/table-sizes.ts; besides them, the files' allocated size: MariaDB/MySQL
 * the tablespace files (information_schema.INNODB_SYS_TABLESPACES), what the disk holds, free pages within the
 * files included; SQLite the file with its WAL.
 */

export interface StoreSize {
  tables: TableSize[];
  dataBytes: number;
  indexBytes: number;
  /** The database's files on disk (allocated), free space within them included. */
  fileBytes: number;
}

/** The size of every table of the bench database (bench/table-sizes.ts), and of its files. */
export async function storeSize(bench: BenchDatabase): Promise<StoreSize> {
  const tables = await tableSizes(bench.database);
  return {
    tables,
    dataBytes: tables.reduce((sum, t) => sum + t.dataBytes, 0),
    indexBytes: tables.reduce((sum, t) => sum + t.indexBytes, 0),
    fileBytes: await fileBytes(bench),
  };
}

/** The database's files on disk, allocated bytes (cheap: no statistics, no scan). */
export async function fileBytes(bench: BenchDatabase): Promise<number> {
  const { db, dialect } = bench.database;
  if (dialect === 'mysql') {
    const rows = await sql<{ bytes: number | string | null }>`
      select sum(ALLOCATED_SIZE) as bytes from information_schema.INNODB_SYS_TABLESPACES
      where NAME like concat(database(), '/%')`.execute(db);
    return Number(rows.rows[0]?.bytes ?? 0);
  }
  const file = bench.file;
  if (!file) return 0;
  return [file, `${file}-wal`, `${file}-shm`].reduce((sum, f) => sum + (existsSync(f) ? statSync(f).blocks * 512 : 0), 0);
}

/** Where the database's files live, to watch that file system's free space; null when not on this machine. */
export async function dataDirectory(bench: BenchDatabase): Promise<string | null> {
  if (bench.file) return dirname(bench.file);
  const host = new URL(bench.url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost') return null;
  const rows = await sql<{ dir: string }>`select @@datadir as dir`.execute(bench.database.db);
  const dir = rows.rows[0]?.dir;
  // A server in a container on this host names a folder of its own file system.
  return dir && existsSync(dir) ? dir : null;
}

export async function freeBytes(directory: string): Promise<{ free: number; total: number }> {
  const stats = await statfs(directory);
  return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
}

const GiB = 2 ** 30;
const MiB = 2 ** 20;

/** The size table and the one-line summary (bytes per shipment and per event, every table and index counted). */
export function sizeReport(size: StoreSize, shipments: number, events: number): string {
  // Tables of a few pages (empty ones, counters) go on one line.
  const shown = size.tables.filter((t) => t.dataBytes + t.indexBytes >= MiB);
  const rest = size.tables.filter((t) => t.dataBytes + t.indexBytes < MiB);
  const others: TableSize = {
    indexes: [],
    table: `${rest.length} other tables, under 1 MiB each`,
    rows: rest.reduce((sum, t) => sum + t.rows, 0),
    dataBytes: rest.reduce((sum, t) => sum + t.dataBytes, 0),
    indexBytes: rest.reduce((sum, t) => sum + t.indexBytes, 0),
  };
  const rows = [...shown, ...(rest.length > 0 ? [others] : [])].map((t) => [
    t.table,
    thousands(t.rows),
    fixed(t.dataBytes / MiB, 1),
    fixed(t.indexBytes / MiB, 1),
    fixed((t.dataBytes + t.indexBytes) / MiB, 1),
    fixed(events > 0 ? (t.dataBytes + t.indexBytes) / events : NaN, 0),
  ]);
  return [table(['table', 'rows', 'data MiB', 'index MiB', 'total MiB', 'B/event'], rows), sizeLine(size, shipments, events)].join('\n');
}

export function sizeLine(size: StoreSize, shipments: number, events: number): string {
  const tablesBytes = size.dataBytes + size.indexBytes;
  // The larger of the two: files hold free pages too, and a WAL not yet checkpointed holds pages twice.
  const disk = Math.max(tablesBytes, size.fileBytes);
  return (
    `size at ${thousands(shipments)} shipments, ${thousands(events)} events: ${fixed(disk / GiB, 2)} GiB on disk ` +
    `(tables ${fixed(size.dataBytes / GiB, 2)} + indexes ${fixed(size.indexBytes / GiB, 2)} GiB; files ${fixed(size.fileBytes / GiB, 2)} GiB): ` +
    `${thousands(disk / Math.max(shipments, 1))} bytes per shipment, ${thousands(disk / Math.max(events, 1))} bytes per event`
  );
}

/**
 * The disk guard of a large seed: it watches the free space of the file system holding the database, and the
 * database's own growth per event, and answers how far the seed may go. It keeps a reserve (2 GiB or 5 % of
 * the file system, whichever is more) free for everything else on the machine, and counts each remaining
 * event at the bytes per event measured so far plus a margin of 25 %. Until 50,000 events are measured it
 * only keeps the reserve.
 */
export class DiskGuard {
  static readonly MARGIN = 1.25;
  /** Set once the guard lowered the end: what it said. */
  note: string | null = null;

  constructor(
    private readonly bench: BenchDatabase,
    readonly directory: string,
    /** Events the bench database held before the run being guarded (to measure its growth). */
    private readonly baseline: { bytes: number; events: number },
  ) {}

  /** null when the database's files are not on this machine (a remote server): then no guard. */
  static async open(bench: BenchDatabase): Promise<DiskGuard | null> {
    const directory = await dataDirectory(bench);
    if (!directory) return null;
    return new DiskGuard(bench, directory, { bytes: await fileBytes(bench), events: 0 });
  }

  async reserve(): Promise<number> {
    const { total } = await freeBytes(this.directory);
    return Math.max(2 * GiB, 0.05 * total);
  }

  /**
   * The last shipment index the seed may reach: `wanted` when the rest fits, else as far as the free space
   * above the reserve goes at the measured bytes per event (never below `seeded`: that is a stop).
   */
  async limit(seeded: number, eventsSeeded: number, wanted: number, eventsPerShipment: number): Promise<number> {
    const { free } = await freeBytes(this.directory);
    const reserve = await this.reserve();
    const grown = (await fileBytes(this.bench)) - this.baseline.bytes;
    const measured = eventsSeeded - this.baseline.events;
    const room = free - reserve;
    // Nothing measured yet: go on while there is room above the reserve.
    if (measured < 50_000 || grown <= 0) return room > 0 ? wanted : seeded;
    const perEvent = grown / measured;
    const need = (shipments: number) => shipments * eventsPerShipment * perEvent * DiskGuard.MARGIN;
    if (need(wanted - seeded) <= room) return wanted;
    const fits = Math.max(0, Math.floor(room / need(1)));
    const limit = Math.min(wanted, seeded + fits);
    if (this.note === null || limit < seeded + 1) {
      this.note =
        `disk guard: ${fixed(free / GiB, 1)} GiB free on ${this.directory} (keeping ${fixed(reserve / GiB, 1)} GiB), ` +
        `${thousands(perEvent)} bytes per event measured (+25 %): room for about ${thousands(fits)} more shipments, ` +
        `not the ${thousands(wanted - seeded)} asked; the seed stops at ${thousands(limit)}`;
    }
    return limit;
  }
}
