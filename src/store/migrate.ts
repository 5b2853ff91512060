import { Migrator } from 'kysely';
import { migrations } from '../../db/migrations/index.js';
import type { Database } from '../db/connect.js';
import { backfillStoredSnapshots } from './stored-snapshots.js';

const STORED_SNAPSHOTS_MIGRATION = '007-stored-snapshots';

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations(database.dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  // Shipments stored before snapshots were get theirs now. An interrupted
  // backfill is finished by the next `tracking migrate` (which always looks),
  // and until then those shipments' lookups assemble from the parts.
  if (applied.includes(STORED_SNAPSHOTS_MIGRATION)) await backfillStoredSnapshots(database.db, database.dialect);
  return applied;
}
