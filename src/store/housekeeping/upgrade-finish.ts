import type { Kysely } from 'kysely';
import type { Database } from '../../db/connect.js';
import { compareVersions, PREVIOUS_VERSION, VERSION } from '../../domain/release.js';
import { PREVIOUS_RELEASE_MIGRATIONS } from '../../../db/migrations/index.js';
import { runContractSteps } from './contract-steps.js';
import { HEARTBEAT_INTERVAL_MS, listInstances, type InstanceRow } from './instance-heartbeats.js';
import { FINISH_LEASE_ROW, takeMigrationLease } from './migration-lease.js';
import { markFinished, readUpgradeState, recordedMigrations, refreshWriteForms, FINISHED_MARK } from './upgrade-state.js';

/**
 * `tracking upgrade finish` (docs/upgrading.md, What finish does):
 *
 * 1. Refuses while an instance of an older release is alive by its heartbeat (instance-heartbeats.ts), naming them.
 * 2. Refuses, unless the operator states that none runs, while an instance of 0.4.0 may run: 0.4.0 writes no
 *    heartbeat, and nothing it leaves in the database tells whether one is still up (an idle one writes nothing).
 *    It may run exactly while kysely_migration holds only names 0.4.0 knows: once it holds another (FINISHED_MARK,
 *    or the migrations of an unreleased build), a 0.4.0 refuses to start, and one still running was started before
 *    that by an operator who was told to stop them. So the question is asked once, before the finish begins.
 * 3. Writes FINISHED_MARK: from now on 0.4.0 cannot start on the database, and every instance of this release
 *    writes the compact forms within a heartbeat (upgrade-state.ts). Waits two heartbeat intervals for them.
 * 4. Runs the contract steps (contract-steps.ts), recording each, under a lease of its own on MySQL/MariaDB (a
 *    second `finish` waits for it; instances starting meanwhile do not).
 *
 * Running it again finishes an interrupted finish; when everything is done it does nothing.
 */
export type FinishOutcome =
  | { status: 'finished'; ran: string[] }
  | { status: 'nothing-to-do' }
  | { status: 'older-instances-alive'; instances: InstanceRow[] }
  | { status: 'previous-release-may-run'; previousVersion: string };

export interface FinishOptions {
  /** The operator's word that no instance of PREVIOUS_VERSION runs (they record no heartbeat). */
  previousReleaseStopped?: boolean;
  /** How long the instances are given to learn of the finish before the rows are rewritten. Default 2 heartbeats + 1 s. */
  propagationMs?: number;
  now?: () => Date;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export async function finishUpgrade(database: Database, options: FinishOptions = {}): Promise<FinishOutcome> {
  const db = database.db;
  const now = options.now ?? (() => new Date());
  const state = await readUpgradeState(db);
  if (state.finished) return { status: 'nothing-to-do' };
  const older = (await listInstances(db, now())).filter((i) => i.alive && compareVersions(i.version, VERSION) < 0);
  if (older.length > 0) return { status: 'older-instances-alive', instances: older };
  if (!state.writesCompact && (await previousReleaseMayRun(db)) && !options.previousReleaseStopped) {
    return { status: 'previous-release-may-run', previousVersion: PREVIOUS_VERSION };
  }

  const lease =
    database.dialect === 'mysql'
      ? await takeMigrationLease(db as Kysely<unknown>, { waitMs: 24 * 3_600_000, row: FINISH_LEASE_ROW })
      : undefined;
  try {
    if (await markFinished(db)) {
      options.log?.(`recorded ${FINISHED_MARK}: instances write the compact forms from their next heartbeat`);
      await new Promise((resolve) => setTimeout(resolve, options.propagationMs ?? 2 * HEARTBEAT_INTERVAL_MS + 1_000));
    }
    await refreshWriteForms(db);
    const ran = await runContractSteps(db, (name, ms) => options.log?.(`ran contract step ${name}`, { step: name, ms }));
    return { status: 'finished', ran };
  } finally {
    await lease?.release();
  }
}

/** kysely_migration holds only names 0.4.0 knows: a 0.4.0 instance may be running on this database. */
async function previousReleaseMayRun(db: Kysely<any>): Promise<boolean> {
  const known = new Set(PREVIOUS_RELEASE_MIGRATIONS);
  return (await recordedMigrations(db)).every((name) => known.has(name));
}
