import type { EtaSample } from './eta-model.js';

/**
 * One cell's correction and interval (docs/predicted-arrival.md, The method): the carrier's error y is
 * modelled as a + b·x, x being the lateness the carrier has not yet put into its ETA; the interval is the
 * 10 % and 90 % quantiles of the held-out residuals (split conformal, leave-one-out), widened where the
 * cell has few voyages. Recent voyages weigh more (half-life below), so a regime change (a closure adding
 * days to a lane) moves both the correction and the interval within a few weeks of arrivals.
 */

export interface CellFit {
  /** Correction in hours: a + b·x. */
  a: number;
  b: number;
  /** Interval offsets from the estimate, hours: lo <= 0 <= hi. */
  lo: number;
  hi: number;
  /** Distinct voyages behind the cell. */
  voyages: number;
}

/** Half-life of a sample's weight, in hours of arrival time behind the cell's newest. */
export const RECENCY_HALF_LIFE_HOURS = 30 * 24;
/** The slope is kept within this range: the carrier puts in between none of the known lateness and more than all of it. */
const SLOPE_RANGE: [number, number] = [-0.5, 1.5];
/** A slope is fitted only from this many voyages on; below, the correction is the median error alone. */
const MIN_VOYAGES_FOR_SLOPE = 15;

const cache = new WeakMap<readonly EtaSample[], CellFit>();

export function fitCell(samples: readonly EtaSample[]): CellFit {
  const cached = cache.get(samples);
  if (cached) return cached;
  const fit = computeFit(samples);
  cache.set(samples, fit);
  return fit;
}

function computeFit(samples: readonly EtaSample[]): CellFit {
  const newest = samples.reduce((m, s) => Math.max(m, s[0]), -Infinity);
  const w = samples.map((s) => s[3] * Math.pow(0.5, (newest - s[0]) / RECENCY_HALF_LIFE_HOURS));
  const voyages = new Set(samples.map((s) => s[4])).size;

  let b = 0;
  if (voyages >= MIN_VOYAGES_FOR_SLOPE) {
    let sw = 0;
    let sx = 0;
    let sy = 0;
    samples.forEach((s, i) => {
      sw += w[i]!;
      sx += w[i]! * s[1];
      sy += w[i]! * s[2];
    });
    const mx = sx / sw;
    const my = sy / sw;
    let sxx = 0;
    let sxy = 0;
    samples.forEach((s, i) => {
      sxx += w[i]! * (s[1] - mx) ** 2;
      sxy += w[i]! * (s[1] - mx) * (s[2] - my);
    });
    // A little ridge (a day of spread per voyage) so that a cell whose x barely varies keeps a slope near 0.
    const ridge = 24 * 24 * (sw / Math.max(1, voyages));
    b = Math.max(SLOPE_RANGE[0], Math.min(SLOPE_RANGE[1], sxy / (sxx + ridge)));
  }
  // The intercept is a weighted median: the absolute error is what the estimate is judged on.
  const a = weightedQuantile(
    samples.map((s) => s[2] - b * s[1]),
    w,
    0.5,
  );
  // Held-out residuals: each sample's residual against a fit without its voyage is approximated by the
  // in-sample residual inflated by n/(n-2) (two parameters), the leave-one-out correction of least squares.
  const inflate = voyages > 3 ? voyages / (voyages - 2) : 2;
  const residuals = samples.map((s) => (s[2] - a - b * s[1]) * inflate);
  // Finite-sample conformal levels: with n voyages the (1-α) quantile is taken at ceil((n+1)(1-α))/n.
  const n = Math.max(1, voyages);
  const loLevel = Math.max(0, 0.1 - 0.9 / n);
  const hiLevel = Math.min(1, 0.9 + 0.9 / n);
  let lo = Math.min(0, weightedQuantile(residuals, w, loLevel));
  let hi = Math.max(0, weightedQuantile(residuals, w, hiLevel));
  // Few voyages: widen by 1 + 2/sqrt(n), so that a thin cell says it knows less.
  const widen = 1 + 2 / Math.sqrt(n);
  lo *= widen;
  hi *= widen;
  return { a, b, lo, hi, voyages };
}

/** The weighted quantile (lower, by cumulative weight) of values. */
export function weightedQuantile(values: readonly number[], weights: readonly number[], level: number): number {
  if (values.length === 0) return 0;
  const order = values.map((_, i) => i).sort((i, j) => values[i]! - values[j]! || i - j);
  const total = weights.reduce((s, v) => s + v, 0);
  const target = level * total;
  let cumulative = 0;
  for (const i of order) {
    cumulative += weights[i]!;
    if (cumulative >= target) return values[i]!;
  }
  return values[order[order.length - 1]!]!;
}
