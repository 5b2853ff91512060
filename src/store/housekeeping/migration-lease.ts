import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely } from 'kysely';
import { retryTransaction } from '../../db/retry-transaction.js';

/**
 * The MySQL/MariaDB migration lock: a lease row that holds across every node of a Galera cluster
 * (docs/operating.md, Running on a Galera cluster).
 *
 * `GET_LOCK` and row locks are local to one Galera node: two replicas started on two nodes both got them and
 * both migrated. A row written by a conditional INSERT or UPDATE is replicated and certified like any write, so
 * of two processes claiming it through different nodes one commits and the other fails certification (1213),
 * retries (src/db/retry-transaction.ts) and then sees the row taken. On a single server it is an ordinary row.
 *
 * The row carries a lease rather than living as long as a session: a process that dies mid-migration leaves
 * the row behind, and the lease (renewed while the migrations run) lets another take over once it ran out.
 * The table is created before any migration runs (it is the lock the migrations run under), by
 * `CREATE TABLE IF NOT EXISTS`, which every process may run at once (Galera runs DDL in total order).
 *
 * `holder` is bytes (varbinary): no collation to choose, and no text column outside the exact collation every
 * other one has (db/migrations/002-exact-identifiers.ts).
 *
 * Times are the processes' clocks in ms since the epoch: a lease of a minute tolerates the skew of clocks kept
 * by NTP.
 */
export const MIGRATION_LEASE_TABLE = 'migration_lease';
const MIGRATIONS_LEASE_ROW = 1;

export interface MigrationLeaseOptions {
  /** How long to wait for another process's lease before giving up, in ms. */
  waitMs: number;
  /** The lease's length, in ms; renewed every quarter of it. Default 60 s. */
  leaseMs?: number;
  /** Pause between two claims while another process holds the lease (jittered), in ms. Default 500. */
  pollMs?: number;
  log?: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  /** Who claims; default host:pid:random. */
  holder?: string;
  /** Which lease: 1 (default) the migrations', FINISH_LEASE_ROW `tracking upgrade finish`'s. */
  row?: number;
}

/** The lease `tracking upgrade finish` holds while it runs the contract steps: not the migrations' own, so that
 * instances starting meanwhile migrate (nothing) and serve instead of waiting for the backfills. */
export const FINISH_LEASE_ROW = 2;

export interface HeldMigrationLease {
  holder: string;
  /** Frees the row; throws when the lease was lost meanwhile (another process may have migrated alongside). */
  release(): Promise<void>;
}

// The table is not in DatabaseSchema: it exists before the migrations and outside them.
type AnyDb = Kysely<unknown>;

export async function ensureMigrationLeaseTable(db: AnyDb): Promise<void> {
  await sql`create table if not exists ${sql.table(MIGRATION_LEASE_TABLE)} (
    id int not null primary key,
    holder varbinary(200) null,
    lease_until bigint not null
  ) engine = InnoDB`.execute(db);
}

/** One claim: the row inserted if absent, else taken over if free or expired. True when this holder has it. */
async function claimOnce(db: AnyDb, holder: string, leaseMs: number, row: number): Promise<boolean> {
  const now = Date.now();
  const inserted = await sql`insert ignore into ${sql.table(MIGRATION_LEASE_TABLE)} (id, holder, lease_until)
    values (${row}, ${holder}, ${now + leaseMs})`.execute(db);
  if (Number(inserted.numAffectedRows ?? 0) > 0) return true;
  const taken = await sql`update ${sql.table(MIGRATION_LEASE_TABLE)} set holder = ${holder}, lease_until = ${now + leaseMs}
    where id = ${row} and (holder is null or lease_until <= ${now})`.execute(db);
  return Number(taken.numAffectedRows ?? 0) > 0;
}

async function currentHolder(db: AnyDb, leaseRow: number): Promise<{ holder: string | null; leaseUntil: number } | undefined> {
  const { rows } = await sql<{ holder: Uint8Array | string | null; lease_until: number | string }>`select holder, lease_until
    from ${sql.table(MIGRATION_LEASE_TABLE)} where id = ${leaseRow}`.execute(db);
  const row = rows[0];
  return row
    ? { holder: row.holder === null ? null : Buffer.from(row.holder).toString('utf8'), leaseUntil: Number(row.lease_until) }
    : undefined;
}

export async function takeMigrationLease(db: AnyDb, options: MigrationLeaseOptions): Promise<HeldMigrationLease> {
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? 60_000;
  const row = options.row ?? MIGRATIONS_LEASE_ROW;
  const pollMs = options.pollMs ?? 500;
  await retryTransaction(() => ensureMigrationLeaseTable(db));
  const deadline = Date.now() + options.waitMs;
  let waitingSince: number | null = null;
  while (!(await retryTransaction(() => claimOnce(db, holder, leaseMs, row)))) {
    if (waitingSince === null) {
      waitingSince = Date.now();
      const other = await currentHolder(db, row);
      options.log?.('info', 'waiting for another process to finish migrating the database', {
        lock: `${MIGRATION_LEASE_TABLE} row`,
        holder: other?.holder ?? null,
        leaseUntil: other ? new Date(other.leaseUntil).toISOString() : null,
      });
    }
    if (Date.now() >= deadline) throw new Error(`gave up waiting ${Math.round(options.waitMs / 1000)} s for the migration lock`);
    await new Promise((resolve) => setTimeout(resolve, pollMs / 2 + Math.random() * pollMs));
  }
  if (waitingSince !== null) {
    options.log?.('info', 'migration lock acquired after waiting', {
      lock: `${MIGRATION_LEASE_TABLE} row`,
      waitedMs: Date.now() - waitingSince,
    });
  }

  // Renewed on the pool while the migrations hold their own connection (a long ALTER must not lose the lease).
  let lost: unknown = null;
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    const now = Date.now();
    const result = await retryTransaction(() =>
      sql`update ${sql.table(MIGRATION_LEASE_TABLE)} set lease_until = ${now + leaseMs}
        where id = ${row} and holder = ${holder}`.execute(db),
    );
    if (Number(result.numAffectedRows ?? 0) === 0) lost ??= new Error('the migration lease was taken over by another process');
  };
  const timer = setInterval(() => {
    renewing = renewing.then(renew).catch((err: unknown) => {
      // A failed renewal is not a lost lease yet: the next one may succeed before it runs out.
      options.log?.('warn', 'renewing the migration lease failed', { error: String(err) });
    });
  }, leaseMs / 4);
  timer.unref();

  return {
    holder,
    async release() {
      clearInterval(timer);
      await renewing;
      await retryTransaction(() =>
        sql`update ${sql.table(MIGRATION_LEASE_TABLE)} set holder = null, lease_until = 0
          where id = ${row} and holder = ${holder}`.execute(db),
      );
      if (lost) throw lost instanceof Error ? lost : new Error(String(lost));
    },
  };
}
