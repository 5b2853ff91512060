import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { connectDatabase, type Database } from '../src/db/connect.js';
import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
import { migrations } from '../db/migrations/index.js';
import { shipmentKey } from './generate.js';

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

/** The database's name on the server: `baseName`, with BENCH_DB_SUFFIX when set. */
export function benchDatabaseName(baseName: string): string {
  const name = SUFFIX ? `${baseName}_${SUFFIX}` : baseName;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad database name ${name}`);
  return name;
}

export async function createBenchDatabase(dialect: 'mysql' | 'sqlite', baseName: string): Promise<BenchDatabase> {
  const name = benchDatabaseName(baseName);
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
 * The MariaDB bench database a `--keep` run left (`--reuse-seed`), as it is: nothing dropped, created or migrated.
 * Refuses, naming what differs, unless its migrations are exactly the code's (a database behind would be migrated
 * on the service's start, in the middle of the measurement; one ahead was seeded by other code) and it holds
 * the shipments 0..shipments-1 of the seed, no more (a seed is always whole ranges from 0: bench/staged-seed.ts).
 * Its `destroy` only closes the connection: the database stays for the next run.
 */
export async function openKeptBenchDatabase(baseName: string, shipments: number): Promise<BenchDatabase> {
  const name = benchDatabaseName(baseName);
  const admin = await createConnection(benchMysqlUrl());
  try {
    const [found] = await admin.query('select schema_name from information_schema.schemata where schema_name = ?', [name]);
    if ((found as unknown[]).length === 0) {
      throw new Error(`--reuse-seed: the kept server has no database ${name} (was it kept with the same BENCH_DB_SUFFIX?)`);
    }
    // 0.4.0's migrations are recorded in kysely_migration, later ones in release_migration; marks (999-...) are no migrations.
    const [applied] = await admin.query(
      `select name from \`${name}\`.kysely_migration where name not like '999-%' union select name from \`${name}\`.release_migration order by name`,
    );
    const mismatch = migrationMismatch(
      (applied as { name: string }[]).map((r) => r.name),
      Object.keys(migrations('mysql')),
    );
    if (mismatch) throw new Error(`--reuse-seed: the kept database ${name} ${mismatch}; seed a new one (a run without --reuse-seed)`);
    const held = await seededShipments(admin, name, shipments);
    if (held !== null) {
      throw new Error(
        `--reuse-seed: the kept database ${name} holds ${held} seeded shipments, not the ${shipments} asked: give --shipments ${held}`,
      );
    }
  } finally {
    await admin.end();
  }
  const base = new URL(benchMysqlUrl());
  base.pathname = `/${name}`;
  const url = base.toString();
  const database = connectDatabase(url, { poolSize: 4 });
  return { url, database, destroy: () => database.close() };
}

/** null when a database's applied migrations are the code's, in order; else what differs, for the refusal. */
export function migrationMismatch(applied: readonly string[], known: readonly string[]): string | null {
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) return `has migrations this code does not know (${unknown.join(', ')}): it is ahead of the code`;
  const pending = known.filter((name) => !applied.includes(name));
  if (pending.length > 0) return `lacks the code's migrations ${pending.join(', ')}: it is behind the code`;
  return null;
}

/**
 * null when the database holds the seed's shipments 0..shipments-1 and not shipment `shipments` (two lookups by
 * key, not a count over a million rows); otherwise how many seed shipments it holds (a count, for the refusal).
 */
async function seededShipments(
  admin: Awaited<ReturnType<typeof createConnection>>,
  name: string,
  shipments: number,
): Promise<number | null> {
  const has = async (index: number) => {
    const key = shipmentKey(index);
    const [rows] = await admin.query(
      `select 1 from \`${name}\`.shipment where carrier_code = ? and carrier_booking_reference = ? limit 1`,
      [key.carrierCode, key.carrierBookingReference],
    );
    return (rows as unknown[]).length > 0;
  };
  if ((await has(shipments - 1)) && !(await has(shipments))) return null;
  // The main seed's keys only (tag B): the cost-by-size shipments (tags C1, C10, C100) are not counted.
  const [rows] = await admin.query(`select count(*) as n from \`${name}\`.shipment where carrier_booking_reference like '%-B_________'`);
  return Number((rows as { n: number | string }[])[0]?.n ?? 0);
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
