import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, MysqlDialect, SqliteDialect, type LogConfig } from 'kysely';
import { createPool } from 'mysql2';
import { migrations } from '../../db/migrations/index.js';
import type { SqlDialect } from './dialect.js';
import { withQueryCount } from './query-count.js';
import type { DatabaseSchema } from './schema.js';

export type Db = Kysely<DatabaseSchema>;

export interface Database {
  db: Db;
  dialect: SqlDialect;
  /** A printable description without credentials. */
  description: string;
  /** Connection pool occupancy (MySQL only; SQLite has one connection and no pool). */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open, idle or in use. */
  open: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The pool's maximum size. */
  limit: number;
}

export interface ConnectOptions {
  /** Kysely log hook; tests count SQL round trips with it. */
  log?: LogConfig;
  /** mysql2 pool size. Default 10. */
  poolSize?: number;
}

export const DEFAULT_SQLITE_PATH = './data/tracking.sqlite';

/**
 * Opens the database named by a DATABASE_URL: `mysql://user:pass@host:port/db`,
 * `sqlite:PATH`, or nothing for the embedded default file.
 */
export function connectDatabase(url: string | undefined, options: ConnectOptions = {}): Database {
  if (url && /^mysql:\/\//i.test(url)) {
    const parsed = new URL(url);
    const pool = createPool({
      uri: url,
      connectionLimit: options.poolSize ?? 10,
      // Timestamps are stored as canonical ISO strings; never let the driver convert.
      dateStrings: true,
      timezone: 'Z',
      supportBigNumbers: true,
      charset: 'utf8mb4',
    });
    const db = new Kysely<DatabaseSchema>({ dialect: new MysqlDialect({ pool }), log: withQueryCount(options.log) });
    const limit = options.poolSize ?? 10;
    // @NOTE mysql2 has no public pool statistics; these queues are its own bookkeeping (lib/base/pool.js).
    const internals = pool as unknown as Partial<Record<'_allConnections' | '_freeConnections' | '_connectionQueue', { length: number }>>;
    return {
      db,
      dialect: 'mysql',
      description: `mysql://${parsed.hostname}:${parsed.port || 3306}${parsed.pathname}`,
      poolStats: () => ({
        open: internals._allConnections?.length ?? 0,
        idle: internals._freeConnections?.length ?? 0,
        waiting: internals._connectionQueue?.length ?? 0,
        limit,
      }),
      close: () => db.destroy(),
    };
  }
  const path = sqlitePath(url);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const sqlite = new SQLite(path);
  // WAL lets readers (serve) and a writer (ingest CLI) share the file; wait instead of failing on a lock.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: withQueryCount(options.log),
  });
  return { db, dialect: 'sqlite', description: `sqlite:${path}`, close: () => db.destroy() };
}

function sqlitePath(url: string | undefined): string {
  if (!url) return DEFAULT_SQLITE_PATH;
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') || DEFAULT_SQLITE_PATH;
  throw new Error(`DATABASE_URL must be mysql://... or sqlite:PATH, got "${url.replace(/\/\/[^@]*@/, '//***@')}"`);
}

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations(database.dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
