import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Push delivery (docs/architecture.md, Push): webhook subscriptions, their durable
 * outbox of deliveries, and the change log that live GraphQL subscriptions
 * tail. Also the scopes each API client may be granted (subscribing needs
 * `track-and-trace.subscribe`) and each shipment's milestone index, from
 * which a new milestone or a flip to ACT is detected at refresh.
 */
export default function pushDelivery(dialect: SqlDialect): PhasedMigration {
  const ts = keyColumn(30);
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      // New MySQL tables get the exact collation explicitly (docs/architecture.md, Identity), not the server default.
      const exact = await exactTables(db, dialect);
      const bigId = dialect === 'mysql' ? 'bigint' : 'integer';

      await db.schema
        .alterTable('api_client')
        .addColumn('scopes', keyColumn(200), (c) => c.notNull().defaultTo('track-and-trace.read'))
        .execute();
      await db.schema.alterTable('shipment').addColumn('milestones_json', 'text').execute();

      await exact(
        db.schema
          .createTable('webhook_subscription')
          .addColumn('subscription_id', keyColumn(36), (c) => c.primaryKey())
          .addColumn('client_id', keyColumn(64), (c) => c.notNull())
          .addColumn('account_id', keyColumn(100), (c) => c.notNull())
          .addColumn('shipment_id', 'integer', (c) => c.notNull())
          .addColumn('carrier_code', keyColumn(4))
          .addColumn('carrier_booking_reference', keyColumn(35))
          .addColumn('bill_of_lading_number', keyColumn(20))
          .addColumn('equipment_reference', keyColumn(11))
          .addColumn('callback_url', keyColumn(2000), (c) => c.notNull())
          .addColumn('trigger_types', keyColumn(200), (c) => c.notNull())
          .addColumn('scheduled_interval_seconds', 'integer')
          .addColumn('next_scheduled_at', ts)
          .addColumn('status', keyColumn(10), (c) => c.notNull())
          .addColumn('disabled_reason', keyColumn(200))
          .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
          .addColumn('previous_secret_ciphertext', 'text')
          .addColumn('previous_secret_expires_at', ts)
          .addColumn('created_at', ts, (c) => c.notNull())
          .addColumn('updated_at', ts, (c) => c.notNull()),
      ).execute();
      await db.schema
        .createIndex('webhook_subscription_shipment_idx')
        .on('webhook_subscription')
        .columns(['shipment_id', 'status'])
        .execute();
      await db.schema.createIndex('webhook_subscription_client_idx').on('webhook_subscription').column('client_id').execute();
      await db.schema
        .createIndex('webhook_subscription_schedule_idx')
        .on('webhook_subscription')
        .columns(['status', 'next_scheduled_at'])
        .execute();

      await exact(
        db.schema
          .createTable('webhook_delivery')
          .addColumn('id', bigId, (c) => c.primaryKey().autoIncrement())
          .addColumn('delivery_id', keyColumn(36), (c) => c.notNull().unique())
          .addColumn('subscription_id', keyColumn(36), (c) => c.notNull())
          .addColumn('shipment_id', 'integer', (c) => c.notNull())
          .addColumn('trigger_type', keyColumn(20), (c) => c.notNull())
          .addColumn('triggered_by_event', keyColumn(36))
          .addColumn('exception_id', keyColumn(36))
          .addColumn('transmission_id', keyColumn(40))
          .addColumn('status', keyColumn(10), (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', ts, (c) => c.notNull())
          .addColumn('lease_owner', keyColumn(64))
          .addColumn('lease_until', ts)
          .addColumn('last_status', 'integer')
          .addColumn('last_error', keyColumn(500))
          .addColumn('created_at', ts, (c) => c.notNull())
          .addColumn('delivered_at', ts)
          .addColumn('updated_at', ts, (c) => c.notNull()),
      ).execute();
      await db.schema
        .createIndex('webhook_delivery_subscription_idx')
        .on('webhook_delivery')
        .columns(['subscription_id', 'status', 'id'])
        .execute();
      await db.schema.createIndex('webhook_delivery_due_idx').on('webhook_delivery').columns(['status', 'next_attempt_at']).execute();

      await exact(
        db.schema
          .createTable('change_log')
          .addColumn('id', bigId, (c) => c.primaryKey().autoIncrement())
          .addColumn('shipment_id', 'integer', (c) => c.notNull())
          .addColumn('trigger_type', keyColumn(20), (c) => c.notNull())
          .addColumn('triggered_by_event', keyColumn(36))
          .addColumn('exception_id', keyColumn(36))
          .addColumn('created_at', ts, (c) => c.notNull()),
      ).execute();
      await db.schema.createIndex('change_log_created_idx').on('change_log').column('created_at').execute();
    },
  };
}
