import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, jsonColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Each shipment's snapshot, built when the shipment changes (ingest, the
 * clock's evaluation, an operator's clear) and stored with the version it
 * belongs to, so that a lookup reads it in one primary-key read and
 * assembles nothing (src/store/shipments/stored-snapshots.ts). Two columns, so that a
 * query asking only for exceptions reads and parses only those.
 *
 * Shipments stored before this migration get theirs from
 * backfillStoredSnapshots, which migrateToLatest runs right after it; until
 * then (or if it was interrupted) a lookup assembles from the parts, as
 * before.
 */
export default function storedSnapshots(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      const exact = await exactTables(db, dialect);
      await exact(
        db.schema
          .createTable('shipment_snapshot')
          .addColumn('shipment_id', 'integer', (c) => c.primaryKey())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('tracking_json', jsonColumn(dialect), (c) => c.notNull())
          .addColumn('exceptions_json', jsonColumn(dialect), (c) => c.notNull()),
      ).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('shipment_snapshot').execute();
    },
  };
}
