import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { inTransaction } from '../../db/retry-transaction.js';
import { encodeMilestonesJson } from './milestones-payload.js';

/**
 * The backfill of migration 023 (docs/architecture.md, Event storage: Shipment rows): every shipment whose
 * milestone index is still plain JSON in `milestones_json` gets its compact `milestones`
 * (src/store/shipments/milestones-payload.ts) and null in `milestones_json`.
 *
 * In id order, `batch` rows per transaction (each its own, retried like every write: inTransaction), as the
 * events' backfill (compact-events.ts): readers read either form, a row changes form in one statement, an ingest
 * waits at most for one batch. The stored text is compressed as it is, never parsed and written again, so the
 * next refresh compares against the same text. `milestones is null` in the UPDATE too, so a row a refresh wrote
 * meanwhile keeps what the refresh wrote. Safe to stop and to run again. Returns the rows converted.
 */
export async function backfillCompactMilestones(db: Kysely<DatabaseSchema>, options: { batch?: number } = {}): Promise<number> {
  const batch = options.batch ?? 200;
  let converted = 0;
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('shipment')
      .select(['id', 'milestones_json'])
      .where('id', '>', after)
      .where('milestones', 'is', null)
      .where('milestones_json', 'is not', null)
      .orderBy('id')
      .limit(batch)
      .execute();
    if (rows.length === 0) return converted;
    const cases = rows.map((r) => sql`when ${r.id} then ${encodeMilestonesJson(r.milestones_json ?? '')}`);
    await inTransaction(db, async (trx) => {
      await trx
        .updateTable('shipment')
        .set({ milestones: sql<Uint8Array>`case ${sql.ref('id')} ${sql.join(cases, sql` `)} end`, milestones_json: null })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .where('milestones', 'is', null)
        .where('milestones_json', 'is not', null)
        .execute();
    });
    converted += rows.length;
    after = rows[rows.length - 1]!.id;
  }
}
