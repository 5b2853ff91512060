import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * The predicted arrival's push trigger (PREDICTED_ARRIVAL; docs/push.md, Predicted arrival). Expand only:
 *
 * - `webhook_subscription.predicted_shift_hours`, `predicted_lateness_hours`: the subscriber's thresholds, whole
 *   hours; null when it did not ask (every subscription release 0.4.0 makes). Nullable, so 0.4.0 inserts without
 *   them; on MySQL/MariaDB added in place (ALGORITHM=INSTANT).
 * - `predicted_arrival_mark`: per subscription and shipment, what was last pushed (the predicted arrival, whether it
 *   was late) and a revision. It is the guard that makes a crossing push once whichever instance evaluates it: the
 *   first mark is an INSERT on the primary key (a second instance's duplicate fails), every later one an UPDATE
 *   conditioned on the revision read, in the transaction that enqueues the delivery (src/store/push/predicted-arrival-push.ts).
 *
 * Release 0.4.0 cannot deliver, list or log a trigger type it does not know (its GraphQL TriggerType renders the
 * push and the subscription), so 0.5.0 accepts PREDICTED_ARRIVAL only once the upgrade is finished
 * (docs/upgrading.md): until then the columns stay null and the table empty.
 */
export default function predictedArrivalPush(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      if (dialect === 'mysql') {
        await sql`alter table webhook_subscription add column predicted_shift_hours int null, algorithm=instant`.execute(db);
        await sql`alter table webhook_subscription add column predicted_lateness_hours int null, algorithm=instant`.execute(db);
      } else {
        await db.schema.alterTable('webhook_subscription').addColumn('predicted_shift_hours', 'integer').execute();
        await db.schema.alterTable('webhook_subscription').addColumn('predicted_lateness_hours', 'integer').execute();
      }
      const exact = await exactTables(db, dialect);
      await exact(
        db.schema
          .createTable('predicted_arrival_mark')
          .addColumn('subscription_id', keyColumn(36), (c) => c.notNull())
          .addColumn('shipment_id', 'integer', (c) => c.notNull())
          .addColumn('estimate', keyColumn(30), (c) => c.notNull())
          .addColumn('late', 'integer', (c) => c.notNull())
          .addColumn('revision', 'integer', (c) => c.notNull())
          .addColumn('updated_at', keyColumn(30), (c) => c.notNull())
          .addPrimaryKeyConstraint('predicted_arrival_mark_pk', ['subscription_id', 'shipment_id']),
      ).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('predicted_arrival_mark').execute();
      await db.schema.alterTable('webhook_subscription').dropColumn('predicted_lateness_hours').execute();
      await db.schema.alterTable('webhook_subscription').dropColumn('predicted_shift_hours').execute();
    },
  };
}
