import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { lockForUpdate, rowsPerInsert, type SqlDialect } from '../../db/dialect.js';
import type { ShipmentInput } from '../../domain/bundle.js';
import { chunks } from '../batching/chunks.js';

/**
 * One shipment per bill of lading of a carrier (docs/architecture.md, Identity), resolved inside the ingest
 * transaction before the shipments of a bundle are written (src/store/shipment-writes/write-shipments.ts).
 *
 * A shipment derived from its carrier's events when they name no booking has the tracked reference standing in
 * for its booking (`booking_stand_in`; docs/tracking-requests.md). When a statement later names the real booking
 * of the same bill of lading, the real booking takes the stand-in's place on the same shipment row (re-keyed), and
 * the stand-in becomes an alias (`shipment_alias`): the row keeps its id, so its version (ETags), exceptions (their
 * IDs: the lifecycle matches stored exceptions by type and subject, not by a recomputed ID), subscriptions, events
 * and accounts carry over, and every booking reference ever served keeps naming it. The other way round, a
 * stand-in statement of a bill of lading a stored shipment already has joins that shipment.
 *
 * Each input's booking is resolved in this order: a shipment with that booking; an alias; (new bookings of a bill
 * of lading) a stand-in shipment of that bill of lading for a real booking, any shipment of it for a stand-in
 * statement; else a new shipment. The resolved input carries the shipment's booking, so the rest of ingest sees
 * one key per shipment.
 *
 * Concurrency: the reads lock what they find (current reads on MySQL/MariaDB), and before looking a bill of
 * lading up for a new booking the transaction writes its `shipment_bill_of_lading` row. Two ingests that could
 * create two shipments of one bill of lading therefore take turns on that row, or (on a cluster whose row locks
 * hold on one node only) conflict when they commit; the retried one finds the other's shipment. SQLite has one
 * writer at a time.
 */

export interface Rekeyed {
  shipmentId: number;
  /** The stand-in booking it was known by, now an alias. */
  formerBooking: string;
  booking: string;
}

export interface ResolvedIdentities {
  /** The inputs, each with the booking of the shipment it is about (stand-in and alias bookings replaced). */
  inputs: ShipmentInput[];
  /** Stand-in shipments that took a real booking in this transaction. */
  rekeyed: Rekeyed[];
}

interface Known {
  id: number;
  booking: string;
  standIn: boolean;
  masterJson: string;
}

export async function resolveShipmentIdentities(
  db: Db,
  dialect: SqlDialect,
  inputs: readonly ShipmentInput[],
  at: string,
): Promise<ResolvedIdentities> {
  const resolved = [...inputs];
  const rekeyed: Rekeyed[] = [];
  for (const [carrierCode, indexes] of groupBy(inputs, (s) => s.carrierCode)) {
    const bookings = [...new Set(indexes.map((i) => inputs[i]!.carrierBookingReference))];
    const byBooking = await shipmentsByBooking(db, dialect, carrierCode, bookings);
    const aliases = await aliasTargets(
      db,
      dialect,
      carrierCode,
      bookings.filter((b) => !byBooking.has(b)),
    );

    // A bundle's statement about a stand-in shipment by its stand-in booking: the carrier uses that reference as its booking.
    const confirmed = indexes.filter(
      (i) => inputs[i]!.derivedBooking === undefined && byBooking.get(inputs[i]!.carrierBookingReference)?.standIn,
    );
    const confirmedIds = [...new Set(confirmed.map((i) => byBooking.get(inputs[i]!.carrierBookingReference)!.id))];
    for (const ids of chunks(confirmedIds)) {
      await db.updateTable('shipment').set({ booking_stand_in: 0 }).where('id', 'in', ids).execute();
    }

    const fresh: number[] = [];
    for (const i of indexes) {
      const input = inputs[i]!;
      if (byBooking.has(input.carrierBookingReference)) continue;
      const alias = aliases.get(input.carrierBookingReference);
      if (alias !== undefined) resolved[i] = { ...input, carrierBookingReference: alias };
      else if (input.billOfLadingNumber !== undefined) fresh.push(i);
    }
    if (fresh.length === 0) continue;

    const billsOfLading = [...new Set(fresh.map((i) => inputs[i]!.billOfLadingNumber as string))].sort();
    await claimBillsOfLading(db, dialect, carrierCode, billsOfLading);
    const holders = await shipmentsByBillOfLading(db, dialect, carrierCode, billsOfLading);
    for (const i of fresh) {
      const input = inputs[i]!;
      const sharing = holders.get(input.billOfLadingNumber as string) ?? [];
      if (input.derivedBooking === 'STAND_IN') {
        // The real shipment when there is one (the newest, as a lookup by bill of lading finds it), else a stand-in.
        const target = [...sharing].reverse().find((s) => !s.standIn) ?? sharing[0];
        if (target) resolved[i] = { ...input, carrierBookingReference: target.booking };
        continue;
      }
      // The oldest stand-in of the bill of lading. Once re-keyed it is no stand-in: a second entry with the same
      // booking finds it by booking (write-shipments.ts), one with another booking makes its own shipment.
      const standIn = sharing.find((s) => s.standIn);
      if (!standIn) continue;
      // The master data names the booking too: right at once, whatever the statement's time (the caller applies it).
      const master = { ...(JSON.parse(standIn.masterJson) as object), carrierBookingReference: input.carrierBookingReference };
      await db
        .updateTable('shipment')
        .set({ carrier_booking_reference: input.carrierBookingReference, booking_stand_in: 0, master_json: JSON.stringify(master) })
        .where('id', '=', standIn.id)
        .execute();
      await db
        .insertInto('shipment_alias')
        .values({ carrier_code: carrierCode, carrier_booking_reference: standIn.booking, shipment_id: standIn.id, created_at: at })
        .execute();
      rekeyed.push({ shipmentId: standIn.id, formerBooking: standIn.booking, booking: input.carrierBookingReference });
      standIn.booking = input.carrierBookingReference;
      standIn.standIn = false;
    }
  }
  return { inputs: resolved, rekeyed };
}

/** The shipment a booking reference names through an alias: its current booking, by alias. */
async function aliasTargets(db: Db, dialect: SqlDialect, carrierCode: string, bookings: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const batch of chunks(bookings)) {
    const rows = await lockForUpdate(
      dialect,
      db
        .selectFrom('shipment_alias as a')
        .innerJoin('shipment as s', 's.id', 'a.shipment_id')
        .select(['a.carrier_booking_reference as alias', 's.carrier_booking_reference as booking'])
        .where('a.carrier_code', '=', carrierCode)
        .where('a.carrier_booking_reference', 'in', batch),
    ).execute();
    for (const r of rows) out.set(r.alias, r.booking);
  }
  return out;
}

async function shipmentsByBooking(
  db: Db,
  dialect: SqlDialect,
  carrierCode: string,
  bookings: readonly string[],
): Promise<Map<string, Known>> {
  const out = new Map<string, Known>();
  for (const r of await lockedShipmentsWhere(db, dialect, carrierCode, 'carrier_booking_reference', bookings)) {
    out.set(r.carrier_booking_reference, known(r));
  }
  return out;
}

/** The shipments of each bill of lading, oldest first. */
async function shipmentsByBillOfLading(
  db: Db,
  dialect: SqlDialect,
  carrierCode: string,
  billsOfLading: readonly string[],
): Promise<Map<string, Known[]>> {
  const out = new Map<string, Known[]>();
  for (const r of await lockedShipmentsWhere(db, dialect, carrierCode, 'bill_of_lading_number', billsOfLading)) {
    const list = out.get(r.bill_of_lading_number as string) ?? [];
    list.push(known(r));
    out.set(r.bill_of_lading_number as string, list);
  }
  return out;
}

/** The carrier's shipments whose `column` is one of `values`, locked for the transaction, oldest first per batch. */
async function lockedShipmentsWhere(
  db: Db,
  dialect: SqlDialect,
  carrierCode: string,
  column: 'carrier_booking_reference' | 'bill_of_lading_number',
  values: readonly string[],
) {
  const rows = [];
  for (const batch of chunks(values)) {
    rows.push(
      ...(await lockForUpdate(
        dialect,
        db
          .selectFrom('shipment')
          .select(['id', 'carrier_booking_reference', 'bill_of_lading_number', 'booking_stand_in', 'master_json'])
          .where('carrier_code', '=', carrierCode)
          .where(column, 'in', batch)
          .orderBy('id'),
      ).execute()),
    );
  }
  return rows;
}

function known(r: { id: number; carrier_booking_reference: string; booking_stand_in: number; master_json: string }): Known {
  return { id: Number(r.id), booking: r.carrier_booking_reference, standIn: Number(r.booking_stand_in) === 1, masterJson: r.master_json };
}

/** Writes each bill of lading's row (see the module comment), in key order. */
async function claimBillsOfLading(db: Db, dialect: SqlDialect, carrierCode: string, billsOfLading: readonly string[]): Promise<void> {
  for (const batch of chunks(billsOfLading, rowsPerInsert(2))) {
    const rows = batch.map((b) => ({ carrier_code: carrierCode, bill_of_lading_number: b }));
    const insert = db.insertInto('shipment_bill_of_lading').values(rows);
    // The row changes every time (a counter), so the write conflicts with every other one, on every engine.
    const bump = sql<number>`${sql.ref('writes')} + 1`;
    await (
      dialect === 'mysql'
        ? insert.onDuplicateKeyUpdate({ writes: bump })
        : insert.onConflict((oc) => oc.columns(['carrier_code', 'bill_of_lading_number']).doUpdateSet({ writes: bump }))
    ).execute();
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  items.forEach((item, i) => {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(i);
    else out.set(k, [i]);
  });
  return out;
}
