import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from '../../../db/migrations/phase.js';
import { markStandIns } from '../../../db/migrations/016-shipment-identity.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { unholdChanges } from '../changes/held-changes.js';
import { backfillCompactEvents } from '../events/compact-events.js';
import { backfillCompactMilestones } from '../shipments/compact-milestones.js';
import { backfillCompactSnapshots } from '../shipments/stored-snapshots.js';

/**
 * The contract steps of this release (db/migrations/phase.ts): what `tracking upgrade finish` runs once no instance
 * of the previous release is left, in name order, each recorded in `contract_migration` when done. They rewrite
 * rows into forms 0.4.0 cannot read, so they never run at start-up. Each is safe to run again and alongside the
 * service (small transactions that write a row only if it is still the one read), so a finish that was
 * interrupted is finished by the next `tracking upgrade finish`.
 *
 * They live here rather than in db/migrations because they are the store's own backfills (db/ sits below the
 * store's floor); their numbers continue the migrations' (032 follows 0.5.0's last expand step).
 */
export function contractSteps(): Record<string, PhasedMigration> {
  return {
    // Events stored as plain JSON (by 0.4.0, or by this release before the finish) get their compact payload
    // (db/migrations/021-compact-events.ts, src/store/events/event-payload.ts); payload_json becomes ''.
    '025-compact-events': contract((db) => backfillCompactEvents(db)),
    // Stored snapshots of stored_form 0 get the compressed columns and REST's rendering; the text columns become ''.
    '026-compact-snapshots': contract((db) => backfillCompactSnapshots(db)),
    // Milestone indexes stored as plain JSON get their compact form; milestones_json becomes null.
    '027-compact-milestones': contract((db) => backfillCompactMilestones(db)),
    // Stand-ins 0.4.0 stored during the upgrade are marked as migration 016 marked those stored before it, so that a
    // statement naming their real booking takes their place (docs/architecture.md, Identity).
    '028-mark-stand-ins': contract((db) => markStandIns(db)),
    // GRANTED, REVOKED and SHIPMENT_MERGED changes written held until the finish (shipment id negated, so that
    // 0.4.0 never read them: src/store/encoding/change-log-forms.ts) get their shipment id back, keeping their place.
    '032-plain-access-changes': contract((db) => unholdChanges(db)),
  };
}

function contract(up: (db: Kysely<DatabaseSchema>) => Promise<unknown>): PhasedMigration {
  return { phase: 'contract', up: async (db: Kysely<any>) => void (await up(db as Kysely<DatabaseSchema>)) };
}

export const CONTRACT_MIGRATION_TABLE = 'contract_migration';

// The table is not in DatabaseSchema: like Kysely's own kysely_migration, it belongs to the bookkeeping.
type AnyDb = Kysely<any>;

export async function ensureContractTable(db: AnyDb): Promise<void> {
  await sql`create table if not exists ${sql.table(CONTRACT_MIGRATION_TABLE)} (
    name varchar(255) not null primary key,
    applied_at varchar(30) not null
  )`.execute(db);
}

/** The contract steps recorded as done (none when the table does not exist yet). */
export async function doneContractSteps(db: AnyDb): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(CONTRACT_MIGRATION_TABLE)} order by name`.execute(db);
    return rows.map((r) => r.name);
  } catch (err) {
    if (isMissingTable(err)) return [];
    throw err;
  }
}

/** The steps not yet done, in order. */
export async function pendingContractSteps(db: AnyDb): Promise<string[]> {
  const done = new Set(await doneContractSteps(db));
  return Object.keys(contractSteps())
    .sort()
    .filter((name) => !done.has(name));
}

/**
 * Runs every pending step in order and records it; returns the names run. The caller holds the finish lease
 * (src/store/housekeeping/upgrade-finish.ts); a step that fails stops the run, recorded steps stay done.
 */
export async function runContractSteps(db: Kysely<DatabaseSchema>, log?: (name: string, ms: number) => void): Promise<string[]> {
  await ensureContractTable(db);
  const steps = contractSteps();
  const ran: string[] = [];
  for (const name of await pendingContractSteps(db)) {
    const started = Date.now();
    await steps[name]!.up(db);
    await sql`insert into ${sql.table(CONTRACT_MIGRATION_TABLE)} (name, applied_at) values (${name}, ${new Date().toISOString()})`
      .execute(db)
      // Another finish (SQLite has no finish lease) recorded it first: both did the same idempotent work.
      .catch((err: unknown) => {
        if (!isUniqueViolation(err)) throw err;
      });
    log?.(name, Date.now() - started);
    ran.push(name);
  }
  return ran;
}

/** A table that does not exist, on either store. */
export function isMissingTable(err: unknown): boolean {
  const e = err as { errno?: number; message?: string } | null;
  return e?.errno === 1146 || /no such table/i.test(e?.message ?? '');
}
