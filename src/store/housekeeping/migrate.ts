import { Migrator, sql, type DialectAdapter, type Kysely, type Migration } from 'kysely';
import { migrations, PREVIOUS_RELEASE_MIGRATIONS } from '../../../db/migrations/index.js';
import type { Database } from '../../db/connect.js';
import type { SqlDialect } from '../../db/dialect.js';
import { MIGRATION_LOCK_WAIT_SECONDS } from '../../db/online-ddl.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { backfillStoredSnapshots } from '../shipments/stored-snapshots.js';
import { runContractSteps } from './contract-steps.js';
import { takeMigrationLease } from './migration-lease.js';
import { markFinished, recordedMigrations, refreshWriteForms } from './upgrade-state.js';

const STORED_SNAPSHOTS_MIGRATION = '007-stored-snapshots';
/** Where the migrations after release 0.4.0's are recorded: a table 0.4.0 never reads (db/migrations/index.ts). */
export const RELEASE_MIGRATION_TABLE = 'release_migration';

export interface MigrateOptions {
  /** Where the wait for another process's migrations is reported. */
  log?: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  /** How long to wait for that process before giving up, in ms. Default 10 minutes. */
  waitMs?: number;
  /** The MySQL/MariaDB migration lease's length, in ms (src/store/housekeeping/migration-lease.ts). Default 60 s. */
  leaseMs?: number;
}

/**
 * Applies every pending expand migration; throws with the failing migration's error. Contract steps are not
 * run here but by `tracking upgrade finish` (src/store/housekeeping/upgrade-finish.ts, docs/upgrading.md).
 *
 * The bookkeeping keeps both releases able to start at every moment of a rolling upgrade. Kysely's Migrator
 * refuses to run ("corrupted migrations") when its table records a migration it does not know, so:
 *
 * - release 0.4.0's own migrations (PREVIOUS_RELEASE_MIGRATIONS) stay recorded in `kysely_migration`, where
 *   0.4.0 looks and finds only names it knows;
 * - every later one is recorded in `release_migration`, which 0.4.0 never reads;
 * - a database migrated before this bookkeeping (kysely_migration holding 015-023, written by unreleased
 *   builds) is taken over as it is: those names stay where they are (0.4.0 could not read its rows anyway, and
 *   keeps refusing it), count as applied, and are recorded in release_migration too;
 * - a database this release creates is finished at once (nothing to be compatible with): see upgrade-state.ts.
 *
 * Any number of processes may call it at the same moment (every replica of a deployment starting together, on
 * any nodes of a Galera cluster): each takes a lock the database gives, so one migrates and the others wait,
 * then find nothing left to do (docs/operating.md, Operating):
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
  let result: Migrated;
  if (database.dialect === 'mysql') {
    const lease = await takeMigrationLease(database.db as Kysely<unknown>, { waitMs, leaseMs: options.leaseMs, log: options.log });
    try {
      result = await migrateBoth(underLease(database.db), database.dialect, false);
    } finally {
      await lease.release();
    }
  } else {
    result = await database.db.connection().execute(async (conn) => {
      const locked = await lockSqlite(conn, waitMs, options);
      let done = false;
      try {
        // Inside the transaction that holds the write lock already.
        const migrated = await migrateBoth(conn, database.dialect, true);
        done = true;
        return migrated;
      } finally {
        await locked.release(done);
      }
    });
  }
  const { applied, created } = result;
  // Shipments stored before snapshots were get theirs now, outside the lock (only the process that applied the
  // migration gets here with it). An interrupted backfill is finished by the next `tracking migrate` (which
  // always looks), and until then those shipments' lookups assemble from the parts.
  if (applied.includes(STORED_SNAPSHOTS_MIGRATION)) await backfillStoredSnapshots(database.db, database.dialect);
  // A database this release created has no rows of an older form: its contract steps find nothing to rewrite.
  if (created) await runContractSteps(database.db);
  // What this process writes into the database from now on (src/store/encoding/write-forms.ts).
  await refreshWriteForms(database.db);
  return applied;
}

interface Migrated {
  /** The migrations applied by this call, in order. */
  applied: string[];
  /** The database was empty: this release created it. */
  created: boolean;
}

/** Both Migrators, in the caller's lock (see migrateToLatest). */
async function migrateBoth(db: Kysely<DatabaseSchema>, dialect: SqlDialect, disableTransactions: boolean): Promise<Migrated> {
  const all = migrations(dialect);
  const recorded = await recordedMigrations(db);
  const created = recorded.length === 0;
  const previous = new Set(PREVIOUS_RELEASE_MIGRATIONS);
  // Names kysely_migration holds beyond 0.4.0's (a database taken over from unreleased builds, FINISHED_MARK):
  // known to its Migrator as done, so it neither refuses nor runs them.
  const done: Migration = { up: async () => {} };
  const base: Record<string, Migration> = Object.fromEntries([
    ...PREVIOUS_RELEASE_MIGRATIONS.map((name) => [name, all[name]!] as const),
    ...recorded.filter((name) => !previous.has(name)).map((name) => [name, done] as const),
  ]);
  const baseApplied = await runMigrator(
    // Unordered: marks written over time (FINISHED_MARK of this and later releases) need not sort by their time.
    new Migrator({ db, provider: { getMigrations: async () => base }, disableTransactions, allowUnorderedMigrations: true }),
  );
  // The later ones; those kysely_migration already records were applied by the build that recorded them.
  const takenOver = new Set(recorded.filter((name) => name in all && !previous.has(name)));
  const release: Record<string, Migration> = Object.fromEntries(
    Object.entries(all)
      .filter(([name]) => !previous.has(name))
      .map(([name, migration]) => [name, takenOver.has(name) ? done : migration]),
  );
  const releaseApplied = await runMigrator(
    new Migrator({
      db,
      provider: { getMigrations: async () => release },
      disableTransactions,
      migrationTableName: RELEASE_MIGRATION_TABLE,
      migrationLockTableName: `${RELEASE_MIGRATION_TABLE}_lock`,
    }),
  );
  if (created) await markFinished(db);
  return { applied: [...baseApplied, ...releaseApplied.filter((name) => !takenOver.has(name))], created };
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
export function underLease(db: Kysely<DatabaseSchema>): Kysely<DatabaseSchema> {
  const executor = db.getExecutor();
  const adapter = executor.adapter;
  const leaseHeld: DialectAdapter = Object.assign(Object.create(adapter) as DialectAdapter, {
    // The Migrator runs every migration on the connection it hands here (MySQL has no transactional DDL): that
    // session waits at most a few seconds for a table's metadata lock (src/db/online-ddl.ts), so an ALTER queued
    // behind a long transaction gives way instead of holding every later query on its table.
    acquireMigrationLock: async (conn: Kysely<any>) => {
      await sql`set session lock_wait_timeout = ${sql.raw(String(MIGRATION_LOCK_WAIT_SECONDS))}`.execute(conn);
    },
    releaseMigrationLock: async (conn: Kysely<any>) => {
      await sql`set session lock_wait_timeout = default`.execute(conn);
    },
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
