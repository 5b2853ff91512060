import type { Database } from '../../db/connect.js';
import type { ExceptionTransition } from '../../domain/exception-lifecycle.js';
import { refreshShipments } from './derived-state.js';
import type { ExceptionThresholds } from '../../domain/thresholds.js';
import { inTransaction } from '../../db/retry-transaction.js';

/**
 * `tracking evaluate` and serve's timer: re-runs the rules for the shipments
 * whose exceptions can change with the clock alone (clock_sensitive), in
 * batches, each in its own transaction. Versions move only where something changed.
 */
export async function evaluateTimeRules(
  database: Database,
  thresholds: ExceptionThresholds,
  now: Date,
  batchSize = 200,
): Promise<{ evaluated: number; changed: number; transitions: ExceptionTransition[] }> {
  let evaluated = 0;
  let changed = 0;
  const transitions: ExceptionTransition[] = [];
  let afterId = 0;
  for (;;) {
    const ids = (
      await database.db
        .selectFrom('shipment')
        .select('id')
        .where('clock_sensitive', '=', 1)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(batchSize)
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) break;
    afterId = ids[ids.length - 1] ?? afterId;
    const { bumped, transitions: batch } = await inTransaction(database.db, (trx) =>
      refreshShipments(trx, database.dialect, ids, now, { contentChanged: false, thresholds }),
    );
    evaluated += ids.length;
    changed += bumped.length;
    transitions.push(...batch.map((t) => t.transition));
  }
  return { evaluated, changed, transitions };
}
