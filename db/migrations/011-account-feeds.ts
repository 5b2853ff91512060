import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Account feeds and account-wide webhooks (docs/account-feed.md).
 *
 * - `webhook_subscription.exception_types` and `carrier_codes`: a webhook subscription's filters beside its
 *   trigger types (comma-separated, null for no filter). A WEBHOOK subscription with `shipment_id` 0 covers
 *   every shipment its account sees, those linked later included (DCSA subscriptions keep `filters_json`).
 * - `shipment_account_account_shipment_idx`: an account's shipments in id order, what the change feed's first
 *   listing and the GraphQL `shipments` connection page through without scanning other accounts' shipments.
 */
export default function accountFeeds(_dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      // Added columns take the table's exact collation (004 sets it as the table's default).
      await db.schema.alterTable('webhook_subscription').addColumn('exception_types', keyColumn(200)).execute();
      await db.schema.alterTable('webhook_subscription').addColumn('carrier_codes', keyColumn(200)).execute();
      await db.schema
        .createIndex('shipment_account_account_shipment_idx')
        .on('shipment_account')
        .columns(['account_id', 'shipment_id'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('shipment_account_account_shipment_idx').on('shipment_account').execute();
      await db.schema.alterTable('webhook_subscription').dropColumn('carrier_codes').execute();
      await db.schema.alterTable('webhook_subscription').dropColumn('exception_types').execute();
    },
  };
}
