import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { jsonColumn, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/** Every table of the service. Timestamps are canonical ISO strings (see src/domain/timestamps.ts). */
export default function initial(dialect: SqlDialect): PhasedMigration {
  const json = jsonColumn(dialect);
  const ts = keyColumn(30);
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('shipment')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('carrier_code', keyColumn(4), (c) => c.notNull())
        .addColumn('carrier_booking_reference', keyColumn(35), (c) => c.notNull())
        .addColumn('booking_reference', keyColumn(35))
        .addColumn('bill_of_lading_number', keyColumn(20))
        .addColumn('master_json', json, (c) => c.notNull())
        .addColumn('etd', ts)
        .addColumn('eta', ts)
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('clock_sensitive', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addUniqueConstraint('shipment_carrier_booking_uq', ['carrier_code', 'carrier_booking_reference'])
        .execute();
      await db.schema.createIndex('shipment_bill_of_lading_idx').on('shipment').column('bill_of_lading_number').execute();

      await db.schema
        .createTable('shipment_container')
        .addColumn('shipment_id', 'integer', (c) => c.notNull())
        .addColumn('container_number', keyColumn(11), (c) => c.notNull())
        .addColumn('master_json', json, (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('last_event_at', ts)
        .addPrimaryKeyConstraint('shipment_container_pk', ['shipment_id', 'container_number'])
        .execute();
      await db.schema.createIndex('shipment_container_number_idx').on('shipment_container').column('container_number').execute();

      await db.schema
        .createTable('shipment_account')
        .addColumn('shipment_id', 'integer', (c) => c.notNull())
        .addColumn('account_id', keyColumn(100), (c) => c.notNull())
        .addPrimaryKeyConstraint('shipment_account_pk', ['shipment_id', 'account_id'])
        .execute();
      await db.schema.createIndex('shipment_account_account_idx').on('shipment_account').column('account_id').execute();

      await db.schema
        .createTable('event')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('event_id', keyColumn(36), (c) => c.notNull().unique())
        .addColumn('carrier_code', keyColumn(4), (c) => c.notNull())
        .addColumn('event_type', keyColumn(10), (c) => c.notNull())
        .addColumn('event_date_time', ts, (c) => c.notNull())
        .addColumn('event_created_date_time', ts, (c) => c.notNull())
        .addColumn('payload_json', json, (c) => c.notNull())
        .addColumn('ingested_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('event_reference')
        .addColumn('event_seq', 'integer', (c) => c.notNull())
        .addColumn('carrier_code', keyColumn(4), (c) => c.notNull())
        .addColumn('kind', keyColumn(3), (c) => c.notNull())
        .addColumn('value', keyColumn(100), (c) => c.notNull())
        .addPrimaryKeyConstraint('event_reference_pk', ['event_seq', 'kind', 'value'])
        .execute();
      await db.schema.createIndex('event_reference_lookup_idx').on('event_reference').columns(['carrier_code', 'kind', 'value']).execute();

      await db.schema
        .createTable('shipment_event')
        .addColumn('shipment_id', 'integer', (c) => c.notNull())
        .addColumn('event_seq', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('shipment_event_pk', ['shipment_id', 'event_seq'])
        .execute();
      await db.schema.createIndex('shipment_event_event_idx').on('shipment_event').column('event_seq').execute();

      await db.schema
        .createTable('tracking_exception')
        .addColumn('exception_id', keyColumn(36), (c) => c.primaryKey())
        .addColumn('shipment_id', 'integer', (c) => c.notNull())
        .addColumn('exception_type', keyColumn(40), (c) => c.notNull())
        .addColumn('status', keyColumn(10), (c) => c.notNull())
        .addColumn('episode', keyColumn(200), (c) => c.notNull())
        .addColumn('body_json', json, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('shipment_clock_sensitive_idx').on('shipment').column('clock_sensitive').execute();
      await db.schema.createIndex('tracking_exception_shipment_idx').on('tracking_exception').column('shipment_id').execute();

      await db.schema
        .createTable('exception_clear')
        .addColumn('exception_id', keyColumn(36), (c) => c.primaryKey())
        .addColumn('episode', keyColumn(200), (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('cleared_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_client')
        .addColumn('client_id', keyColumn(64), (c) => c.primaryKey())
        .addColumn('name', keyColumn(200), (c) => c.notNull())
        .addColumn('account_id', keyColumn(100), (c) => c.notNull())
        .addColumn('secret_hash', keyColumn(128), (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('secret_rotated_at', ts, (c) => c.notNull())
        .addColumn('disabled_at', ts)
        .execute();

      await db.schema
        .createTable('signing_key')
        .addColumn('kid', keyColumn(64), (c) => c.primaryKey())
        .addColumn('alg', keyColumn(16), (c) => c.notNull())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('service_secret')
        .addColumn('name', keyColumn(64), (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('transmission_block')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('reserved_at', ts, (c) => c.notNull())
        .execute();
    },
  };
}
