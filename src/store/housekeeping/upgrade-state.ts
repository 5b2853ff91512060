import { sql, type Kysely } from 'kysely';
import { VERSION } from '../../domain/release.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { setWritesCompact } from '../encoding/write-forms.js';
import { isMissingTable, pendingContractSteps } from './contract-steps.js';

/**
 * Where the database says how far the upgrade to this release has come (docs/upgrading.md):
 *
 * - FINISHED_MARK in `kysely_migration`: written by `tracking upgrade finish` (and at once on a database this
 *   release created). From then on every instance writes the compact forms (src/store/encoding/write-forms.ts),
 *   and release 0.4.0 refuses to start on the database: its Migrator finds a migration name it does not know
 *   ("corrupted migrations: previously executed migration 999-upgrade-to-0.5.0-finished is missing") instead
 *   of starting and failing on the first compact row it reads.
 * - the contract steps recorded in `contract_migration` (src/store/housekeeping/contract-steps.ts): the pending
 *   ones are what finish still has to run.
 *
 * Every instance reads it at start-up and with each heartbeat (instance-heartbeats.ts), so it learns that the
 * upgrade is finished from the database within one heartbeat interval, whichever process finished it.
 */
export const FINISHED_MARK = `999-upgrade-to-${VERSION}-finished`;

/** Kysely's own bookkeeping table, where 0.4.0 looks (db/migrations/index.ts). */
export const KYSELY_MIGRATION_TABLE = 'kysely_migration';

export interface UpgradeState {
  /** finish has begun: writes store the compact forms, 0.4.0 can no longer start. */
  writesCompact: boolean;
  /** Contract steps not yet run, in order. */
  pending: string[];
  /** Begun and every contract step run. */
  finished: boolean;
}

type AnyDb = Kysely<any>;

/** The migration names kysely_migration records (none when it does not exist: an empty database). */
export async function recordedMigrations(db: AnyDb): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(KYSELY_MIGRATION_TABLE)} order by name`.execute(db);
    return rows.map((r) => r.name);
  } catch (err) {
    if (isMissingTable(err)) return [];
    throw err;
  }
}

export async function readUpgradeState(db: AnyDb): Promise<UpgradeState> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(KYSELY_MIGRATION_TABLE)}
    where name = ${FINISHED_MARK}`.execute(db);
  const writesCompact = rows.length > 0;
  const pending = await pendingContractSteps(db);
  return { writesCompact, pending, finished: writesCompact && pending.length === 0 };
}

/** Reads the state and records it for this process's writes into `db` (write-forms.ts). */
export async function refreshWriteForms(db: AnyDb): Promise<UpgradeState> {
  const state = await readUpgradeState(db);
  setWritesCompact(db, state.writesCompact);
  return state;
}

/** Writes FINISHED_MARK; true when this call wrote it (false: it was there). */
export async function markFinished(db: AnyDb): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(KYSELY_MIGRATION_TABLE)}
    where name = ${FINISHED_MARK}`.execute(db);
  if (rows.length > 0) return false;
  try {
    await sql`insert into ${sql.table(KYSELY_MIGRATION_TABLE)} (name, timestamp)
      values (${FINISHED_MARK}, ${new Date().toISOString()})`.execute(db);
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
