import { describe, expect, it } from 'vitest';
import {
  decidePredictedArrivalPush,
  type PredictedArrivalFacts,
  type PredictedArrivalMark,
  type PredictedArrivalThresholds,
} from '../src/domain/push/predicted-arrival-trigger.js';

/**
 * When PREDICTED_ARRIVAL is pushed (src/domain/push/predicted-arrival-trigger.ts): a move of the prediction
 * by more than the subscriber's shift since the one last pushed, and the first crossing of the subscriber's lateness
 * before the carrier's ETA crosses it; each once, by the mark the caller records.
 */

const PLANNED = '2026-05-01T00:00:00.000Z';
const h = (hours: number) => new Date(Date.parse(PLANNED) + hours * 3_600_000).toISOString();
const facts = (predictedHours: number, carrierHours = 0, extra: Partial<PredictedArrivalFacts> = {}): PredictedArrivalFacts => ({
  estimatedDateTime: h(predictedHours),
  carrierEstimatedDateTime: h(carrierHours),
  plannedArrival: PLANNED,
  arrived: false,
  ...extra,
});

/** Runs a sequence of predictions through the rule, recording the mark as the store would; returns what was pushed. */
function run(thresholds: PredictedArrivalThresholds, steps: PredictedArrivalFacts[]): string[][] {
  let mark: PredictedArrivalMark | null = null;
  return steps.map((step) => {
    const decision = decidePredictedArrivalPush(thresholds, mark, step);
    if (decision.mark) mark = decision.mark;
    return decision.reasons;
  });
}

describe('the predicted arrival trigger', () => {
  it('shift: the first prediction is the starting point; a move of more than the threshold since the last push fires, once', () => {
    const pushed = run({ shiftHours: 12, latenessHours: null }, [facts(0), facts(6), facts(12), facts(13), facts(20), facts(26), facts(1)]);
    // 0 is the start; 6 and 12 are not more than 12 h away; 13 is; 20 is 7 h from 13; 26 is 13 h from 13; 1 is 25 h from 26.
    expect(pushed).toEqual([[], [], [], ['SHIFT'], [], ['SHIFT'], ['SHIFT']]);
  });

  it('shift: small steps that add up fire once their sum exceeds the threshold (the reference is the last push)', () => {
    const pushed = run(
      { shiftHours: 10, latenessHours: null },
      [0, 4, 8, 11, 12].map((x) => facts(x)),
    );
    expect(pushed).toEqual([[], [], [], ['SHIFT'], []]);
  });

  it('lateness: fires when the prediction first crosses it while the carrier ETA has not, and not again while it stays late', () => {
    const pushed = run({ shiftHours: null, latenessHours: 24 }, [facts(10), facts(30), facts(40), facts(50, 5), facts(12), facts(25)]);
    expect(pushed).toEqual([[], ['LATENESS'], [], [], [], ['LATENESS']]);
  });

  it('lateness: a crossing the carrier ETA made too is not pushed, then or later', () => {
    const pushed = run({ shiftHours: null, latenessHours: 24 }, [facts(0), facts(30, 26), facts(35, 10), facts(36, 10)]);
    expect(pushed).toEqual([[], [], [], []]);
  });

  it('lateness: already late at the first evaluation (the carrier not) is pushed; without a planned arrival nothing is late', () => {
    expect(run({ shiftHours: null, latenessHours: 24 }, [facts(30)])).toEqual([['LATENESS']]);
    expect(run({ shiftHours: null, latenessHours: 24 }, [facts(30, 0, { plannedArrival: null })])).toEqual([[]]);
  });

  it('both thresholds: one push names both reasons; the pushed prediction becomes the reference', () => {
    const decision = decidePredictedArrivalPush({ shiftHours: 12, latenessHours: 24 }, { estimate: h(0), late: false }, facts(30));
    expect(decision).toEqual({ reasons: ['LATENESS', 'SHIFT'], mark: { estimate: h(30), late: true } });
  });

  it('nothing is pushed or recorded after the arrival, and an unchanged mark is not written again', () => {
    expect(decidePredictedArrivalPush({ shiftHours: 1, latenessHours: 1 }, null, facts(50, 0, { arrived: true }))).toEqual({
      reasons: [],
      mark: null,
    });
    expect(decidePredictedArrivalPush({ shiftHours: 12, latenessHours: null }, { estimate: h(0), late: false }, facts(3))).toEqual({
      reasons: [],
      mark: null,
    });
  });
});
