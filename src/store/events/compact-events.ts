import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { inTransaction } from '../../db/retry-transaction.js';
import { encodeEventJson } from './event-payload.js';

/**
 * The backfill of migration 021 (docs/architecture.md, Event storage): every event stored before it, still plain
 * JSON in `payload_json`, gets its compact `payload` (src/store/events/event-payload.ts) and '' in `payload_json`.
 *
 * In seq order, `batch` rows per transaction (each its own, retried like every write: inTransaction), so a large
 * store never holds one long transaction: readers never wait (they read either form, and a row changes form in one
 * statement), and an ingest waits at most for one batch. The stored text is compressed as it is, never parsed and
 * written again, so the served bytes stay those of the ingest. Safe to stop and to run again: it converts what is
 * left. Returns the rows converted.
 */
export async function backfillCompactEvents(db: Kysely<DatabaseSchema>, options: { batch?: number } = {}): Promise<number> {
  const batch = options.batch ?? 500;
  let converted = 0;
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('event')
      .select(['seq', 'payload_json'])
      .where('seq', '>', after)
      .where('payload', 'is', null)
      .orderBy('seq')
      .limit(batch)
      .execute();
    if (rows.length === 0) return converted;
    // One statement per batch (a CASE over the batch's seqs): a round trip per row would make the backfill of a
    // large store take hours longer. `payload is null` again, so a batch another process converted meanwhile is
    // left as it is.
    const cases = rows.map((r) => sql`when ${r.seq} then ${encodeEventJson(r.payload_json)}`);
    await inTransaction(db, async (trx) => {
      await trx
        .updateTable('event')
        .set({ payload: sql<Uint8Array>`case ${sql.ref('seq')} ${sql.join(cases, sql` `)} end`, payload_json: '' })
        .where(
          'seq',
          'in',
          rows.map((r) => r.seq),
        )
        .where('payload', 'is', null)
        .execute();
    });
    converted += rows.length;
    after = Number(rows[rows.length - 1]!.seq);
  }
}
