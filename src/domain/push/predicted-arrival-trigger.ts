/**
 * When the predicted arrival is pushed to a subscriber (PREDICTED_ARRIVAL; docs/push.md, Predicted
 * arrival). Pure: the caller gives the prediction as of now, the carrier's times, and what was last pushed to this
 * subscriber for this shipment (the mark); this says whether to push and what the mark becomes.
 *
 * Two thresholds, either or both, the subscriber's own:
 * - shift (`predictedArrivalShiftHours`): the prediction moved by more than this since the one last pushed to the
 *   subscription (the first prediction evaluated is the starting point and is not pushed by itself).
 * - lateness (`predictedLatenessHours`): the prediction is later than the carrier's planned (first) arrival by at
 *   least this much while the carrier's own ETA is not yet that late: the early warning. Pushed once per crossing:
 *   the mark remembers that the prediction is late, and only a prediction that was not late before crossing again
 *   pushes again. A crossing the carrier's ETA made too (or made first) is not pushed, and is remembered as
 *   crossed, so it is not pushed later either.
 * Once the vessel has arrived (an actual arrival), nothing is pushed any more.
 */

export interface PredictedArrivalThresholds {
  /** Hours; null: no shift trigger. */
  shiftHours: number | null;
  /** Hours; null: no lateness trigger. */
  latenessHours: number | null;
}

/** What was last pushed to one subscription for one shipment (or the starting point). */
export interface PredictedArrivalMark {
  /** The predicted arrival last pushed (or first evaluated), ISO. */
  estimate: string;
  /** The prediction was late by the lateness threshold at the last evaluation that changed the mark. */
  late: boolean;
}

export interface PredictedArrivalFacts {
  /** The prediction now, ISO. */
  estimatedDateTime: string;
  /** The carrier's current ETA at the port of discharge, ISO; null when it gave none. */
  carrierEstimatedDateTime: string | null;
  /** The carrier's planned (first) arrival at the port of discharge, ISO; null when unknown. */
  plannedArrival: string | null;
  /** The vessel has arrived (the prediction is the actual arrival). */
  arrived: boolean;
}

export type PredictedArrivalReason = 'SHIFT' | 'LATENESS';

export interface PredictedArrivalDecision {
  /** Why to push now; empty: do not push. */
  reasons: PredictedArrivalReason[];
  /** The mark to record; null: leave the stored one as it is (nothing changed). */
  mark: PredictedArrivalMark | null;
}

const HOUR = 3_600_000;

/** Whether the thresholds are valid for a subscription: at least one, each above 0 and at most 30 days. */
export const MAX_THRESHOLD_HOURS = 720;

export function decidePredictedArrivalPush(
  thresholds: PredictedArrivalThresholds,
  mark: PredictedArrivalMark | null,
  facts: PredictedArrivalFacts,
): PredictedArrivalDecision {
  if (facts.arrived) return { reasons: [], mark: null };
  const predicted = Date.parse(facts.estimatedDateTime);
  const planned = facts.plannedArrival === null ? null : Date.parse(facts.plannedArrival);
  const carrier = facts.carrierEstimatedDateTime === null ? null : Date.parse(facts.carrierEstimatedDateTime);

  const lateness = thresholds.latenessHours;
  const lateNow = lateness !== null && planned !== null && predicted - planned >= lateness * HOUR;
  const carrierLate = lateness !== null && planned !== null && carrier !== null && carrier - planned >= lateness * HOUR;

  const reasons: PredictedArrivalReason[] = [];
  if (lateNow && !carrierLate && !(mark?.late ?? false)) reasons.push('LATENESS');
  if (mark !== null && thresholds.shiftHours !== null && Math.abs(predicted - Date.parse(mark.estimate)) > thresholds.shiftHours * HOUR) {
    reasons.push('SHIFT');
  }

  const next: PredictedArrivalMark = {
    // The starting point, or the prediction pushed now; otherwise the last one pushed stays the reference.
    estimate: mark === null || reasons.length > 0 ? new Date(predicted).toISOString() : mark.estimate,
    late: lateNow,
  };
  const changed = mark === null || next.estimate !== mark.estimate || next.late !== mark.late;
  return { reasons, mark: changed ? next : null };
}
