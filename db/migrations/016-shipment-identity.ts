import type { ExpressionBuilder, Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { runOnline } from '../../src/db/online-ddl.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * One shipment per bill of lading of a carrier (docs/architecture.md, Identity; src/store/shipments/shipment-identity.ts).
 *
 * - `shipment.booking_stand_in`: 1 while the shipment's carrier_booking_reference is a tracked reference standing
 *   in for a booking its carrier's events never named (docs/tracking-requests.md, Shipments from events). A
 *   statement that names the real booking of the same bill of lading takes its place on this very row.
 * - `shipment_alias`: every booking reference a shipment was known by and is no more (a stand-in replaced by the
 *   real booking). A booking reference names one shipment for good: lookups and ingest resolve an alias to its
 *   shipment, so what a client saw keeps finding it.
 * - `shipment_bill_of_lading`: one row per bill of lading of a carrier that an ingest created a shipment for or
 *   took a stand-in's place under. Such ingests write the row first, so two of them on one bill of lading take
 *   turns (the row lock) or, across Galera nodes, conflict at certification and run again (retry-transaction.ts):
 *   the second one sees the first one's shipment.
 */
export default function shipmentIdentity(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      const exact = await exactTables(db, dialect);
      await runOnline(
        db,
        dialect,
        db.schema.alterTable('shipment').addColumn('booking_stand_in', 'integer', (c) => c.notNull().defaultTo(0)),
        'instant',
      );

      await exact(
        db.schema
          .createTable('shipment_alias')
          .addColumn('carrier_code', keyColumn(4), (c) => c.notNull())
          .addColumn('carrier_booking_reference', keyColumn(35), (c) => c.notNull())
          .addColumn('shipment_id', 'integer', (c) => c.notNull())
          .addColumn('created_at', keyColumn(30), (c) => c.notNull())
          .addPrimaryKeyConstraint('shipment_alias_pk', ['carrier_code', 'carrier_booking_reference']),
      ).execute();
      await db.schema.createIndex('shipment_alias_shipment_idx').on('shipment_alias').column('shipment_id').execute();

      await exact(
        db.schema
          .createTable('shipment_bill_of_lading')
          .addColumn('carrier_code', keyColumn(4), (c) => c.notNull())
          .addColumn('bill_of_lading_number', keyColumn(20), (c) => c.notNull())
          .addColumn('writes', 'integer', (c) => c.notNull().defaultTo(1))
          .addPrimaryKeyConstraint('shipment_bill_of_lading_pk', ['carrier_code', 'bill_of_lading_number']),
      ).execute();
      await markStandIns(db);
    },
  };
}

/**
 * Marks the stand-ins stored before this migration: shipments whose statement was derived from carrier events
 * (dated on 1970-01-01: src/domain/shipment-from-events.ts) and whose booking is the bill of lading or container
 * of the tracking fetch that found them. Their real booking, when a statement names it, takes their place.
 *
 * In batches: the candidates are found by a plain read (which locks nothing), then marked by id, the condition
 * asked again. One UPDATE over the table held a lock on every `shipment` row it scanned until it committed (14 s at
 * a million shipments, bench/README.md "Upgrade steps"), and an ingest writing a shipment meanwhile waited for it.
 */
export async function markStandIns(db: Kysely<any>): Promise<void> {
  for (let after = 0; ;) {
    const batch = await db
      .selectFrom('shipment')
      .select('id')
      .where('id', '>', after)
      .where(isUnmarkedStandIn)
      .orderBy('id')
      .limit(MARK_BATCH)
      .execute();
    if (batch.length === 0) return;
    const ids = batch.map((r) => Number(r.id));
    await db.updateTable('shipment').set({ booking_stand_in: 1 }).where('id', 'in', ids).where(isUnmarkedStandIn).execute();
    after = ids[ids.length - 1]!;
  }
}

const MARK_BATCH = 500;

/** A shipment derived from carrier events, not yet marked, whose booking is a tracking fetch's other reference. */
function isUnmarkedStandIn(eb: ExpressionBuilder<any, 'shipment'>) {
  return eb.and([
    eb('shipment.stated_at', '<', '1970-01-02'),
    eb('shipment.booking_stand_in', '=', 0),
    eb.exists(
      eb
        .selectFrom('tracking_fetch as f')
        .select('f.id')
        .whereRef('f.shipment_id', '=', 'shipment.id')
        .where('f.reference_kind', '<>', 'BKG')
        .whereRef('f.reference', '=', 'shipment.carrier_booking_reference'),
    ),
  ]);
}
