import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * The predicted arrival's model, kept in the database (docs/predicted-arrival.md, How it is trained and served), so
 * every instance serves the same predictions and a restart keeps them. Expand only: two new tables.
 *
 * - `eta_model`: one row per version of the model, written by training (src/store/eta/eta-model.ts). An instance
 *   asks for the highest version (one primary-key range read) and loads a model only when that number moved; the
 *   model is its JSON, raw-deflated (`model_z`), with what `tracking eta train` and the logs report beside it.
 *   Old versions are pruned by training, a few kept, so an instance still loading one finds it.
 * - `eta_training`: one row (id 1), the training's lease and cursor. Instances train one at a time across a
 *   cluster: the lease is claimed by a conditional UPDATE (owner, lease until), as the carrier poller's is
 *   (docs/architecture.md, Push), and every write of a new model is conditioned on still holding it. `history_cursor` is
 *   the history loader's position (opaque text, src/store/eta/eta-history.ts): the voyages folded in so far.
 *
 * Text columns take the exact collation on MySQL/MariaDB, as every other table's (docs/architecture.md, Identity).
 */
export default function etaModel(dialect: SqlDialect): PhasedMigration {
  const ts = keyColumn(30);
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      const exact = await exactTables(db, dialect);
      await exact(
        db.schema
          .createTable('eta_model')
          .addColumn('version', 'integer', (c) => c.primaryKey())
          .addColumn('format', 'integer', (c) => c.notNull())
          .addColumn('trained_at', ts, (c) => c.notNull())
          .addColumn('voyages', 'integer', (c) => c.notNull())
          .addColumn('lanes', 'integer', (c) => c.notNull())
          .addColumn('model_z', dialect === 'mysql' ? sql`mediumblob` : 'blob', (c) => c.notNull())
          .addColumn('created_at', ts, (c) => c.notNull()),
      ).execute();
      await exact(
        db.schema
          .createTable('eta_training')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('lease_owner', keyColumn(200))
          .addColumn('lease_until', ts, (c) => c.notNull())
          .addColumn('history_cursor', keyColumn(500))
          .addColumn('last_run_at', ts)
          .addColumn('last_error', keyColumn(500)),
      ).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('eta_training').execute();
      await db.schema.dropTable('eta_model').execute();
    },
  };
}
