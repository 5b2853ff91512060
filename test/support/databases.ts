import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Migrator, type LogConfig } from 'kysely';
import { migrations, PREVIOUS_RELEASE_MIGRATIONS } from '../../db/migrations/index.js';
import { connectDatabase, type Database } from '../../src/db/connect.js';
import { migrateToLatest, RELEASE_MIGRATION_TABLE } from '../../src/store/housekeeping/migrate.js';

/**
 * The dialects every data test runs against (Kysely's own test layout):
 * SQLite always, MySQL/MariaDB when TEST_MYSQL_URL is set. A dialect that is
 * not configured is skipped visibly (describe.skipIf with its name).
 */
export interface TestDialect {
  name: 'sqlite' | 'mysql';
  enabled: boolean;
}

export const TEST_MYSQL_URL = process.env.TEST_MYSQL_URL;

export const dialects: TestDialect[] = [
  { name: 'sqlite', enabled: true },
  { name: 'mysql', enabled: Boolean(TEST_MYSQL_URL) },
];

export interface TestDatabase {
  database: Database;
  /** DATABASE_URL of this fresh database, for CLI runs and second app instances. */
  url: string;
  /** Drops the database (or deletes the file) after closing the connection. */
  destroy(): Promise<void>;
}

/** Brings a database to the latest schema, or only up to `migrateTo` (a migration name) to test upgrades. */
async function migrate(database: Database, migrateTo: string | undefined): Promise<void> {
  if (!migrateTo) {
    await migrateToLatest(database);
    return;
  }
  // As the releases record them (src/store/housekeeping/migrate.ts): 0.4.0's in kysely_migration, later ones in
  // release_migration, so that the database is what a deployment of that point would hold.
  const all = migrations(database.dialect);
  const previous = new Set(PREVIOUS_RELEASE_MIGRATIONS);
  const pick = (keep: (name: string) => boolean) => Object.fromEntries(Object.entries(all).filter(([name]) => keep(name)));
  const lastPrevious = PREVIOUS_RELEASE_MIGRATIONS.at(-1)!;
  const base = new Migrator({ db: database.db, provider: { getMigrations: async () => pick((n) => previous.has(n)) } });
  const baseResult = await base.migrateTo(migrateTo < lastPrevious ? migrateTo : lastPrevious);
  if (baseResult.error) throw baseResult.error;
  if (migrateTo <= lastPrevious) return;
  const release = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => pick((n) => !previous.has(n)) },
    migrationTableName: RELEASE_MIGRATION_TABLE,
    migrationLockTableName: `${RELEASE_MIGRATION_TABLE}_lock`,
  });
  const { error } = await release.migrateTo(migrateTo);
  if (error) throw error;
}

/** A fresh, migrated database of the given dialect; each call gets its own. */
export async function createTestDatabase(
  dialect: TestDialect['name'],
  options: { log?: LogConfig; migrateTo?: string } = {},
): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tt-test-'));
    const url = `sqlite:${join(dir, 'test.sqlite')}`;
    const database = connectDatabase(url, options);
    await migrate(database, options.migrateTo);
    return {
      database,
      url,
      async destroy() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!TEST_MYSQL_URL) throw new Error('TEST_MYSQL_URL is not set');
  const name = `tt_test_${randomBytes(6).toString('hex')}`;
  const admin = await createConnection(TEST_MYSQL_URL);
  // Deliberately the server's usual, forgiving default (case, accents and trailing
  // spaces ignored): exact identity must come from the migrations (docs/architecture.md, Identity).
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
  await admin.end();
  const base = new URL(TEST_MYSQL_URL);
  base.pathname = `/${name}`;
  const url = base.toString();
  const database = connectDatabase(url, { ...options, poolSize: 4 });
  await migrate(database, options.migrateTo);
  return {
    database,
    url,
    async destroy() {
      await database.close();
      const conn = await createConnection(TEST_MYSQL_URL);
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

/** A fresh database with nothing in it (no tables): what a deployment's first start finds. */
export async function createEmptyDatabase(dialect: TestDialect['name']): Promise<{ url: string; destroy(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tt-empty-'));
    return { url: `sqlite:${join(dir, 'tracking.sqlite')}`, destroy: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (!TEST_MYSQL_URL) throw new Error('TEST_MYSQL_URL is not set');
  const name = `tt_test_${randomBytes(6).toString('hex')}`;
  const admin = await createConnection(TEST_MYSQL_URL);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
  await admin.end();
  const base = new URL(TEST_MYSQL_URL);
  base.pathname = `/${name}`;
  return {
    url: base.toString(),
    async destroy() {
      const conn = await createConnection(TEST_MYSQL_URL);
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}
