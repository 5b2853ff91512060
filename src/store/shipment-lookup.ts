import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';

/**
 * The lookup rules of DESIGN section 7 as one SQL statement: the shipment
 * that matches every given parameter and that one of the caller's accounts
 * may see. Tenant filtering is part of the same query, so a shipment of
 * another account is indistinguishable from one that does not exist.
 */

export interface ShipmentLookup {
  carrierCode?: string;
  carrierBookingReference?: string;
  billOfLadingNumber?: string;
  equipmentReference?: string;
}

/** The shipment row as the snapshot reads it; `etd`/`eta` are derived at ingest. */
export interface ShipmentRow {
  id: number;
  carrier_code: string;
  carrier_booking_reference: string;
  master_json: string;
  etd: string | null;
  eta: string | null;
  version: number;
}

export async function findShipment(
  db: Kysely<DatabaseSchema>,
  lookup: ShipmentLookup,
  accountIds: readonly string[],
): Promise<ShipmentRow | null> {
  if (accountIds.length === 0) return null;
  let query = db
    .selectFrom('shipment as s')
    .select(['s.id', 's.carrier_code', 's.carrier_booking_reference', 's.master_json', 's.etd', 's.eta', 's.version'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('shipment_account as sa')
          .select('sa.shipment_id')
          .whereRef('sa.shipment_id', '=', 's.id')
          .where('sa.account_id', 'in', accountIds),
      ),
    );
  if (lookup.carrierCode !== undefined) query = query.where('s.carrier_code', '=', lookup.carrierCode);
  if (lookup.carrierBookingReference !== undefined) {
    query = query.where('s.carrier_booking_reference', '=', lookup.carrierBookingReference);
  }
  if (lookup.billOfLadingNumber !== undefined) {
    query = query.where('s.bill_of_lading_number', '=', lookup.billOfLadingNumber);
  }
  if (lookup.equipmentReference !== undefined) {
    // A container number is reused across shipments: among those the caller may
    // see, take the one where the container moved last (DESIGN section 7), so a
    // backfilled old shipment does not hide the current one. NULLs sort last
    // under DESC on both SQLite and MySQL.
    query = query
      .innerJoin('shipment_container as sc', 'sc.shipment_id', 's.id')
      .where('sc.container_number', '=', lookup.equipmentReference)
      .orderBy('sc.last_event_at', 'desc')
      .orderBy('s.id', 'desc');
  }
  return (await query.limit(1).executeTakeFirst()) ?? null;
}
