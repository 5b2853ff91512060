import { existsSync, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sql } from 'kysely';
import type { BenchDatabase } from './databases.js';
import { fixed, table, thousands } from './report.js';

/**
 * The bench database's size on disk, per table and in all, and the disk guard of a large seed.
 *
 * MariaDB/MySQL: `ANALYZE TABLE` first (InnoDB keeps its size figures in its persistent statistics, which a
 * bulk load leaves behind), then information_schema.TABLES (data_length: the clustered index, so the rows;
 * index_length: the secondary indexes), and the tablespace files' allocated size
 * (information_schema.INNODB_SYS_TABLESPACES): what the disk holds, free pages within the files included.
 * SQLite: the `dbstat` virtual table (pages of every b-tree, by table and index) and the file with its WAL.
 */

export interface TableSize {
  table: string;
  /** Rows: exact on SQLite, InnoDB's estimate on MariaDB. */
  rows: number;
  dataBytes: number;
  indexBytes: number;
}

export interface StoreSize {
  tables: TableSize[];
  dataBytes: number;
  indexBytes: number;
  /** The database's files on disk (allocated), free space within them included. */
  fileBytes: number;
}

/** The size of every table of the bench database (MariaDB: after ANALYZE TABLE, so the figures are current). */
export async function storeSize(bench: BenchDatabase): Promise<StoreSize> {
  const { db, dialect } = bench.database;
  let tables: TableSize[];
  if (dialect === 'mysql') {
    const names = (
      await sql<{ name: string }>`select TABLE_NAME as name from information_schema.TABLES where TABLE_SCHEMA = database()`.execute(db)
    ).rows.map((r) => r.name);
    if (names.length > 0) await sql`analyze table ${sql.join(names.map((n) => sql.table(n)))}`.execute(db);
    const rows = await sql<{ name: string; rows: number | string; data: number | string; indexes: number | string }>`
      select TABLE_NAME as name, TABLE_ROWS as \`rows\`, DATA_LENGTH as data, INDEX_LENGTH as indexes
      from information_schema.TABLES where TABLE_SCHEMA = database()`.execute(db);
    tables = rows.rows.map((r) => ({ table: r.name, rows: Number(r.rows), dataBytes: Number(r.data), indexBytes: Number(r.indexes) }));
  } else {
    const objects = (
      await sql<{ type: string; name: string; tbl: string }>`select type, name, tbl_name as tbl from sqlite_master`.execute(db)
    ).rows;
    const pages = (await sql<{ name: string; bytes: number }>`select name, sum(pgsize) as bytes from dbstat group by name`.execute(db))
      .rows;
    const byTable = new Map<string, TableSize>();
    for (const { name, bytes } of pages) {
      const object = objects.find((o) => o.name === name);
      const owner = object?.tbl ?? name;
      const entry = byTable.get(owner) ?? { table: owner, rows: 0, dataBytes: 0, indexBytes: 0 };
      if (object?.type === 'index') entry.indexBytes += Number(bytes);
      else entry.dataBytes += Number(bytes);
      byTable.set(owner, entry);
    }
    tables = [...byTable.values()];
    for (const entry of tables) {
      if (!objects.some((o) => o.type === 'table' && o.name === entry.table)) continue;
      const count = await sql<{ n: number }>`select count(*) as n from ${sql.table(entry.table)}`.execute(db);
      entry.rows = Number(count.rows[0]?.n ?? 0);
    }
  }
  tables.sort((a, b) => b.dataBytes + b.indexBytes - (a.dataBytes + a.indexBytes));
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
