import { sql } from 'kysely';
import type { Database } from '../src/db/connect.js';

/**
 * The size of every table of a database on disk, with each secondary index: the one reader of the bench's
 * size figures (bench/disk.ts for the staged seed's size table, bench/storage-size.ts for `npm run bench:storage`).
 *
 * MariaDB/MySQL: `ANALYZE TABLE` first (InnoDB keeps its size figures in its persistent statistics, which a
 * bulk load leaves behind), then information_schema.TABLES (data_length: the clustered index, so the rows;
 * index_length: the secondary indexes) and mysql.innodb_index_stats (each index's size in pages).
 * SQLite: the `dbstat` virtual table (pages of every b-tree, by table and index) and an exact row count.
 */

export interface TableSize {
  table: string;
  /** Rows: exact on SQLite, InnoDB's estimate on MariaDB. */
  rows: number;
  dataBytes: number;
  indexBytes: number;
  /** Per index (MariaDB: mysql.innodb_index_stats' size in pages, PRIMARY included; SQLite: dbstat), bytes. */
  indexes: { name: string; bytes: number }[];
}

/** Data and index bytes of every table of the database, largest first (MariaDB: after ANALYZE TABLE, so current). */
export async function tableSizes(database: Database): Promise<TableSize[]> {
  const sizes = database.dialect === 'mysql' ? await mysqlSizes(database) : await sqliteSizes(database);
  return sizes.sort((a, b) => b.dataBytes + b.indexBytes - (a.dataBytes + a.indexBytes));
}

async function mysqlSizes({ db }: Database): Promise<TableSize[]> {
  const names = (
    await sql<{ name: string }>`
      select table_name as name from information_schema.tables where table_schema = database() and table_type = 'BASE TABLE'`.execute(db)
  ).rows.map((r) => r.name);
  if (names.length > 0) await sql`analyze table ${sql.join(names.map((n) => sql.table(n)))}`.execute(db);
  const { rows } = await sql<{ name: string; rows: number | string; data: number | string; idx: number | string }>`
    select table_name as name, table_rows as \`rows\`, data_length as data, index_length as idx
    from information_schema.tables where table_schema = database() and table_type = 'BASE TABLE'`.execute(db);
  const { rows: pages } = await sql<{ t: string; i: string; pages: number | string }>`
    select table_name as t, index_name as i, stat_value as pages from mysql.innodb_index_stats
    where database_name = database() and stat_name = 'size'`.execute(db);
  const { rows: pageSize } = await sql<{ v: number | string }>`select @@innodb_page_size as v`.execute(db);
  const page = Number(pageSize[0]?.v ?? 16384);
  return rows.map((r) => ({
    table: r.name,
    rows: Number(r.rows),
    dataBytes: Number(r.data),
    indexBytes: Number(r.idx),
    indexes: pages.filter((p) => p.t === r.name).map((p) => ({ name: p.i, bytes: Number(p.pages) * page })),
  }));
}

async function sqliteSizes({ db }: Database): Promise<TableSize[]> {
  const objects = (
    await sql<{ type: string; name: string; tbl: string }>`select type, name, tbl_name as tbl from sqlite_schema`.execute(db)
  ).rows;
  const pages = (await sql<{ name: string; bytes: number }>`select name, sum(pgsize) as bytes from dbstat group by name`.execute(db)).rows;
  const byTable = new Map<string, TableSize>();
  for (const { name, bytes } of pages) {
    // The schema's own b-tree (not in sqlite_schema) counts as a table of its own.
    const object = objects.find((o) => o.name === name);
    const owner = object?.tbl ?? name;
    const entry = byTable.get(owner) ?? { table: owner, rows: 0, dataBytes: 0, indexBytes: 0, indexes: [] };
    byTable.set(owner, entry);
    if (object?.type === 'index') {
      entry.indexBytes += Number(bytes);
      entry.indexes.push({ name, bytes: Number(bytes) });
    } else {
      entry.dataBytes += Number(bytes);
    }
  }
  const tables = [...byTable.values()];
  for (const entry of tables) {
    if (!objects.some((o) => o.type === 'table' && o.name === entry.table)) continue;
    const count = await sql<{ n: number }>`select count(*) as n from ${sql.table(entry.table)}`.execute(db);
    entry.rows = Number(count.rows[0]?.n ?? 0);
  }
  return tables;
}
