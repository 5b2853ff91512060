import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { inTransaction } from '../../db/retry-transaction.js';

/**
 * Puts committed change_log rows in commit order (docs/architecture.md, Change log).
 *
 * A writer inserts its change_log rows inside its own transaction (src/store/push/push-outbox.ts) and they get ids
 * then, but they become visible only at its commit: ids are not in commit order, and "everything after id N"
 * may later grow a row below N. So rows are numbered a second time, after they committed: an ordering batch
 * takes the next number of change_sequence (an UPDATE of its single row, whose lock the batch then holds until
 * it commits), reads the rows that are committed and still unnumbered, and gives them that number. Batches
 * take turns on that row lock, and a batch reads only after the previous one committed, so:
 *
 * - a batch numbers only committed rows, and every row committed after its read lands in a later batch;
 * - once batch S is visible, every batch below S is visible and complete;
 * - within a batch, rows go by id. Two changes of one shipment are written by transactions that lock the
 *   shipment row first (src/store/shipments/chunked-state.ts, exception-clear.ts), so the later writer gets its ids after
 *   the earlier one committed: id order is commit order per shipment, on SQLite, MySQL and MariaDB (their
 *   auto-increment counters only grow).
 *
 * Writers never wait for this and hold nothing longer than their own transaction: a transaction may stay open
 * as long as it likes, its rows are numbered whenever it commits. Rolled-back rows never exist. Any process may
 * run a batch (every reader does, before it reads): no process is special, and one that dies mid-batch rolls
 * back and leaves the rows to the next batch.
 */

/** Rows one batch numbers at most: a short transaction even after a long time without readers. */
const ROWS_PER_BATCH = 1000;

/**
 * Numbers every committed change not numbered yet (at most about `maxRows` of them, in whole batches, when given);
 * returns how many rows this call numbered. A caller that holds a lease bounds it: after a long time without
 * readers (or on a restored copy) the backlog can be millions of rows, and numbering them all in one call would
 * outlast the lease it renews between calls. Leaving rows unnumbered loses nothing: a reader reads numbered rows
 * only, and a row numbered later comes after every number read before.
 */
export async function orderCommittedChanges(
  db: Kysely<DatabaseSchema>,
  options: { maxRows?: number; batchRows?: number } = {},
): Promise<number> {
  const batchRows = options.batchRows ?? ROWS_PER_BATCH;
  let ordered = 0;
  for (;;) {
    if (options.maxRows !== undefined && ordered >= options.maxRows) return ordered;
    // Most calls find nothing: one indexed read, no write, no lock.
    const pending = await db.selectFrom('change_log').select('id').where('commit_seq', 'is', null).limit(1).executeTakeFirst();
    if (!pending) return ordered;
    const numbered = await inTransaction(db, async (trx) => {
      // First statement: the row lock that makes batches take turns. Everything read after it in this
      // transaction includes every earlier batch's commit (on MySQL/MariaDB the snapshot of a transaction is
      // taken at its first plain read, which comes after this; SQLite's write transaction is current).
      await trx
        .updateTable('change_sequence')
        .set((eb) => ({ last_seq: eb('last_seq', '+', 1) }))
        .where('id', '=', 1)
        .execute();
      const sequence = await trx.selectFrom('change_sequence').select('last_seq').where('id', '=', 1).executeTakeFirstOrThrow();
      const seq = Number(sequence.last_seq);
      // A plain read: rows of transactions still open are invisible to it and are not waited for.
      const rows = await trx.selectFrom('change_log').select('id').where('commit_seq', 'is', null).orderBy('id').limit(batchRows).execute();
      if (rows.length === 0) return 0;
      // By primary key only: these rows are committed, so nothing waits. (A condition on commit_seq could have
      // the server scan that index instead, and wait there on rows of transactions still open.) No other batch
      // numbered them: it would have committed before this one took the lock, and the read above saw its work.
      const result = await trx
        .updateTable('change_log')
        .set({ commit_seq: seq })
        .where(
          'id',
          'in',
          rows.map((r) => Number(r.id)),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    });
    ordered += numbered;
    if (numbered < batchRows) return ordered;
  }
}
