import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { runOnline } from '../../src/db/online-ddl.js';
import type { SqlDialect } from '../../src/db/dialect.js';

/**
 * Lookups at a million shipments (docs/architecture.md, Event storage):
 *
 * - `event_equipment_idx` (equipment_reference): `GET /v2/events?equipmentReference=` reads one container's
 *   events (tens to a few hundred) and sorts them for the page, instead of walking every event's created time
 *   until a page is found (src/store/events/dcsa-events.ts). The column alone, not (equipment_reference,
 *   event_created_date_time, seq): that one would spare the sort but weighs two to four times as much (on
 *   MariaDB at 295,000 events, bench/storage-size.ts: 102 bytes per event against 23 grown by ingest, 55 against
 *   27 built at once), and both stores plan the column alone well
 *   (EXPLAIN: ref access on it, then a sort of the container's events, for every sort order and page). It also
 *   serves a tracking request's container events (src/store/carriers/tracking-requests.ts, eventsOfReference).
 * - `shipment_booking_idx` (carrier_booking_reference): `?carrierBookingReference=` finds its shipments without
 *   scanning shipment_carrier_booking_uq, which leads with carrier_code (the filter has none).
 * - `shipment.milestones`: the milestone index compressed behind a format byte (src/store/shipments/milestones-payload.ts),
 *   so the shipment row every lookup reads loses its 5.5 KB of JSON. Added nullable at the end of the table
 *   (instant on MariaDB 10.3+ and MySQL 8.0.12+); backfillCompactMilestones (src/store/shipments/compact-milestones.ts)
 *   converts the old rows afterwards in small transactions.
 */
export default function eventScale(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      await runOnline(db, dialect, db.schema.createIndex('event_equipment_idx').on('event').column('equipment_reference'), 'inplace');
      await runOnline(
        db,
        dialect,
        db.schema.createIndex('shipment_booking_idx').on('shipment').column('carrier_booking_reference'),
        'inplace',
      );
      await runOnline(
        db,
        dialect,
        db.schema.alterTable('shipment').addColumn('milestones', dialect === 'mysql' ? sql`mediumblob` : 'blob'),
        'instant',
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('shipment').dropColumn('milestones').execute();
      await db.schema.dropIndex('shipment_booking_idx').on('shipment').execute();
      await db.schema.dropIndex('event_equipment_idx').on('event').execute();
    },
  };
}
