import type { ExceptionThresholds } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { refreshShipments } from './derived-state.js';

export type ClearOutcome =
  | { status: 'cleared' }
  | { status: 'not_found' }
  | { status: 'not_open'; exceptionStatus: string };

/**
 * Operator clear (MANUAL_CLEAR): records the clear against the exception's
 * current detection episode and recomputes the shipment, so the engine
 * returns it RESOLVED. The clear holds until the condition newly arises (a
 * new episode); a mere worsening of the same episode stays cleared.
 */
export async function clearException(
  database: Database,
  exceptionId: string,
  note: string,
  now: Date,
  thresholds: ExceptionThresholds,
): Promise<ClearOutcome> {
  return database.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('tracking_exception')
      .select(['shipment_id', 'episode', 'status'])
      .where('exception_id', '=', exceptionId)
      .executeTakeFirst();
    if (!row) return { status: 'not_found' } as const;
    if (row.status !== 'DETECTED') return { status: 'not_open', exceptionStatus: row.status } as const;
    await trx.deleteFrom('exception_clear').where('exception_id', '=', exceptionId).execute();
    await trx
      .insertInto('exception_clear')
      .values({ exception_id: exceptionId, episode: row.episode, note, cleared_at: now.toISOString() })
      .execute();
    await refreshShipments(trx, database.dialect, [row.shipment_id], now, { contentChanged: false, thresholds });
    return { status: 'cleared' } as const;
  });
}
