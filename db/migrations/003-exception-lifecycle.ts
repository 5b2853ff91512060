import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * The exception lifecycle of docs/architecture.md, Exception rules (src/domain/exception-lifecycle.ts):
 * stored exceptions are reconciled with the facts instead of being recomputed
 * and replaced, so each row keeps what the reconciliation needs. Rows stored
 * before (subject '') are adopted on their shipment's next refresh.
 *
 * Operator clears are now a state of the exception row itself (RESOLVED,
 * MANUAL_CLEAR), so exception_clear goes; every clear it held is already in
 * the cleared row's served body.
 */
export default function exceptionLifecycle(_dialect: SqlDialect): PhasedMigration {
  const ts = keyColumn(30);
  return {
    phase: 'contract',
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('tracking_exception')
        .addColumn('subject', keyColumn(200), (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('tracking_exception')
        .addColumn('occurrence', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('tracking_exception').addColumn('fact_start', ts).execute();
      await db.schema.alterTable('tracking_exception').addColumn('fact_end', ts).execute();
      await db.schema
        .alterTable('tracking_exception')
        .addColumn('refuted', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('tracking_exception').addColumn('raised_by', keyColumn(36)).execute();
      await db.schema.alterTable('tracking_exception').addColumn('condition_json', 'text').execute();
      await db.schema.alterTable('tracking_exception').addColumn('detected_at', ts).execute();
      await db.schema.alterTable('tracking_exception').addColumn('resolved_at', ts).execute();
      await db.schema.alterTable('tracking_exception').dropColumn('episode').execute();
      await db.schema
        .createIndex('tracking_exception_status_type_idx')
        .on('tracking_exception')
        .columns(['status', 'exception_type'])
        .execute();
      await db.schema.dropTable('exception_clear').execute();
    },
  };
}
