import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { runOnline } from '../../src/db/online-ddl.js';
import type { SqlDialect } from '../../src/db/dialect.js';

/**
 * Compact stored snapshots (src/store/shipments/stored-snapshots.ts, docs/architecture.md, Snapshot rules):
 *
 * - `stored_form`: how the row is stored. 0 (every row written before this migration): the JSON text columns
 *   `tracking_json` and `exceptions_json`, as migration 007 made them. From 1 on: the columns below, compressed,
 *   and the JSON text columns empty.
 * - `tracking_z`, `exceptions_z`: the same JSON as the text columns, deflated.
 * - `rest_tracking_z`: REST's `shipmentTracking` as GET /v2/shipments serves it (src/domain/rest-tracking.ts),
 *   deflated; null where that rendering could not be made from the stored state alone.
 *
 * Adding nullable columns and a column with a default rewrites no row (MariaDB and MySQL 8 add them in place),
 * and old rows keep answering as they are: the reader goes by `stored_form`. backfillCompactSnapshots rewrites
 * them in small batches afterwards (`tracking migrate`, and in the background of `tracking serve`).
 */
export default function compactSnapshots(dialect: SqlDialect): PhasedMigration {
  const blob = dialect === 'mysql' ? sql`longblob` : sql`blob`;
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      await runOnline(
        db,
        dialect,
        db.schema.alterTable('shipment_snapshot').addColumn('stored_form', 'integer', (c) => c.notNull().defaultTo(0)),
        'instant',
      );
      for (const column of ['tracking_z', 'exceptions_z', 'rest_tracking_z']) {
        await runOnline(db, dialect, db.schema.alterTable('shipment_snapshot').addColumn(column, blob), 'instant');
      }
    },
    async down(db: Kysely<any>) {
      for (const column of ['rest_tracking_z', 'exceptions_z', 'tracking_z', 'stored_form']) {
        await db.schema.alterTable('shipment_snapshot').dropColumn(column).execute();
      }
    },
  };
}
