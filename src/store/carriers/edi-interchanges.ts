import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/dialect.js';

/**
 * EDI interchanges taken in (migration 019; docs/carriers.md "EDI"), by format, sender and control
 * number: a re-sent interchange is recognised and changes nothing.
 */

export interface EdiInterchangeKey {
  format: string;
  senderId: string;
  controlNumber: string;
}

export interface ReceivedInterchange {
  carrierCode: string;
  receivedAt: string;
  transactions: number;
  transactionsRejected: number;
  eventsStored: number;
}

export async function findInterchange(db: Db, key: EdiInterchangeKey): Promise<ReceivedInterchange | undefined> {
  const row = await db
    .selectFrom('edi_interchange')
    .select(['carrier_code', 'received_at', 'transactions', 'transactions_rejected', 'events_stored'])
    .where('format', '=', key.format)
    .where('sender_id', '=', key.senderId.slice(0, 40))
    .where('control_number', '=', key.controlNumber.slice(0, 14))
    .executeTakeFirst();
  return row
    ? {
        carrierCode: row.carrier_code,
        receivedAt: row.received_at,
        transactions: row.transactions,
        transactionsRejected: row.transactions_rejected,
        eventsStored: row.events_stored,
      }
    : undefined;
}

/** Records an interchange once its events are committed; one recorded meanwhile by another instance stays as it is. */
export async function recordInterchange(db: Db, key: EdiInterchangeKey, received: ReceivedInterchange): Promise<void> {
  try {
    await db
      .insertInto('edi_interchange')
      .values({
        format: key.format,
        sender_id: key.senderId.slice(0, 40),
        control_number: key.controlNumber.slice(0, 14),
        carrier_code: received.carrierCode,
        received_at: received.receivedAt,
        transactions: received.transactions,
        transactions_rejected: received.transactionsRejected,
        events_stored: received.eventsStored,
      })
      .execute();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
}
