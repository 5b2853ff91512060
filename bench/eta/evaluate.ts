import { predictArrival, updateEtaModel, type EtaModel, type PredictedArrival, type VoyageFacts } from '../../src/domain/eta/predictor.js';
import { actualArrival } from '../../src/domain/eta/voyage-state.js';
import { DAY, HOUR, type SimShipment, type World } from './world.js';

/**
 * The evaluation (bench/README.md, Predicted arrival): walk forward through the world's time. Every week the
 * model folds in the voyages whose arrival the service had received by then (each cut to what it had received
 * by then): train on the past only. Every voyage under way is predicted every 6 hours from its first event to
 * its arrival with the latest model: split by time and voyage (a voyage is never in the model that predicts it,
 * nor is any other container of its vessel, which arrives with it), never by container.
 */

/** Horizon buckets before the actual arrival, as the issue prints them. */
export const BUCKETS = [
  { name: '>14 d', from: 14 * 24, to: Infinity },
  { name: '7-14 d', from: 7 * 24, to: 14 * 24 },
  { name: '3-7 d', from: 3 * 24, to: 7 * 24 },
  { name: '1-3 d', from: 24, to: 3 * 24 },
  { name: '<1 d', from: 0, to: 24 },
] as const;

export interface Point {
  bucket: number;
  ours: number;
  carrier: number;
  covered: boolean;
  widthHours: number;
  basis: PredictedArrival['basis'];
  after: boolean;
  thin: boolean;
}

export interface Evaluation {
  points: Point[];
  /** Per voyage that arrived a day or more later than first planned: hours the prediction said so before the carrier. */
  leads: number[];
  /** Share of voyages that arrived less than 12 h late whose prediction (resp. the carrier) said a day late or more, a day or more ahead. */
  falseAlarms: { ours: number; carrier: number; voyages: number };
  models: number;
  trainedVoyages: number;
}

const STEP = 6 * HOUR;
const WEEK = 7 * DAY;
/** Predictions are scored from this many days into the world on (the first months only train). */
export const WARMUP_DAYS = 120;

/** The voyage as the service knew it at `at`: the events received by then. */
function knownBy(facts: VoyageFacts, at: number): VoyageFacts {
  const keep: number[] = [];
  facts.receivedAt.forEach((r, i) => {
    if (Date.parse(r) <= at) keep.push(i);
  });
  return { ...facts, events: keep.map((i) => facts.events[i]!), receivedAt: keep.map((i) => facts.receivedAt[i]!) };
}

/** When the service received the voyage's actual arrival at its port of discharge (its first version), epoch ms. */
function arrivalReceived(facts: VoyageFacts): number | null {
  let first: number | null = null;
  facts.events.forEach((e, i) => {
    if (e.eventType !== 'TRANSPORT' || e.eventClassifierCode !== 'ACT' || e.transportEventTypeCode !== 'ARRI') return;
    if (e.transportCall.unLocationCode !== facts.portOfDischarge) return;
    const r = Date.parse(facts.receivedAt[i]!);
    if (first === null || r < first) first = r;
  });
  return first;
}

export function evaluate(
  world: World,
  shipments: readonly SimShipment[],
  facts: readonly VoyageFacts[],
  training: readonly VoyageFacts[],
): Evaluation {
  const end = world.start + world.options.days * DAY;
  const warmup = world.start + WARMUP_DAYS * DAY;

  // The weekly models.
  const pending = training
    .map((f) => ({ f, received: arrivalReceived(f) }))
    .filter((x): x is { f: VoyageFacts; received: number } => x.received !== null && actualArrival(x.f) !== null)
    .sort((a, b) => a.received - b.received);
  const models: Array<{ at: number; model: EtaModel | null }> = [];
  let model: EtaModel | null = null;
  let next = 0;
  for (let at = world.start; at <= end + 60 * DAY; at += WEEK) {
    const batch: VoyageFacts[] = [];
    while (next < pending.length && pending[next]!.received <= at) batch.push(knownBy(pending[next++]!.f, at));
    if (batch.length > 0)
      model = updateEtaModel(model ?? { format: 1, trainedAt: '', voyages: 0, cells: {} }, batch, new Date(at).toISOString());
    models.push({ at, model });
  }
  const modelAt = (t: number) => models[Math.max(0, Math.floor((t - world.start) / WEEK))]?.model ?? null;

  const points: Point[] = [];
  const leads: number[] = [];
  let falseOurs = 0;
  let falseCarrier = 0;
  let onTime = 0;
  shipments.forEach((shipment, index) => {
    const voyage = facts[index]!;
    const firstReceived = Math.min(...voyage.receivedAt.map((r) => Date.parse(r)));
    if (firstReceived < warmup || shipment.arrival > end) return;
    const planned = shipment.plannedArrival;
    let oursWarned: number | null = null;
    let carrierWarned: number | null = null;
    const first = Math.ceil(firstReceived / STEP) * STEP;
    for (let t = first; t < shipment.arrival; t += STEP) {
      const asOf = new Date(t).toISOString();
      const p = predictArrival(modelAt(t), voyage, asOf);
      if (!p || p.carrierEstimatedDateTime === null || p.basis === 'ACTUAL') continue;
      const est = Date.parse(p.estimatedDateTime);
      const carrierEta = Date.parse(p.carrierEstimatedDateTime);
      if (oursWarned === null && est - planned >= DAY) oursWarned = t;
      if (carrierWarned === null && carrierEta - planned >= DAY) carrierWarned = t;
      const horizon = (shipment.arrival - t) / HOUR;
      const bucket = BUCKETS.findIndex((b) => horizon >= b.from && horizon < b.to);
      points.push({
        bucket,
        ours: Math.abs(est - shipment.arrival) / HOUR,
        carrier: Math.abs(carrierEta - shipment.arrival) / HOUR,
        covered: Date.parse(p.earliestDateTime) <= shipment.arrival && shipment.arrival <= Date.parse(p.latestDateTime),
        widthHours: (Date.parse(p.latestDateTime) - Date.parse(p.earliestDateTime)) / HOUR,
        basis: p.basis,
        after: t >= world.regimeChange,
        thin: shipment.lane.thin,
      });
    }
    const lateness = shipment.arrival - planned;
    if (lateness >= DAY) {
      // The carrier that never said so before the arrival said so at the arrival.
      const carrierAt = carrierWarned ?? shipment.arrival;
      const oursAt = oursWarned ?? shipment.arrival;
      leads.push((carrierAt - oursAt) / HOUR);
    } else if (lateness < 12 * HOUR) {
      onTime++;
      if (oursWarned !== null && oursWarned < shipment.arrival - DAY) falseOurs++;
      if (carrierWarned !== null && carrierWarned < shipment.arrival - DAY) falseCarrier++;
    }
  });
  return {
    points,
    leads,
    falseAlarms: { ours: falseOurs / Math.max(1, onTime), carrier: falseCarrier / Math.max(1, onTime), voyages: onTime },
    models: models.length,
    trainedVoyages: pending.length,
  };
}

export interface BucketFigures {
  n: number;
  maeOurs: number;
  maeCarrier: number;
  p90Ours: number;
  p90Carrier: number;
  skill: number;
  coverage: number;
  width: number;
}

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
export const median = (xs: number[]) => quantile(xs, 0.5);
const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((s, x) => s + x, 0) / xs.length);

export function figures(points: readonly Point[]): BucketFigures[] {
  return BUCKETS.map((_, bucket) => {
    const ps = points.filter((p) => p.bucket === bucket);
    const maeOurs = mean(ps.map((p) => p.ours));
    const maeCarrier = mean(ps.map((p) => p.carrier));
    return {
      n: ps.length,
      maeOurs,
      maeCarrier,
      p90Ours: quantile(
        ps.map((p) => p.ours),
        0.9,
      ),
      p90Carrier: quantile(
        ps.map((p) => p.carrier),
        0.9,
      ),
      skill: 1 - maeOurs / maeCarrier,
      coverage: mean(ps.map((p) => (p.covered ? 1 : 0))),
      width: mean(ps.map((p) => p.widthHours)),
    };
  });
}
