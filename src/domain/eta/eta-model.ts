import { actualArrival, voyageStateAt, type VoyageFacts } from './voyage-state.js';

/**
 * The learned model (docs/predicted-arrival.md, The method): for each cell (carrier and lane, lane, carrier,
 * every voyage; each per horizon bucket), the most recent samples of how wrong the carrier's ETA was.
 * A sample is one voyage seen at one moment before it arrived: the lateness it had built up so far, how far the
 * carrier had moved its ETA since its first, and the carrier's error (actual minus the carrier's ETA), in hours.
 *
 * Plain JSON, bounded (at most MAX_SAMPLES per cell, cells bounded by carriers x lanes x buckets), versioned
 * by `format`, and mergeable: the union of two models' samples, cut to the most recent, is their merge.
 * Deterministic: samples are kept in a canonical order, so the same voyages in any order give the same model.
 */

export const ETA_MODEL_FORMAT = 1;

/**
 * [arrival (hours since the epoch), lateness so far, the carrier's ETA moved since its first, error (the three in
 * hours), weight (a voyage weighs 1 per cell), voyage hash].
 */
export type EtaSample = [number, number, number, number, number, number];

export interface EtaModel {
  format: typeof ETA_MODEL_FORMAT;
  trainedAt: string;
  /** Voyages folded in so far; one folded in again (an updated voyage, or read twice) replaces itself and counts once. */
  voyages: number;
  /** Cell key (see cellKey) to its samples, oldest first. */
  cells: Record<string, EtaSample[]>;
}

/** At most this many samples per cell: a few dozen voyages of one lane, more than enough for its 10 % and 90 % quantiles. */
export const MAX_SAMPLES = 240;
/** At most this many samples of one voyage in one cell, spread over its time in the cell (they are strongly correlated). */
const SAMPLES_PER_VOYAGE = 4;
/** The moments a voyage is looked at while it learns: every 12 hours back from its actual arrival. */
const GRID_HOURS = 12;
/** Nothing is learned from further back than this before the arrival. */
const MAX_LOOKBACK_HOURS = 90 * 24;
/** Features are clipped to this (hours) so that a wild event time cannot swing a fit. */
export const X_CLIP_HOURS = 21 * 24;
/** A carrier ETA created this close (hours) before the time it names is a near-term one (a berth window): a cell of its own. */
export const NEAR_TERM_HOURS = 72;

/** Horizon buckets on the carrier's ETA minus asOf, hours: <1 d, 1-3, 3-7, 7-14, 14-28, >28 d. */
const HORIZON_EDGES = [24, 72, 168, 336, 672];
export function horizonBucket(hours: number): number {
  let bucket = 0;
  while (bucket < HORIZON_EDGES.length && hours >= HORIZON_EDGES[bucket]!) bucket++;
  return bucket;
}

/** Levels from the most specific to the least; TRANSIT learns door-less transit times for voyages without a carrier ETA. */
export type CellLevel = 'CARRIER_LANE' | 'LANE' | 'CARRIER' | 'ALL' | 'TRANSIT';
const LEVEL_CODE: Record<CellLevel, string> = { CARRIER_LANE: 'CL', LANE: 'L', CARRIER: 'C', ALL: 'A', TRANSIT: 'T' };

export function laneOf(voyage: Pick<VoyageFacts, 'portOfLoading' | 'portOfDischarge'>): string {
  return `${voyage.portOfLoading ?? '?'}>${voyage.portOfDischarge ?? '?'}`;
}

/** `bucket`: the horizon bucket, with `n` appended when the carrier's ETA is a near-term one. */
export function cellKey(level: CellLevel, carrier: string, lane: string, bucket: string): string {
  const c = level === 'CARRIER_LANE' || level === 'CARRIER' ? carrier : '';
  const l = level === 'CARRIER_LANE' || level === 'LANE' || level === 'TRANSIT' ? lane : '';
  return `${LEVEL_CODE[level]}|${c}|${l}|${level === 'TRANSIT' ? '' : bucket}`;
}

/** The features of a voyage's state: its cell's bucket and the two regressors. */
export interface VoyageFeatures {
  bucket: string;
  lateness: number;
  moved: number;
}

export function voyageFeatures(
  state: { latenessHours: number; carrierEta: number | null; firstCarrierEta: number | null; carrierEtaCreated: number | null },
  asOfMs: number,
): VoyageFeatures | null {
  if (state.carrierEta === null) return null;
  const horizon = (state.carrierEta - asOfMs) / 3_600_000;
  const nearTerm = state.carrierEtaCreated !== null && (state.carrierEta - state.carrierEtaCreated) / 3_600_000 <= NEAR_TERM_HOURS;
  const moved = state.firstCarrierEta !== null ? (state.carrierEta - state.firstCarrierEta) / 3_600_000 : 0;
  return {
    bucket: `${horizonBucket(horizon)}${nearTerm ? 'n' : ''}`,
    lateness: clip(state.latenessHours, X_CLIP_HOURS),
    moved: clip(moved, X_CLIP_HOURS),
  };
}

export function emptyModel(trainedAt: string): EtaModel {
  return { format: ETA_MODEL_FORMAT, trainedAt, voyages: 0, cells: {} };
}

/** FNV-1a: a stable 32-bit id of a voyage, to replace a voyage's samples when it is folded in again. */
export function voyageHash(shipmentId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < shipmentId.length; i++) {
    h ^= shipmentId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const clip = (v: number, limit: number) => Math.max(-limit, Math.min(limit, v));

/** The samples one arrived voyage gives, per cell key. */
export function voyageSamples(voyage: VoyageFacts): Map<string, EtaSample[]> {
  const out = new Map<string, EtaSample[]>();
  const arrival = actualArrival(voyage);
  if (arrival === null) return out;
  const id = voyageHash(voyage.shipmentId);
  const t = Math.round(arrival / 3_600_000);
  let firstReceived = Infinity;
  for (const at of voyage.receivedAt) firstReceived = Math.min(firstReceived, Date.parse(at));
  const lane = laneOf(voyage);
  const carrier = voyage.carrierCode;

  // Per bucket, the voyage's points (lateness, moved, error) while its carrier horizon was in that bucket.
  const perBucket = new Map<string, Array<[number, number, number]>>();
  let transit: number | null = null;
  for (let back = GRID_HOURS; back <= MAX_LOOKBACK_HOURS; back += GRID_HOURS) {
    const asOfMs = arrival - back * 3_600_000;
    if (asOfMs < firstReceived) break;
    const state = voyageStateAt(voyage, new Date(asOfMs).toISOString());
    if (transit === null && state.departure !== null) transit = (arrival - state.departure) / 3_600_000;
    const features = state.arrived ? null : voyageFeatures(state, asOfMs);
    if (features === null || state.carrierEta === null) continue;
    const points = perBucket.get(features.bucket) ?? [];
    points.push([features.lateness, features.moved, (arrival - state.carrierEta) / 3_600_000]);
    perBucket.set(features.bucket, points);
  }
  for (const [bucket, points] of perBucket) {
    const chosen = spread(points, SAMPLES_PER_VOYAGE);
    const weight = round1(1 / chosen.length);
    const samples: EtaSample[] = chosen.map(([lateness, moved, error]) => [t, round1(lateness), round1(moved), round1(error), weight, id]);
    for (const level of ['CARRIER_LANE', 'LANE', 'CARRIER', 'ALL'] as const) {
      out.set(cellKey(level, carrier, lane, bucket), samples);
    }
  }
  if (transit !== null) out.set(cellKey('TRANSIT', carrier, lane, ''), [[t, 0, 0, round1(transit), 1, id]]);
  return out;
}

/** At most `count` items, evenly spread over the list (first and last included). */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))]!);
}

/** Canonical sample order: by arrival, then voyage, then values; the most recent last. */
function compareSamples(a: EtaSample, b: EtaSample): number {
  for (const i of [0, 5, 1, 2, 3, 4] as const) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * Folds arrived voyages into a model (a new object; the given one is not changed). A voyage folded in again
 * replaces its earlier samples. Voyages are taken in shipmentId order, so input order never matters.
 *
 * `counted`: voyages (voyageHash) already counted in `model.voyages` whose samples the model may no longer hold (a
 * cell keeps its MAX_SAMPLES most recent): a training run passes the ones it folded, so a voyage it finds twice
 * (by the event store's position and the change log's) is counted once even when its samples were cut in between.
 * The set gains the voyages folded here.
 */
export function foldVoyages(model: EtaModel, voyages: Iterable<VoyageFacts>, trainedAt: string, counted?: Set<number>): EtaModel {
  const sorted = [...voyages].sort((a, b) => (a.shipmentId < b.shipmentId ? -1 : a.shipmentId > b.shipmentId ? 1 : 0));
  const cells = new Map<string, EtaSample[]>(Object.entries(model.cells).map(([k, v]) => [k, [...v]]));
  // The voyages the model holds samples of: one of them folded in again replaces its samples and is not counted again.
  const held = new Set<number>();
  for (const samples of cells.values()) for (const s of samples) held.add(s[5]);
  let folded = 0;
  for (const voyage of sorted) {
    const samples = voyageSamples(voyage);
    if (samples.size === 0) continue;
    const id = voyageHash(voyage.shipmentId);
    if (!held.has(id) && !counted?.has(id)) folded++;
    held.add(id);
    counted?.add(id);
    for (const [key, added] of samples) {
      const kept = (cells.get(key) ?? []).filter((s) => s[5] !== id);
      cells.set(key, [...kept, ...added]);
    }
  }
  const out: Record<string, EtaSample[]> = {};
  for (const key of [...cells.keys()].sort()) {
    const samples = cells.get(key)!.sort(compareSamples);
    out[key] = samples.slice(Math.max(0, samples.length - MAX_SAMPLES));
  }
  return { format: ETA_MODEL_FORMAT, trainedAt, voyages: model.voyages + folded, cells: out };
}

/** Two models as one (for example trained on two halves of the history): every cell's samples united, cut to the most recent. */
export function mergeEtaModels(a: EtaModel, b: EtaModel, trainedAt: string): EtaModel {
  const out: Record<string, EtaSample[]> = {};
  for (const key of [...new Set([...Object.keys(a.cells), ...Object.keys(b.cells)])].sort()) {
    const samples = [...(a.cells[key] ?? []), ...(b.cells[key] ?? [])].sort(compareSamples);
    const unique = samples.filter((s, i) => i === 0 || compareSamples(s, samples[i - 1]!) !== 0);
    out[key] = unique.slice(Math.max(0, unique.length - MAX_SAMPLES));
  }
  return { format: ETA_MODEL_FORMAT, trainedAt, voyages: a.voyages + b.voyages, cells: out };
}

/** What `tracking eta train` reports: voyages learned from, lanes and carriers with a cell of their own. */
export function modelSummary(model: EtaModel): { voyages: number; lanes: number; carriers: number; cells: number } {
  const lanes = new Set<string>();
  const carriers = new Set<string>();
  for (const key of Object.keys(model.cells)) {
    const [level, carrier, lane] = key.split('|');
    if (level === 'L') lanes.add(lane!);
    if (level === 'C') carriers.add(carrier!);
  }
  return { voyages: model.voyages, lanes: lanes.size, carriers: carriers.size, cells: Object.keys(model.cells).length };
}
