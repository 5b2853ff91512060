import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';
import { eventFacts } from '../../src/domain/dcsa/dcsa-events.js';
import type { TrackingEvent } from '../../src/domain/types.js';

/**
 * The service as a DCSA Track & Trace 2.2 publisher (docs/dcsa-events.md: Consuming the service as a DCSA publisher).
 *
 * - `event` gets the attributes the 2.2 filters select on (src/domain/dcsa/dcsa-events.ts, eventFacts), so
 *   GET /v2/events filters in SQL, and whether the 2.2 schema can carry the event at all. Events stored before
 *   are filled in from their payload here, in chunks.
 * - `webhook_subscription` holds DCSA event subscriptions too (`kind` DCSA): they ride the webhook outbox (its
 *   leases, order per subscription, retries, delivery log). Their filters are `filters_json`; `shipment_id` is 0
 *   (they follow every visible shipment); `callback_checked_at` records the HEAD check of the callback URL that
 *   comes before the first delivery.
 * - `dcsa_notification_event`: the events of each DCSA notification in the outbox, in order.
 */
export default function dcsaPublisher(dialect: SqlDialect): PhasedMigration {
  const ts = keyColumn(30);
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      const exact = await exactTables(db, dialect);
      const bigId = dialect === 'mysql' ? 'bigint' : 'integer';

      // Added columns take the table's exact collation (002, 004 set it as the tables' default).
      await db.schema.alterTable('event').addColumn('type_code', keyColumn(4)).execute();
      await db.schema.alterTable('event').addColumn('document_type_code', keyColumn(3)).execute();
      await db.schema.alterTable('event').addColumn('transport_call_id', keyColumn(100)).execute();
      await db.schema.alterTable('event').addColumn('vessel_imo_number', keyColumn(7)).execute();
      await db.schema.alterTable('event').addColumn('export_voyage_number', keyColumn(50)).execute();
      await db.schema.alterTable('event').addColumn('carrier_service_code', keyColumn(5)).execute();
      await db.schema.alterTable('event').addColumn('call_location_code', keyColumn(5)).execute();
      await db.schema.alterTable('event').addColumn('event_location_code', keyColumn(5)).execute();
      await db.schema.alterTable('event').addColumn('equipment_reference', keyColumn(15)).execute();
      await db.schema
        .alterTable('event')
        .addColumn('dcsa_publishable', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('event_created_idx').on('event').columns(['event_created_date_time', 'seq']).execute();
      await db.schema.createIndex('event_date_idx').on('event').columns(['event_date_time', 'seq']).execute();

      for (let after = 0; ;) {
        const rows = (await db
          .selectFrom('event')
          .select(['seq', 'payload_json'])
          .where('seq', '>', after)
          .orderBy('seq')
          .limit(500)
          .execute()) as { seq: number; payload_json: string }[];
        if (rows.length === 0) break;
        for (const row of rows) {
          // The columns as this migration added them, written out: not src/store/events/event-fact-columns.ts, whose
          // list may grow with later migrations while this one must keep writing what it created.
          const f = eventFacts(JSON.parse(row.payload_json) as TrackingEvent);
          await db
            .updateTable('event')
            .set({
              type_code: f.typeCode,
              document_type_code: f.documentTypeCode,
              transport_call_id: f.transportCallID,
              vessel_imo_number: f.vesselIMONumber,
              export_voyage_number: f.exportVoyageNumber,
              carrier_service_code: f.carrierServiceCode,
              call_location_code: f.callLocationCode,
              event_location_code: f.eventLocationCode,
              equipment_reference: f.equipmentReference,
              dcsa_publishable: f.publishable ? 1 : 0,
            })
            .where('seq', '=', row.seq)
            .execute();
        }
        after = Number(rows[rows.length - 1]?.seq);
      }

      await db.schema
        .alterTable('webhook_subscription')
        .addColumn('kind', keyColumn(10), (c) => c.notNull().defaultTo('WEBHOOK'))
        .execute();
      await db.schema.alterTable('webhook_subscription').addColumn('filters_json', 'text').execute();
      await db.schema.alterTable('webhook_subscription').addColumn('callback_checked_at', ts).execute();
      await db.schema
        .createIndex('webhook_subscription_kind_idx')
        .on('webhook_subscription')
        .columns(['kind', 'status', 'account_id'])
        .execute();

      await exact(
        db.schema
          .createTable('dcsa_notification_event')
          .addColumn('delivery_id', bigId, (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('event_seq', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('dcsa_notification_event_pk', ['delivery_id', 'position']),
      ).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('dcsa_notification_event').execute();
      await db.schema.dropIndex('webhook_subscription_kind_idx').on('webhook_subscription').execute();
      for (const column of ['callback_checked_at', 'filters_json', 'kind']) {
        await db.schema.alterTable('webhook_subscription').dropColumn(column).execute();
      }
      await db.schema.dropIndex('event_date_idx').on('event').execute();
      await db.schema.dropIndex('event_created_idx').on('event').execute();
      for (const column of [
        'dcsa_publishable',
        'equipment_reference',
        'event_location_code',
        'call_location_code',
        'carrier_service_code',
        'export_voyage_number',
        'vessel_imo_number',
        'transport_call_id',
        'document_type_code',
        'type_code',
      ]) {
        await db.schema.alterTable('event').dropColumn(column).execute();
      }
    },
  };
}
