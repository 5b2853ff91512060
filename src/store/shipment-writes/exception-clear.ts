import type { Database } from '../../db/connect.js';
import { lockForUpdate } from '../../db/dialect.js';
import { clearRow, type ExceptionTransition } from '../../domain/exception-lifecycle.js';
import { pushTriggers } from '../../domain/push/push-triggers.js';
import { bumpVersion } from './derived-state.js';
import { LIFECYCLE_COLUMNS, toLifecycleRow } from '../exceptions/exception-state.js';
import { enqueuePushTriggers } from '../push/push-outbox.js';
import { rebuildSnapshots } from '../shipments/stored-snapshots.js';
import { inTransaction } from '../../db/retry-transaction.js';

export type ClearOutcome =
  | { status: 'cleared'; shipmentId: number; transition: ExceptionTransition }
  | { status: 'not_found' }
  | { status: 'not_open'; exceptionStatus: string };

/**
 * Operator clear (MANUAL_CLEAR): the DETECTED exception turns RESOLVED with
 * the operator's note, dated `now`, and stays resolved: the facts' ongoing
 * episode it stood for raises nothing new; a condition that newly arises
 * later is a new exception (see exception-lifecycle).
 */
export async function clearException(database: Database, exceptionId: string, note: string, now: Date): Promise<ClearOutcome> {
  return inTransaction(database.db, async (trx) => {
    const select = trx
      .selectFrom('tracking_exception')
      .select([...LIFECYCLE_COLUMNS, 'status'])
      .where('exception_id', '=', exceptionId);
    const row = await lockForUpdate(database.dialect, select).executeTakeFirst();
    if (!row) return { status: 'not_found' } as const;
    if (row.status !== 'DETECTED') return { status: 'not_open', exceptionStatus: row.status } as const;
    const at = now.toISOString();
    const { row: cleared, transition } = clearRow(toLifecycleRow(row), note, at);
    await trx
      .updateTable('tracking_exception')
      .set({
        status: cleared.body.status,
        fact_end: cleared.factEnd,
        body_json: JSON.stringify(cleared.body),
        resolved_at: at,
        updated_at: at,
      })
      .where('exception_id', '=', exceptionId)
      .execute();
    await bumpVersion(trx, row.shipment_id, at);
    await rebuildSnapshots(trx, database.dialect, [row.shipment_id]);
    await enqueuePushTriggers(trx, new Map([[row.shipment_id, pushTriggers([], [transition])]]), now);
    return { status: 'cleared', shipmentId: row.shipment_id, transition } as const;
  });
}
