import { fitCell } from './cell-fit.js';
import { cellKey, emptyModel, foldVoyages, laneOf, voyageFeatures, type CellLevel, type EtaModel } from './eta-model.js';
import { voyageStateAt, type VoyageFacts } from './voyage-state.js';

/**
 * The predicted arrival at the port of discharge (issue 49; docs/predicted-arrival.md). Pure: no I/O, no
 * clock; the service stores the model (src/store/eta) and calls these.
 *
 * The method in a paragraph: take the carrier's current ETA at the port of discharge (the snapshot's `eta`,
 * from the events received by asOf) and correct it by how wrong that carrier has been on that lane at that
 * horizon, given the lateness the voyage has built up that the carrier's ETA does not yet show; the 80 %
 * interval is the 10 %-90 % spread of that cell's held-out errors. Thin cells fall back from carrier and
 * lane to lane to carrier to the carrier's ETA alone, which the basis names.
 */

export type { VoyageFacts } from './voyage-state.js';
export type { EtaModel } from './eta-model.js';
export { ETA_MODEL_FORMAT, mergeEtaModels, modelSummary } from './eta-model.js';

/**
 * What a prediction rests on, from the most specific to none:
 * - CARRIER_LANE, LANE, CARRIER: the carrier's ETA corrected by that cell's history;
 * - TRANSIT: no carrier ETA; the departure plus the lane's transit times;
 * - CARRIER_ETA_ONLY: the carrier's ETA as it is, with a wide interval (no usable history);
 * - ACTUAL: the vessel has arrived; the actual arrival, no interval.
 */
export const ETA_BASES = ['CARRIER_LANE', 'LANE', 'CARRIER', 'TRANSIT', 'CARRIER_ETA_ONLY', 'ACTUAL'] as const;
export type EtaBasis = (typeof ETA_BASES)[number];

export interface PredictedArrival {
  /** ISO UTC, earliestDateTime <= estimatedDateTime <= latestDateTime. */
  estimatedDateTime: string;
  earliestDateTime: string;
  latestDateTime: string;
  /** The interval's nominal share, 0.8. */
  coverage: number;
  basis: EtaBasis;
  /** How many past voyages the correction learned from (0 for CARRIER_ETA_ONLY and ACTUAL). */
  sampleSize: number;
  /** The model's training time; null without a model. */
  trainedAt: string | null;
  /** The carrier's current ETA beside it. */
  carrierEstimatedDateTime: string | null;
}

export const NOMINAL_COVERAGE = 0.8;
/** A cell is used from this many voyages on; below, the next, coarser one. */
export const MIN_CELL_VOYAGES = 8;

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(Math.round(ms / 1000) * 1000).toISOString();

/** Uses only what was received by asOf; absent only when the carrier gave no ETA and no history exists. */
export function predictArrival(model: EtaModel | null, voyage: VoyageFacts, asOf: string): PredictedArrival | null {
  const state = voyageStateAt(voyage, asOf);
  const trainedAt = model?.trainedAt ?? null;
  const lane = laneOf(voyage);
  const carrier = voyage.carrierCode;

  if (state.carrierEta === null) return predictFromTransit(model, lane, carrier, state.departure, trainedAt);
  const carrierEstimatedDateTime = new Date(state.carrierEta).toISOString();
  if (state.arrived) {
    return {
      estimatedDateTime: carrierEstimatedDateTime,
      earliestDateTime: carrierEstimatedDateTime,
      latestDateTime: carrierEstimatedDateTime,
      coverage: NOMINAL_COVERAGE,
      basis: 'ACTUAL',
      sampleSize: 0,
      trainedAt,
      carrierEstimatedDateTime,
    };
  }

  const horizonHours = (state.carrierEta - Date.parse(asOf)) / HOUR;
  const features = voyageFeatures(state, Date.parse(asOf))!;
  const bucket = features.bucket;
  for (const level of ['CARRIER_LANE', 'LANE', 'CARRIER'] as const satisfies readonly CellLevel[]) {
    const samples = model?.cells[cellKey(level, carrier, lane, bucket)];
    if (!samples) continue;
    const fit = fitCell(samples);
    if (fit.voyages < MIN_CELL_VOYAGES) continue;
    const estimate = state.carrierEta + (fit.a + fit.b * features.lateness + fit.c * features.moved) * HOUR;
    return interval(estimate, fit.lo, fit.hi, level, fit.voyages, trainedAt, carrierEstimatedDateTime);
  }

  // No usable cell: the carrier's ETA as it is. The interval is every voyage's spread at this horizon when the
  // model has one (centred on the carrier's ETA, so it holds the carrier's bias too), else a wide default.
  const all = model?.cells[cellKey('ALL', carrier, lane, bucket)];
  const fit = all ? fitCell(all) : null;
  const [lo, hi] =
    fit && fit.voyages >= MIN_CELL_VOYAGES ? [Math.min(0, fit.a + fit.lo), Math.max(0, fit.a + fit.hi)] : defaultSpread(horizonHours);
  return interval(state.carrierEta, lo, hi, 'CARRIER_ETA_ONLY', 0, trainedAt, carrierEstimatedDateTime);
}

/**
 * The interval without any history: carriers' ETAs are late far more often than early (docs/predicted-arrival.md,
 * What it assumes), so it reaches two days plus half the horizon later and half a day plus a tenth earlier.
 */
function defaultSpread(horizonHours: number): [number, number] {
  const h = Math.max(0, horizonHours);
  return [-(12 + 0.1 * h), 48 + 0.5 * h];
}

/** No carrier ETA: the departure (actual or planned) plus the lane's transit times, when the lane has them. */
function predictFromTransit(
  model: EtaModel | null,
  lane: string,
  carrier: string,
  departure: number | null,
  trainedAt: string | null,
): PredictedArrival | null {
  const samples = model?.cells[cellKey('TRANSIT', carrier, lane, '')];
  if (departure === null || !samples) return null;
  const fit = fitCell(samples);
  if (fit.voyages < MIN_CELL_VOYAGES) return null;
  return interval(departure + fit.a * HOUR, fit.lo, fit.hi, 'TRANSIT', fit.voyages, trainedAt, null);
}

function interval(
  estimate: number,
  loHours: number,
  hiHours: number,
  basis: EtaBasis,
  sampleSize: number,
  trainedAt: string | null,
  carrierEstimatedDateTime: string | null,
): PredictedArrival {
  // Rounded to the second, the same way for all three, so the interval holds its estimate exactly.
  return {
    estimatedDateTime: iso(estimate),
    earliestDateTime: iso(estimate + Math.min(0, loHours) * HOUR),
    latestDateTime: iso(estimate + Math.max(0, hiHours) * HOUR),
    coverage: NOMINAL_COVERAGE,
    basis,
    sampleSize,
    trainedAt,
    carrierEstimatedDateTime,
  };
}

/** Deterministic: the same voyages (in any order) give the same model. Voyages without an actual arrival are skipped. */
export function trainEtaModel(voyages: Iterable<VoyageFacts>, trainedAt: string): EtaModel {
  return foldVoyages(emptyModel(trainedAt), voyages, trainedAt);
}

/** Incremental training: folds newly arrived voyages into a model; bounded memory (MAX_SAMPLES per cell). */
export function updateEtaModel(model: EtaModel, voyages: Iterable<VoyageFacts>, trainedAt: string, counted?: Set<number>): EtaModel {
  return foldVoyages(model, voyages, trainedAt, counted);
}
