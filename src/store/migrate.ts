import { Migrator, sql, type Kysely } from 'kysely';
import { migrations } from '../../db/migrations/index.js';
import type { Database } from '../db/connect.js';
import type { DatabaseSchema } from '../db/schema.js';
import { backfillStoredSnapshots } from './stored-snapshots.js';

const STORED_SNAPSHOTS_MIGRATION = '007-stored-snapshots';
/** The MySQL/MariaDB named lock (GET_LOCK) every process takes to migrate. */
export const MIGRATION_LOCK = 'track_and_trace_migrations';

export interface MigrateOptions {
  /** Where the wait for another process's migrations is reported. */
  log?: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  /** How long to wait for that process before giving up, in ms. Default 10 minutes. */
  waitMs?: number;
}

/**
 * Applies every pending migration; throws with the failing migration's error. Any number of processes may call
 * it at the same moment (every replica of a deployment starting together): each takes a lock the database
 * gives, so one migrates and the others wait, then find nothing left to do (docs/operating.md, Operating):
 *
 * - MySQL/MariaDB: `GET_LOCK(MIGRATION_LOCK)` on the connection that migrates. The server drops it with the
 *   session, so a process killed mid-migration does not leave it held.
 * - SQLite: the write lock, taken first (`BEGIN IMMEDIATE`): the migrations run in that one transaction, so
 *   they apply whole or not at all, and another process waits for its commit.
 *
 * A process that has to wait says so in the log once, and again when it gets the lock.
 */
export async function migrateToLatest(database: Database, options: MigrateOptions = {}): Promise<string[]> {
  const waitMs = options.waitMs ?? 600_000;
  const applied = await database.db.connection().execute(async (conn) => {
    const locked = database.dialect === 'mysql' ? await lockMysql(conn, waitMs, options) : await lockSqlite(conn, waitMs, options);
    let done = false;
    try {
      const migrator = new Migrator({
        db: conn,
        provider: { getMigrations: async () => migrations(database.dialect) },
        // SQLite: inside the transaction that holds the write lock already.
        disableTransactions: database.dialect === 'sqlite',
      });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
      done = true;
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    } finally {
      await locked.release(done);
    }
  });
  // Shipments stored before snapshots were get theirs now, outside the lock (only the process that applied the
  // migration gets here with it). An interrupted backfill is finished by the next `tracking migrate` (which
  // always looks), and until then those shipments' lookups assemble from the parts.
  if (applied.includes(STORED_SNAPSHOTS_MIGRATION)) await backfillStoredSnapshots(database.db, database.dialect);
  return applied;
}

interface HeldLock {
  /** Gives the lock back; SQLite commits the migrations' transaction when they succeeded, else rolls it back. */
  release(succeeded: boolean): Promise<void>;
}

function waiting(options: MigrateOptions, fields: Record<string, unknown>): () => void {
  options.log?.('info', 'waiting for another process to finish migrating the database', fields);
  const since = Date.now();
  return () => options.log?.('info', 'migration lock acquired after waiting', { ...fields, waitedMs: Date.now() - since });
}

async function lockMysql(conn: Kysely<DatabaseSchema>, waitMs: number, options: MigrateOptions): Promise<HeldLock> {
  const tryLock = async (seconds: number) => {
    const { rows } = await sql<{ got: number | null }>`select get_lock(${MIGRATION_LOCK}, ${seconds}) as got`.execute(conn);
    return Number(rows[0]?.got) === 1;
  };
  if (!(await tryLock(0))) {
    const acquired = waiting(options, { lock: `GET_LOCK('${MIGRATION_LOCK}')` });
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (await tryLock(Math.max(1, Math.min(10, Math.ceil((deadline - Date.now()) / 1000))))) break;
      if (Date.now() >= deadline) throw new Error(`gave up waiting ${Math.round(waitMs / 1000)} s for the migration lock`);
    }
    acquired();
  }
  return {
    async release() {
      await sql`select release_lock(${MIGRATION_LOCK})`.execute(conn);
    },
  };
}

/** How often a waiting SQLite process tries for the write lock again. */
const SQLITE_RETRY_MS = 100;

async function lockSqlite(conn: Kysely<DatabaseSchema>, waitMs: number, options: MigrateOptions): Promise<HeldLock> {
  // better-sqlite3 waits for a lock synchronously (busy_timeout), stalling the process: here it tries without
  // waiting, and waits between tries without blocking.
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn);
  const busyTimeout = Number(rows[0]?.timeout ?? 5000);
  await sql`pragma busy_timeout = 0`.execute(conn);
  try {
    let acquired: (() => void) | null = null;
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        await sql`begin immediate`.execute(conn);
        break;
      } catch (err) {
        if (!isSqliteBusy(err)) throw err;
        if (Date.now() >= deadline) {
          throw new Error(`gave up waiting ${Math.round(waitMs / 1000)} s for the database's write lock to migrate`, { cause: err });
        }
        acquired ??= waiting(options, { lock: 'the SQLite write lock' });
        await new Promise((resolve) => setTimeout(resolve, SQLITE_RETRY_MS));
      }
    }
    acquired?.();
  } finally {
    await sql`pragma busy_timeout = ${sql.raw(String(Math.trunc(busyTimeout)))}`.execute(conn);
  }
  return {
    async release(succeeded) {
      await sql.raw(succeeded ? 'commit' : 'rollback').execute(conn);
    },
  };
}

function isSqliteBusy(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
