import type { Database } from '../db/connect.js';
import type { EtaModel } from '../domain/eta/eta-model.js';
import { predictArrival, type VoyageFacts } from '../domain/eta/predictor.js';
import { voyageStateAt } from '../domain/eta/voyage-state.js';
import { decidePredictedArrivalPush, type PredictedArrivalFacts } from '../domain/push/predicted-arrival-trigger.js';
import type { PredictedArrivals } from '../store/eta/predicted-arrivals.js';
import { predictedArrivalFollowers, recordPredictedArrival } from '../store/push/predicted-arrival-push.js';

/**
 * One evaluation of the predicted arrival's push (PREDICTED_ARRIVAL; docs/push.md, Predicted arrival): for
 * every active subscription that asked for it, of a shipment under way, the prediction as of `now` (the current
 * model, the voyage's stored events: PredictedArrivals, which reads a voyage again only when its shipment's
 * version moved), the domain's rule against what was last pushed (src/domain/push/predicted-arrival-trigger.ts), and
 * the mark and delivery written together, once (src/store/push/predicted-arrival-push.ts). Any instance may run it,
 * at any time and as often as it likes: the stored mark, not this process, decides what was pushed.
 *
 * The work is bounded by the subscriptions that asked (read a page at a time), not by the shipments.
 */

export interface PredictedArrivalPassResult {
  /** Subscriptions evaluated. */
  evaluated: number;
  /** Deliveries enqueued. */
  pushed: number;
  /** Marks another evaluation wrote first (nothing written here). */
  lost: number;
}

const PAGE = 500;

/**
 * What the rule (decidePredictedArrivalPush) is given for one voyage as of `asOf`: the prediction, the carrier's
 * ETA and its planned (first) arrival, and whether the vessel arrived; null when there is nothing to predict from.
 * Webhooks (the pass below) and live streams (src/push/live-predicted-arrival.ts) both ask this, so they say the
 * same thing for the same history.
 */
export function predictedArrivalFacts(model: EtaModel | null, voyage: VoyageFacts, asOf: string): PredictedArrivalFacts | null {
  const prediction = predictArrival(model, voyage, asOf);
  if (!prediction) return null;
  const planned = voyageStateAt(voyage, asOf).firstCarrierEta;
  return {
    estimatedDateTime: prediction.estimatedDateTime,
    carrierEstimatedDateTime: prediction.carrierEstimatedDateTime,
    plannedArrival: planned === null ? null : new Date(planned).toISOString(),
    arrived: prediction.basis === 'ACTUAL',
  };
}

export async function evaluatePredictedArrivals(
  database: Database,
  predictions: PredictedArrivals,
  now: Date,
  options: { shipmentIds?: readonly number[] } = {},
): Promise<PredictedArrivalPassResult> {
  const result: PredictedArrivalPassResult = { evaluated: 0, pushed: 0, lost: 0 };
  const asOf = now.toISOString();
  const stored = await predictions.models.get();
  let after: string | undefined;
  for (;;) {
    const followers = await predictedArrivalFollowers(database.db, {
      now,
      limit: PAGE,
      ...(after === undefined ? {} : { after }),
      ...(options.shipmentIds ? { shipmentIds: options.shipmentIds } : {}),
    });
    for (const follower of followers) {
      const voyage = await predictions.voyageOf({ id: follower.shipmentId, version: follower.shipmentVersion });
      if (!voyage) continue;
      const facts = predictedArrivalFacts(stored?.model ?? null, voyage, asOf);
      if (!facts) continue;
      result.evaluated++;
      const decision = decidePredictedArrivalPush(follower.thresholds, follower.mark, facts);
      if (!decision.mark) continue;
      const push = decision.reasons.length > 0;
      const written = await recordPredictedArrival(database.db, database.dialect, { follower, mark: decision.mark, push, now });
      if (!written) result.lost++;
      else if (push) result.pushed++;
    }
    if (followers.length < PAGE) return result;
    after = followers.at(-1)!.subscriptionId;
  }
}
