import type { EtaSample } from './eta-model.js';

/**
 * One cell's correction and interval (docs/predicted-arrival.md, The method): the carrier's error is modelled
 * as a + b·lateness + c·moved (lateness the voyage has built up so far; how far the carrier has moved its ETA
 * since its first: a carrier that puts only part of what it knows into its ETA is late by a share of both),
 * fitted by weighted least squares with a little ridge, the intercept a weighted median (the estimate is judged
 * on its absolute error). The interval is the 10 % and 90 % quantiles of the held-out residuals (split
 * conformal), widened where the cell has few voyages. Recent voyages weigh more (half-life below), so a regime
 * change (a closure adding days to a lane) moves the correction and the interval within weeks of arrivals.
 */

export interface CellFit {
  /** Correction in hours: a + b·lateness + c·moved. */
  a: number;
  b: number;
  c: number;
  /** Interval offsets from the estimate, hours: lo <= 0 <= hi. */
  lo: number;
  hi: number;
  /** Distinct voyages behind the cell. */
  voyages: number;
}

/** Half-life of a sample's weight, in hours of arrival time behind the cell's newest. */
export const RECENCY_HALF_LIFE_HOURS = 30 * 24;
/** Slopes are kept within this range: none of a known delay to three times what the carrier has shown of it. */
const SLOPE_RANGE: [number, number] = [-1, 3];
/** Slopes are fitted only from this many voyages on; below, the correction is the median error alone. */
const MIN_VOYAGES_FOR_SLOPE = 15;

const cache = new WeakMap<readonly EtaSample[], CellFit>();

export function fitCell(samples: readonly EtaSample[]): CellFit {
  const cached = cache.get(samples);
  if (cached) return cached;
  const fit = computeFit(samples);
  cache.set(samples, fit);
  return fit;
}

const clampSlope = (v: number) => Math.max(SLOPE_RANGE[0], Math.min(SLOPE_RANGE[1], v));

function computeFit(samples: readonly EtaSample[]): CellFit {
  const voyages = new Set(samples.map((s) => s[5])).size;
  const n = Math.max(1, voyages);
  // Few voyages: wider (1 + 4/n), so that a thin cell says it knows less.
  const widen = 1 + 4 / n;
  if (voyages < MIN_VOYAGES_FOR_SLOPE) {
    // Too few to hold any out: the median error, in-sample residuals inflated by n/(n-1).
    const w = recencyWeights(samples);
    const a = weightedQuantile(
      samples.map((s) => s[3]),
      w,
      0.5,
    );
    const inflate = voyages > 1 ? voyages / (voyages - 1) : 2;
    const residuals = samples.map((s) => (s[3] - a) * inflate);
    return { a, b: 0, c: 0, ...interval(residuals, w, n, widen), voyages };
  }
  // Held out by time: the newest third of the cell's voyages (samples are kept oldest first) is scored by fits
  // of the older two thirds, as a model meets voyages after it is trained, drift included. That choice decides
  // between the carrier's ETA as it is, the median correction and the slopes (whichever predicts the held-out
  // voyages best: a correction is never kept where it does worse than the carrier), and calibrates the interval: the share by which the older fit's 10 %-90 % residual spread must be scaled
  // to hold 80 % of the held-out errors (normalised split conformal) scales the final fit's spread.
  const cut = splitByVoyage(samples);
  const older = samples.slice(0, cut);
  const newer = samples.slice(cut);
  const olderWeights = recencyWeights(older);
  const newerWeights = recencyWeights(newer);
  // Three candidates, the simplest first: the carrier's ETA as it is, shifted by the median error, and with slopes.
  const residualsOf = (list: readonly EtaSample[], f: Point) => list.map((s) => s[3] - f.a - f.b * s[1] - f.c * s[2]);
  const mae = (r: number[]) => r.reduce((sum, x, i) => sum + Math.abs(x) * newerWeights[i]!, 0);
  const candidates = [
    { kind: 'none' as const, fit: { a: 0, b: 0, c: 0 } },
    { kind: 'median' as const, fit: fitPoint(older, olderWeights, false) },
    { kind: 'slopes' as const, fit: fitPoint(older, olderWeights, true) },
  ].map((c) => ({ ...c, error: mae(residualsOf(newer, c.fit)) }));
  const best = candidates.reduce((m, c) => (c.error < m.error ? c : m));
  const chosen = best.fit;
  const olderSpread = interval(residualsOf(older, chosen), olderWeights, cut, 1);
  const scores = residualsOf(newer, chosen).map((r) => (r >= 0 ? r / Math.max(1, olderSpread.hi) : -r / Math.max(1, -olderSpread.lo)));
  const calibrationVoyages = new Set(newer.map((s) => s[5])).size;
  const scale = weightedQuantile(scores, newerWeights, Math.min(1, 0.8 * (1 + 1 / calibrationVoyages)));

  const final = best.kind === 'none' ? best.fit : fitPoint(samples, recencyWeights(samples), best.kind === 'slopes');
  const spread = interval(residualsOf(samples, final), recencyWeights(samples), voyages, widen);
  return { ...final, lo: spread.lo * scale, hi: spread.hi * scale, voyages };
}

interface Point {
  a: number;
  b: number;
  c: number;
}

function fitPoint(samples: readonly EtaSample[], w: readonly number[], withSlopes: boolean): Point {
  const [b, c] = withSlopes ? slopes(samples, w, new Set(samples.map((s) => s[5])).size) : [0, 0];
  const a = weightedQuantile(
    samples.map((s) => s[3] - b * s[1] - c * s[2]),
    w,
    0.5,
  );
  return { a, b, c };
}

/** Where the newest third of the voyages begins (samples are ordered by arrival then voyage, so a voyage's are together). */
function splitByVoyage(samples: readonly EtaSample[]): number {
  const keep = Math.ceil((2 * new Set(samples.map((s) => s[5])).size) / 3);
  let seen = 0;
  for (let i = 0; i < samples.length; i++) {
    if (i === 0 || samples[i]![5] !== samples[i - 1]![5] || samples[i]![0] !== samples[i - 1]![0]) seen++;
    if (seen > keep) return i;
  }
  return samples.length;
}

/** Recent voyages weigh more: a half-life in arrival time behind the newest. */
function recencyWeights(samples: readonly EtaSample[]): number[] {
  const newest = samples.reduce((m, s) => Math.max(m, s[0]), -Infinity);
  return samples.map((s) => s[4] * Math.pow(0.5, (newest - s[0]) / RECENCY_HALF_LIFE_HOURS));
}

/** The 10 % and 90 % quantiles of held-out residuals, at the finite-sample levels of n voyages, widened. */
function interval(residuals: readonly number[], w: readonly number[], n: number, widen: number): { lo: number; hi: number } {
  const size = Math.max(1, n);
  const loLevel = Math.max(0, 0.1 * (1 - 1 / size));
  const hiLevel = Math.min(1, 0.9 * (1 + 1 / size));
  return {
    lo: Math.min(0, weightedQuantile(residuals, w, loLevel)) * widen,
    hi: Math.max(0, weightedQuantile(residuals, w, hiLevel)) * widen,
  };
}

/** Weighted least squares of the error on (lateness, moved), centred, with a ridge of a day's spread per voyage. */
function slopes(samples: readonly EtaSample[], w: readonly number[], voyages: number): [number, number] {
  let sw = 0;
  let m1 = 0;
  let m2 = 0;
  let my = 0;
  samples.forEach((s, i) => {
    sw += w[i]!;
    m1 += w[i]! * s[1];
    m2 += w[i]! * s[2];
    my += w[i]! * s[3];
  });
  m1 /= sw;
  m2 /= sw;
  my /= sw;
  let s11 = 0;
  let s22 = 0;
  let s12 = 0;
  let s1y = 0;
  let s2y = 0;
  samples.forEach((s, i) => {
    const d1 = s[1] - m1;
    const d2 = s[2] - m2;
    const dy = s[3] - my;
    s11 += w[i]! * d1 * d1;
    s22 += w[i]! * d2 * d2;
    s12 += w[i]! * d1 * d2;
    s1y += w[i]! * d1 * dy;
    s2y += w[i]! * d2 * dy;
  });
  const ridge = 24 * 24 * (sw / Math.max(1, voyages));
  s11 += ridge;
  s22 += ridge;
  const det = s11 * s22 - s12 * s12;
  if (!(det > 0)) return [0, 0];
  return [clampSlope((s22 * s1y - s12 * s2y) / det), clampSlope((s11 * s2y - s12 * s1y) / det)];
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
