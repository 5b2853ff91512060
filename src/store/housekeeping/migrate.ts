import { Migrator, sql, type DialectAdapter, type Kysely } from 'kysely';
import { migrations } from '../../../db/migrations/index.js';
import type { Database } from '../../db/connect.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { backfillCompactEvents } from '../events/compact-events.js';
import { backfillCompactMilestones } from '../shipments/compact-milestones.js';
import { backfillStoredSnapshots } from '../shipments/stored-snapshots.js';
import { takeMigrationLease } from './migration-lease.js';

const STORED_SNAPSHOTS_MIGRATION = '007-stored-snapshots';
const COMPACT_EVENTS_MIGRATION = '021-compact-events';
const COMPACT_MILESTONES_MIGRATION = '023-event-scale';

export interface MigrateOptions {
  /** Where the wait for another process's migrations is reported. */
  log?: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  /** How long to wait for that process before giving up, in ms. Default 10 minutes. */
  waitMs?: number;
  /** The MySQL/MariaDB migration lease's length, in ms (src/store/housekeeping/migration-lease.ts). Default 60 s. */
  leaseMs?: number;
}

/**
 * Applies every pending migration; throws with the failing migration's error. Any number of processes may call
 * it at the same moment (every replica of a deployment starting together, on any nodes of a Galera cluster):
 * each takes a lock the database gives, so one migrates and the others wait, then find nothing left to do
 * (docs/operating.md, Operating):
 *
 * - MySQL/MariaDB: a lease row claimed by a conditional write (src/store/housekeeping/migration-lease.ts), which holds
 *   across the nodes of a Galera cluster where `GET_LOCK` holds on one node only. Kysely's own migration lock
 *   (a `GET_LOCK` too) is replaced by it: see `underLease`. A process killed mid-migration leaves the row, and
 *   another takes over when its lease runs out.
 * - SQLite: the write lock, taken first (`BEGIN IMMEDIATE`): the migrations run in that one transaction, so
 *   they apply whole or not at all, and another process waits for its commit.
 *
 * A process that has to wait says so in the log once, and again when it gets the lock.
 *
 * MySQL/MariaDB: the lease is renewed on a second connection of the pool while the migrations hold one; give
 * this database a pool of two or more.
 */
export async function migrateToLatest(database: Database, options: MigrateOptions = {}): Promise<string[]> {
  const waitMs = options.waitMs ?? 600_000;
  const provider = { getMigrations: async () => migrations(database.dialect) };
  let applied: string[];
  if (database.dialect === 'mysql') {
    const lease = await takeMigrationLease(database.db as Kysely<unknown>, { waitMs, leaseMs: options.leaseMs, log: options.log });
    try {
      applied = await runMigrator(new Migrator({ db: underLease(database.db), provider }));
    } finally {
      await lease.release();
    }
  } else {
    applied = await database.db.connection().execute(async (conn) => {
      const locked = await lockSqlite(conn, waitMs, options);
      let done = false;
      try {
        // Inside the transaction that holds the write lock already.
        const result = await runMigrator(new Migrator({ db: conn, provider, disableTransactions: true }));
        done = true;
        return result;
      } finally {
        await locked.release(done);
      }
    });
  }
  // Shipments stored before snapshots were get theirs now, outside the lock (only the process that applied the
  // migration gets here with it). An interrupted backfill is finished by the next `tracking migrate` (which
  // always looks), and until then those shipments' lookups assemble from the parts.
  if (applied.includes(STORED_SNAPSHOTS_MIGRATION)) await backfillStoredSnapshots(database.db, database.dialect);
  // Likewise events stored before their compact form (src/store/events/compact-events.ts); until converted they read as
  // they are, so an interrupted backfill costs disk, never an answer.
  if (applied.includes(COMPACT_EVENTS_MIGRATION)) await backfillCompactEvents(database.db);
  // And shipments' milestone indexes stored before their compact form (src/store/shipments/compact-milestones.ts).
  if (applied.includes(COMPACT_MILESTONES_MIGRATION)) await backfillCompactMilestones(database.db);
  return applied;
}

async function runMigrator(migrator: Migrator): Promise<string[]> {
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The database as Kysely's Migrator sees it, with its migration lock taken away: the Migrator takes that lock
 * from the dialect adapter (`getExecutor().adapter.acquireMigrationLock`; MigratorProps has no option for it),
 * and MySQL's adapter uses GET_LOCK, which holds on one Galera node only. We hold the cluster-wide lease
 * already, so the adapter handed over here takes no lock; everything else is the database itself.
 */
function underLease(db: Kysely<DatabaseSchema>): Kysely<DatabaseSchema> {
  const executor = db.getExecutor();
  const adapter = executor.adapter;
  const leaseHeld: DialectAdapter = Object.assign(Object.create(adapter) as DialectAdapter, {
    acquireMigrationLock: async () => {},
    releaseMigrationLock: async () => {},
  });
  const leasedExecutor = new Proxy(executor, {
    get: (target, prop) => (prop === 'adapter' ? leaseHeld : bound(target, prop)),
  });
  return new Proxy(db, {
    get: (target, prop) => (prop === 'getExecutor' ? () => leasedExecutor : bound(target, prop)),
  });
}

/** A property of `target`, its methods bound to it (Kysely's objects keep their state in private fields). */
function bound(target: object, prop: string | symbol): unknown {
  const value: unknown = Reflect.get(target, prop, target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
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
