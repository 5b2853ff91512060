import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { skipDuplicateKeys, type SqlDialect } from '../../db/dialect.js';
import { inTransaction } from '../../db/retry-transaction.js';
import { PREDICTED_ARRIVAL } from '../../domain/push/push-triggers.js';
import type { PredictedArrivalMark, PredictedArrivalThresholds } from '../../domain/push/predicted-arrival-trigger.js';
import { deliveryRow } from './push-outbox.js';
import { ACCOUNT_WIDE, WEBHOOK_KIND } from './webhook-subscriptions.js';

/**
 * The predicted arrival's push (PREDICTED_ARRIVAL; docs/push.md, Predicted arrival): who asked for it, what
 * was last pushed to each, and the write that pushes once (migration 031).
 *
 * "Once" is held by the database, not by a process: the mark of a (subscription, shipment) is written in the same
 * transaction as the delivery it causes, the first one by an INSERT that skips a duplicate key, every later one by
 * an UPDATE conditioned on the revision the evaluation read. Two instances (or one restarted) evaluating the same
 * crossing both read revision r; one writes r + 1 and its delivery, the other's UPDATE matches no row and it
 * enqueues nothing. Delivery is the outbox's: at least once, in order per subscription.
 */

type Db = Kysely<DatabaseSchema>;

export interface StoredPredictedArrivalMark extends PredictedArrivalMark {
  revision: number;
}

export interface PredictedArrivalFollower {
  subscriptionId: string;
  shipmentId: number;
  /** The shipment's version (its stored events changed when it moved). */
  shipmentVersion: number;
  thresholds: PredictedArrivalThresholds;
  mark: StoredPredictedArrivalMark | null;
}

/** Shipments whose carrier arrival (or actual) is older than this are not evaluated any more. */
export const UNDER_WAY_DAYS = 30;

/**
 * The active webhook subscriptions that asked for PREDICTED_ARRIVAL, with their shipment's version and their
 * mark, a page at a time in subscription order (`after` the last one of the previous page); only shipments under
 * way (no arrival, or the carrier's arrival less than UNDER_WAY_DAYS ago), and only `shipmentIds` when given.
 */
export async function predictedArrivalFollowers(
  db: Db,
  options: { now: Date; after?: string; limit: number; shipmentIds?: readonly number[] },
): Promise<PredictedArrivalFollower[]> {
  const since = new Date(options.now.getTime() - UNDER_WAY_DAYS * 86_400_000).toISOString();
  let query = db
    .selectFrom('webhook_subscription as s')
    .innerJoin('shipment as sh', 'sh.id', 's.shipment_id')
    .leftJoin('predicted_arrival_mark as m', (join) =>
      join.onRef('m.subscription_id', '=', 's.subscription_id').onRef('m.shipment_id', '=', 's.shipment_id'),
    )
    .select([
      's.subscription_id',
      's.shipment_id',
      's.predicted_shift_hours',
      's.predicted_lateness_hours',
      'sh.version',
      'm.estimate',
      'm.late',
      'm.revision',
    ])
    .where('s.kind', '=', WEBHOOK_KIND)
    .where('s.status', '=', 'ACTIVE')
    .where('s.shipment_id', '!=', ACCOUNT_WIDE)
    .where((eb) => eb.or([eb('s.predicted_shift_hours', 'is not', null), eb('s.predicted_lateness_hours', 'is not', null)]))
    .where((eb) => eb.or([eb('sh.eta', 'is', null), eb('sh.eta', '>=', since)]));
  if (options.after !== undefined) query = query.where('s.subscription_id', '>', options.after);
  if (options.shipmentIds) {
    if (options.shipmentIds.length === 0) return [];
    query = query.where('s.shipment_id', 'in', [...options.shipmentIds]);
  }
  const rows = await query.orderBy('s.subscription_id').limit(options.limit).execute();
  return rows.map((r) => ({
    subscriptionId: r.subscription_id,
    shipmentId: Number(r.shipment_id),
    shipmentVersion: Number(r.version),
    thresholds: { shiftHours: r.predicted_shift_hours ?? null, latenessHours: r.predicted_lateness_hours ?? null },
    mark:
      r.estimate === null || r.revision === null
        ? null
        : { estimate: r.estimate, late: Number(r.late) === 1, revision: Number(r.revision) },
  }));
}

/**
 * Records the new mark of a follower and, when `push`, enqueues its PREDICTED_ARRIVAL delivery, in one
 * transaction, only if the mark is still the one the evaluation read (`follower.mark`). False when another
 * evaluation wrote first: nothing is written, nothing pushed.
 */
export async function recordPredictedArrival(
  db: Db,
  dialect: SqlDialect,
  input: { follower: PredictedArrivalFollower; mark: PredictedArrivalMark; push: boolean; now: Date },
): Promise<boolean> {
  const at = input.now.toISOString();
  const { follower, mark } = input;
  return inTransaction(db, async (trx) => {
    if (follower.mark === null) {
      const inserted = await skipDuplicateKeys(
        dialect,
        trx.insertInto('predicted_arrival_mark').values({
          subscription_id: follower.subscriptionId,
          shipment_id: follower.shipmentId,
          estimate: mark.estimate,
          late: mark.late ? 1 : 0,
          revision: 1,
          updated_at: at,
        }),
      ).executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
    } else {
      const updated = await trx
        .updateTable('predicted_arrival_mark')
        .set({ estimate: mark.estimate, late: mark.late ? 1 : 0, revision: follower.mark.revision + 1, updated_at: at })
        .where('subscription_id', '=', follower.subscriptionId)
        .where('shipment_id', '=', follower.shipmentId)
        .where('revision', '=', follower.mark.revision)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
    }
    if (input.push) {
      await trx
        .insertInto('webhook_delivery')
        .values(
          deliveryRow(
            follower.subscriptionId,
            follower.shipmentId,
            { triggerType: PREDICTED_ARRIVAL, eventID: null, exceptionID: null },
            at,
          ),
        )
        .execute();
    }
    return true;
  });
}
