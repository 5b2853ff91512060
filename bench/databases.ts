import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { connectDatabase, type Database } from '../src/db/connect.js';
import { migrateToLatest } from '../src/store/migrate.js';

/**
 * Dedicated benchmark databases: a MariaDB/MySQL database dropped and
 * recreated on every run, or a SQLite file in a temporary directory.
 */

/**
 * Server the bench creates its databases on (`BENCH_MYSQL_URL`); any database in the path is ignored. Read at
 * each use: `--private-mariadb` points it at the bench's own server (bench/private-mariadb.ts).
 */
export function benchMysqlUrl(): string {
  return process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
}

export interface BenchDatabase {
  /** DATABASE_URL for the service and the baseline. */
  url: string;
  database: Database;
  /** SQLite: the database file. */
  file?: string;
  /** Closes the connection and drops the database (or deletes the file). */
  destroy(): Promise<void>;
}

/**
 * `BENCH_DB_SUFFIX`, when set, is appended to every bench database's name (`tt_bench_<suffix>`), so that runs
 * sharing one MariaDB server (several checkouts on one machine) do not drop each other's database.
 */
const SUFFIX = process.env.BENCH_DB_SUFFIX;

export async function createBenchDatabase(dialect: 'mysql' | 'sqlite', baseName: string): Promise<BenchDatabase> {
  const name = SUFFIX ? `${baseName}_${SUFFIX}` : baseName;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `${name}-`));
    const file = join(dir, 'bench.sqlite');
    const url = `sqlite:${file}`;
    const database = connectDatabase(url);
    await migrateToLatest(database);
    return {
      url,
      database,
      file,
      async destroy() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad database name ${name}`);
  const admin = await createConnection(benchMysqlUrl());
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  // Binary collation, as the test suite uses: identifiers compare exactly.
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await admin.end();
  const base = new URL(benchMysqlUrl());
  base.pathname = `/${name}`;
  const url = base.toString();
  const database = connectDatabase(url, { poolSize: 4 });
  await migrateToLatest(database);
  return {
    url,
    database,
    async destroy() {
      await database.close();
      const conn = await createConnection(benchMysqlUrl());
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

/**
 * Waits (at most `maxSeconds`) until MariaDB/MySQL has written back most of
 * what a bulk load dirtied (at most 5 % of the buffer pool's pages dirty), so
 * the first scenario is not measured against the server's own background
 * flushing. Returns the seconds waited; SQLite has nothing to wait for.
 */
export async function settle(bench: BenchDatabase, maxSeconds = 60): Promise<number> {
  if (!bench.url.startsWith('mysql://')) return 0;
  const started = Date.now();
  const conn = await createConnection(benchMysqlUrl());
  try {
    for (;;) {
      const [rows] = await conn.query(
        "show global status where Variable_name in ('Innodb_buffer_pool_pages_dirty', 'Innodb_buffer_pool_pages_total')",
      );
      const value = (name: string) =>
        Number((rows as { Variable_name: string; Value: string }[]).find((r) => r.Variable_name === name)?.Value ?? 0);
      const dirty = value('Innodb_buffer_pool_pages_dirty');
      const total = value('Innodb_buffer_pool_pages_total');
      if (total === 0 || dirty <= total * 0.05 || Date.now() - started > maxSeconds * 1000) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await conn.end();
  }
  return (Date.now() - started) / 1000;
}
