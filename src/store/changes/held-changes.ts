import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { retryTransaction } from '../../db/retry-transaction.js';

/**
 * The contract step 032-plain-access-changes (src/store/housekeeping/contract-steps.ts): the GRANTED, REVOKED and
 * SHIPMENT_MERGED changes written held before the finish (shipment id negated, src/store/encoding/change-log-forms.ts)
 * get their shipment's id back. Only shipment_id changes: each row keeps its id and commit_seq, so its place in
 * the commit order and every cursor stay as they were, and readers, which take either form, read the same before,
 * during and after. Small batches by primary key, each row rewritten only while it is still held (a batch by primary key): safe alongside
 * the service and to run again.
 */
const ROWS_PER_BATCH = 1000;

/** Turns every held change plain; returns how many rows it rewrote. */
export async function unholdChanges(db: Kysely<DatabaseSchema>): Promise<number> {
  let done = 0;
  for (;;) {
    const rows = await db
      .selectFrom('change_log')
      .select('id')
      .where('shipment_id', '<', 0)
      .orderBy('shipment_id')
      .limit(ROWS_PER_BATCH)
      .execute();
    if (rows.length === 0) return done;
    // A row is negated only while still held (negative): a second finish running alongside cannot undo it.
    const result = await retryTransaction(() =>
      db
        .updateTable('change_log')
        .set((eb) => ({ shipment_id: eb.neg('shipment_id') }))
        .where(
          'id',
          'in',
          rows.map((r) => Number(r.id)),
        )
        .where('shipment_id', '<', 0)
        .executeTakeFirst(),
    );
    done += Number(result.numUpdatedRows);
  }
}
