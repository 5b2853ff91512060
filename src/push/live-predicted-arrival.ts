import type { Db } from '../db/connect.js';
import {
  decidePredictedArrivalPush,
  type PredictedArrivalMark,
  type PredictedArrivalThresholds,
} from '../domain/push/predicted-arrival-trigger.js';
import type { PredictedArrivals } from '../store/eta/predicted-arrivals.js';
import { UNDER_WAY_DAYS } from '../store/push/predicted-arrival-push.js';
import { shipmentVersionById } from '../store/shipments/shipment-lookup.js';
import { predictedArrivalFacts } from './predicted-arrival-pass.js';

/**
 * PREDICTED_ARRIVAL on one live stream (shipmentUpdates; docs/push.md, Predicted arrival): the webhook rule
 * (src/domain/push/predicted-arrival-trigger.ts) asked with the facts the webhook pass asks it with
 * (predictedArrivalFacts: the current model, the voyage's stored events, the time given), so a stream and a webhook
 * say the same thing for the same history. The mark (the prediction last pushed, whether it was late) is held here,
 * in memory, and goes with the stream: a live stream is best effort and ends with its connection, where a webhook
 * subscription's mark is stored with its delivery (src/store/push/predicted-arrival-push.ts).
 *
 * It writes nothing to the database, so it is offered before the upgrade to this release is finished too (the
 * webhook path answers 409 until then: a 0.4.0 worker could not deliver a stored PREDICTED_ARRIVAL delivery; a
 * stream's item is rendered by the instance that holds the stream, which runs this release).
 *
 * The caller (src/push/live-streams.ts) never runs two evaluations of one stream at once.
 */
export class LivePredictedArrival {
  readonly #db: Db;
  readonly #predictions: PredictedArrivals;
  readonly #shipmentId: number;
  readonly #thresholds: PredictedArrivalThresholds;
  readonly #now: () => Date;
  #mark: PredictedArrivalMark | null = null;

  constructor(options: {
    db: Db;
    predictions: PredictedArrivals;
    shipmentId: number;
    thresholds: PredictedArrivalThresholds;
    now: () => Date;
  }) {
    this.#db = options.db;
    this.#predictions = options.predictions;
    this.#shipmentId = options.shipmentId;
    this.#thresholds = options.thresholds;
    this.#now = options.now;
  }

  /**
   * Evaluates the prediction as of now against the mark; true when it is to be pushed (the mark moved with it).
   * The first evaluation is the starting point, as a webhook subscription's first: a move is measured from it, and
   * only a lateness crossing the carrier's ETA has not made is pushed by it.
   */
  async evaluate(): Promise<boolean> {
    const now = this.#now();
    const shipment = await shipmentVersionById(this.#db, this.#shipmentId);
    if (!shipment) return false;
    // As the webhook pass: a shipment whose carrier arrival is older than UNDER_WAY_DAYS is not evaluated any more.
    if (shipment.eta !== null && Date.parse(shipment.eta) < now.getTime() - UNDER_WAY_DAYS * 86_400_000) return false;
    const [stored, voyage] = await Promise.all([
      this.#predictions.models.get(),
      this.#predictions.voyageOf({ id: this.#shipmentId, version: shipment.version }),
    ]);
    if (!voyage) return false;
    const facts = predictedArrivalFacts(stored?.model ?? null, voyage, now.toISOString());
    if (!facts) return false;
    const decision = decidePredictedArrivalPush(this.#thresholds, this.#mark, facts);
    if (decision.mark) this.#mark = decision.mark;
    return decision.reasons.length > 0;
  }
}
