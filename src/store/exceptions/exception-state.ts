import type { Kysely, Selectable } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import type { TrackingExceptionTable } from '../../db/tables/exception.js';
import type { LifecycleRow, ReconcileResult } from '../../domain/exception-lifecycle.js';
import type { ActiveCondition } from '../../domain/exceptions/rule.js';
import type { ExceptionType, TrackingException } from '../../domain/types.js';
import { chunks } from '../batching/chunks.js';

/**
 * Persistence of the exception lifecycle (src/domain/exception-lifecycle.ts):
 * loads a shipment's stored exceptions and writes back the rows that its
 * reconciliation (src/store/shipment-writes/derived-state.ts) changed. Rows are inserted and
 * updated, never deleted: an exception once served stays served.
 */

type Row = Pick<
  Selectable<TrackingExceptionTable>,
  | 'exception_id'
  | 'shipment_id'
  | 'exception_type'
  | 'subject'
  | 'occurrence'
  | 'fact_start'
  | 'fact_end'
  | 'refuted'
  | 'raised_by'
  | 'condition_json'
  | 'body_json'
>;

/** The columns toLifecycleRow reads. */
export const LIFECYCLE_COLUMNS = [
  'exception_id',
  'shipment_id',
  'exception_type',
  'subject',
  'occurrence',
  'fact_start',
  'fact_end',
  'refuted',
  'raised_by',
  'condition_json',
  'body_json',
] as const;

export function toLifecycleRow(row: Row): LifecycleRow {
  const body = JSON.parse(row.body_json) as TrackingException;
  return {
    exceptionID: row.exception_id,
    type: row.exception_type as ExceptionType,
    subject: row.subject,
    occurrence: Number(row.occurrence),
    // Rows stored before these columns existed: their served times are the best anchor there is.
    factStart: row.fact_start ?? body.detectedDateTime,
    factEnd: row.fact_end ?? (body.status === 'RESOLVED' ? (body.resolvedDateTime ?? body.detectedDateTime) : null),
    refuted: Number(row.refuted) === 1,
    raisedBy: row.raised_by,
    condition: row.condition_json ? (JSON.parse(row.condition_json) as ActiveCondition) : null,
    body,
  };
}

/** The stored exception rows of the given shipments, by shipment id: one query per chunk. */
export async function loadLifecycleRows(db: Kysely<DatabaseSchema>, shipmentIds: readonly number[]): Promise<Map<number, LifecycleRow[]>> {
  const out = new Map<number, LifecycleRow[]>();
  for (const ids of chunks([...new Set(shipmentIds)])) {
    const rows = await db.selectFrom('tracking_exception').select(LIFECYCLE_COLUMNS).where('shipment_id', 'in', ids).execute();
    for (const row of rows) {
      const list = out.get(row.shipment_id) ?? [];
      list.push(toLifecycleRow(row));
      out.set(row.shipment_id, list);
    }
  }
  return out;
}

/** A shipment's reconciliation, with the stored rows it started from. */
export interface Reconciled {
  shipmentId: number;
  stored: readonly LifecycleRow[];
  result: ReconcileResult;
}

/**
 * Writes what the reconciliations changed: updates the stored rows, inserts
 * the new ones (in multi-row statements across shipments). `detected_at` /
 * `resolved_at` record when the service stored the detection / resolution
 * (knowledge time).
 */
export async function writeReconciled(db: Kysely<DatabaseSchema>, reconciled: readonly Reconciled[], now: Date): Promise<void> {
  const at = now.toISOString();
  const inserts = [];
  for (const { shipmentId, stored, result } of reconciled) {
    const previousStatus = new Map(stored.map((r) => [r.exceptionID, r.body.status]));
    for (const row of result.rows) {
      if (!result.changed.has(row.exceptionID)) continue;
      const values = {
        exception_type: row.type,
        status: row.body.status,
        subject: row.subject,
        occurrence: row.occurrence,
        fact_start: row.factStart,
        fact_end: row.factEnd,
        refuted: row.refuted ? 1 : 0,
        raised_by: row.raisedBy,
        condition_json: row.condition ? JSON.stringify(row.condition) : null,
        body_json: JSON.stringify(row.body),
        updated_at: at,
      };
      const before = previousStatus.get(row.exceptionID);
      const resolvedNow = row.body.status === 'RESOLVED' && before !== 'RESOLVED';
      if (before !== undefined) {
        await db
          .updateTable('tracking_exception')
          .set({ ...values, ...(resolvedNow ? { resolved_at: at } : {}) })
          .where('exception_id', '=', row.exceptionID)
          .execute();
      } else {
        inserts.push({
          ...values,
          exception_id: row.exceptionID,
          shipment_id: shipmentId,
          detected_at: at,
          resolved_at: resolvedNow ? at : null,
        });
      }
    }
  }
  for (const batch of chunks(inserts, 200)) await db.insertInto('tracking_exception').values(batch).execute();
}
