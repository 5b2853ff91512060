import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, type SqlDialect } from '../../src/db/dialect.js';

/**
 * The change log in commit order (docs/architecture.md, Change log). A change_log row gets its id when the
 * writing transaction inserts it, but becomes visible when that transaction commits, so ids are not in commit
 * order and a reader resuming after an id could skip a row committed late. From now on every row also gets a
 * `commit_seq`, the number of the ordering batch that took it (src/store/changes/change-order.ts): batches are taken
 * one at a time, each numbers only rows already committed, so every row committed later lands in a later
 * batch. Readers resume after a (commit_seq, id) position and never skip.
 *
 * `change_sequence` is one row: the last batch number (its row lock is what makes batches take turns) and the
 * position up to which old rows were pruned (a cursor older than that has lost changes and is refused).
 *
 * Rows stored before this migration have no commit_seq yet: the first ordering batch numbers them, in id order.
 */
export default function orderedChangeLog(dialect: SqlDialect): PhasedMigration {
  const bigInt = dialect === 'mysql' ? 'bigint' : 'integer';
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      const exact = await exactTables(db, dialect);
      await db.schema.alterTable('change_log').addColumn('commit_seq', bigInt).execute();
      await db.schema.createIndex('change_log_commit_idx').on('change_log').columns(['commit_seq', 'id']).execute();
      await db.schema.createIndex('change_log_shipment_commit_idx').on('change_log').columns(['shipment_id', 'commit_seq', 'id']).execute();
      await exact(
        db.schema
          .createTable('change_sequence')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('last_seq', bigInt, (c) => c.notNull())
          .addColumn('pruned_seq', bigInt, (c) => c.notNull())
          .addColumn('pruned_id', bigInt, (c) => c.notNull()),
      ).execute();
      await db.insertInto('change_sequence').values({ id: 1, last_seq: 0, pruned_seq: 0, pruned_id: 0 }).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('change_sequence').execute();
      await db.schema.dropIndex('change_log_shipment_commit_idx').on('change_log').execute();
      await db.schema.dropIndex('change_log_commit_idx').on('change_log').execute();
      await db.schema.alterTable('change_log').dropColumn('commit_seq').execute();
    },
  };
}
