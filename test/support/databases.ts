import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import type { LogConfig } from 'kysely';
import { connectDatabase, migrateToLatest, type Database } from '../../src/db/connect.js';

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

/** A fresh, migrated database of the given dialect; each call gets its own. */
export async function createTestDatabase(
  dialect: TestDialect['name'],
  options: { log?: LogConfig } = {},
): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tt-test-'));
    const url = `sqlite:${join(dir, 'test.sqlite')}`;
    const database = connectDatabase(url, options);
    await migrateToLatest(database);
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
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await admin.end();
  const base = new URL(TEST_MYSQL_URL);
  base.pathname = `/${name}`;
  const url = base.toString();
  const database = connectDatabase(url, { ...options, poolSize: 4 });
  await migrateToLatest(database);
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
