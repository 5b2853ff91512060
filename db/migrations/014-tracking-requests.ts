import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Tracking requests (docs/tracking-requests.md): a client asks the service to follow a bill of lading, a
 * booking or a container it knows, and the service fetches that reference from the carrier's DCSA events
 * endpoint itself.
 *
 * - `tracking_fetch`: one row per carrier + reference kind + reference, shared by every client that asks for
 *   it (one fetch schedule, one shipment). Its lease (`lease_owner`, `lease_until`), taken with one conditional
 *   UPDATE as the carrier poll state's, keeps a reference from being fetched twice at once across instances.
 * - `tracking_request`: one client's request, pointing at its fetch row. `active_key` is '-' while the request
 *   is active and its own id once it stopped, so the unique key allows one active request per client and
 *   reference (a second POST returns it) and any number of stopped ones.
 * - `carrier_source.reference_prefixes`: the prefixes (comma-separated) by which a reference names its carrier
 *   when a tracking request gives no carrierCode.
 */
export default function trackingRequests(dialect: SqlDialect): PhasedMigration {
  const ts = keyColumn(30);
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      const exact = await exactTables(db, dialect);
      const id = dialect === 'mysql' ? 'bigint' : 'integer';

      await exact(
        db.schema
          .createTable('tracking_fetch')
          .addColumn('id', id, (c) => c.primaryKey().autoIncrement())
          .addColumn('carrier_code', keyColumn(4), (c) => c.notNull())
          .addColumn('reference_kind', keyColumn(3), (c) => c.notNull())
          .addColumn('reference', keyColumn(100), (c) => c.notNull())
          .addColumn('status', keyColumn(25), (c) => c.notNull())
          .addColumn('status_reason', keyColumn(500))
          .addColumn('stop_reason', keyColumn(20))
          .addColumn('status_changed_at', ts, (c) => c.notNull())
          .addColumn('shipment_id', id)
          .addColumn('watermark', ts)
          .addColumn('events_seen', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('requested_at', ts, (c) => c.notNull())
          .addColumn('found_at', ts)
          .addColumn('last_change_at', ts)
          .addColumn('next_milestone_at', ts)
          .addColumn('arrived_at', ts)
          .addColumn('next_fetch_at', ts, (c) => c.notNull())
          .addColumn('lease_owner', keyColumn(64))
          .addColumn('lease_until', ts, (c) => c.notNull())
          .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_fetched_at', ts)
          .addColumn('last_error', keyColumn(500))
          .addColumn('fetches', 'integer', (c) => c.notNull().defaultTo(0))
          .addUniqueConstraint('tracking_fetch_reference_uq', ['carrier_code', 'reference_kind', 'reference']),
      ).execute();
      await db.schema.createIndex('tracking_fetch_due_idx').on('tracking_fetch').columns(['status', 'next_fetch_at']).execute();

      await exact(
        db.schema
          .createTable('tracking_request')
          .addColumn('id', keyColumn(36), (c) => c.primaryKey())
          .addColumn('client_id', keyColumn(64), (c) => c.notNull())
          .addColumn('account_ids', keyColumn(2000), (c) => c.notNull())
          .addColumn('fetch_id', id, (c) => c.notNull())
          .addColumn('carrier_code', keyColumn(4), (c) => c.notNull())
          .addColumn('reference_kind', keyColumn(3), (c) => c.notNull())
          .addColumn('reference', keyColumn(100), (c) => c.notNull())
          .addColumn('active_key', keyColumn(36), (c) => c.notNull())
          .addColumn('created_at', ts, (c) => c.notNull())
          .addColumn('updated_at', ts, (c) => c.notNull())
          .addColumn('stopped_at', ts)
          .addColumn('stop_reason', keyColumn(20))
          .addUniqueConstraint('tracking_request_active_uq', ['client_id', 'carrier_code', 'reference_kind', 'reference', 'active_key']),
      ).execute();
      await db.schema
        .createIndex('tracking_request_client_idx')
        .on('tracking_request')
        .columns(['client_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('tracking_request_fetch_idx').on('tracking_request').columns(['fetch_id', 'active_key']).execute();

      await db.schema.alterTable('carrier_source').addColumn('reference_prefixes', keyColumn(500)).execute();
    },
  };
}
