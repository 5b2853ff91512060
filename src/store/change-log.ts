import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';

/** Reads of change_log, the committed push transitions (src/store/push-outbox.ts writes them). */

export interface ChangeRow {
  id: number;
  shipment_id: number;
  trigger_type: string;
  triggered_by_event: string | null;
  exception_id: string | null;
}

/** The newest id, 0 when the log is empty. */
export async function lastChangeId(db: Kysely<DatabaseSchema>): Promise<number> {
  const row = await db
    .selectFrom('change_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export async function readChangesAfter(db: Kysely<DatabaseSchema>, after: number, limit: number): Promise<ChangeRow[]> {
  const rows = await db
    .selectFrom('change_log')
    .select(['id', 'shipment_id', 'trigger_type', 'triggered_by_event', 'exception_id'])
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function pruneChanges(db: Kysely<DatabaseSchema>, before: Date): Promise<void> {
  await db.deleteFrom('change_log').where('created_at', '<', before.toISOString()).execute();
}
