import type { Db } from '../../db/connect.js';
import type { TrackingException } from '../../domain/types.js';

/** Filters of `tracking exception list`; all optional, combined with AND. */
export interface ExceptionFilter {
  status?: 'DETECTED' | 'RESOLVED';
  /** exceptionType, e.g. ETA_DELAY. */
  type?: string;
  /** Only shipments this account may see. */
  account?: string;
  /** At most this many, newest first. */
  limit: number;
}

export interface ListedException {
  shipment: { carrierCode: string; carrierBookingReference: string; billOfLadingNumber: string | null };
  /** When the stored exception last changed (ISO UTC). */
  updatedAt: string;
  /** The Exception as served in a snapshot. */
  exception: TrackingException;
}

/**
 * Stored exceptions for operators, newest change first. Reads only the
 * columns every version of tracking_exception has (exception_id,
 * shipment_id, exception_type, status, body_json, updated_at).
 */
export async function listExceptions(db: Db, filter: ExceptionFilter): Promise<ListedException[]> {
  let query = db
    .selectFrom('tracking_exception as e')
    .innerJoin('shipment as s', 's.id', 'e.shipment_id')
    .select(['e.exception_id', 'e.body_json', 'e.updated_at', 's.carrier_code', 's.carrier_booking_reference', 's.bill_of_lading_number'])
    .orderBy('e.updated_at', 'desc')
    .orderBy('e.exception_id', 'asc')
    .limit(filter.limit);
  if (filter.status) query = query.where('e.status', '=', filter.status);
  if (filter.type) query = query.where('e.exception_type', '=', filter.type);
  if (filter.account) {
    const account = filter.account;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('shipment_account as a')
          .select('a.shipment_id')
          .whereRef('a.shipment_id', '=', 'e.shipment_id')
          .where('a.account_id', '=', account),
      ),
    );
  }
  const rows = await query.execute();
  return rows.map((row) => ({
    shipment: {
      carrierCode: row.carrier_code,
      carrierBookingReference: row.carrier_booking_reference,
      billOfLadingNumber: row.bill_of_lading_number,
    },
    updatedAt: row.updated_at,
    exception: JSON.parse(row.body_json) as TrackingException,
  }));
}

/** Stored exceptions by type and status (the tt_exceptions gauge). */
export async function countExceptionsByTypeAndStatus(db: Db): Promise<{ type: string; status: string; count: number }[]> {
  const rows = await db
    .selectFrom('tracking_exception')
    .select((eb) => ['exception_type', 'status', eb.fn.countAll<number | string>().as('n')])
    .groupBy(['exception_type', 'status'])
    .execute();
  return rows.map((r) => ({ type: r.exception_type, status: r.status, count: Number(r.n) }));
}

/** The shipment an exception belongs to (its id), or null for an unknown exception ID. */
export async function shipmentOfException(db: Db, exceptionId: string): Promise<number | null> {
  const row = await db
    .selectFrom('tracking_exception')
    .select('shipment_id')
    .where('exception_id', '=', exceptionId)
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.shipment_id) : null;
}
