import { ETA_BASES, type EtaBasis, type PredictedArrival } from '../../domain/eta/predictor.js';
import { builder } from '../builder.js';

/**
 * The service's own arrival estimate (docs/predicted-arrival.md): learned from the service's history of what
 * carriers predicted and when ships arrived. It is not the carrier's word: `ShipmentTracking.eta` is.
 */

const BASIS_DESCRIPTIONS: Record<EtaBasis, string> = {
  CARRIER_LANE: "The carrier's ETA corrected by the history of this carrier on this lane (port of loading to port of discharge).",
  LANE: "The carrier's ETA corrected by the history of this lane, all carriers together (too few voyages of this carrier on it).",
  CARRIER: "The carrier's ETA corrected by the history of this carrier on all its lanes (too few voyages on this lane).",
  TRANSIT: "No carrier ETA yet: the departure plus this lane's transit times.",
  CARRIER_ETA_ONLY: "No usable history: the carrier's ETA itself, with a wide interval.",
  ACTUAL: 'The vessel has arrived: the actual arrival, no interval.',
};

export const EtaBasisEnum = builder.enumType('EtaBasis', {
  description: 'What a predicted arrival was learned from (docs/predicted-arrival.md, Basis).',
  values: Object.fromEntries(ETA_BASES.map((name) => [name, { description: BASIS_DESCRIPTIONS[name] }])) as Record<
    EtaBasis,
    { description: string }
  >,
});

export const PredictedArrivalType = builder.objectRef<PredictedArrival>('PredictedArrival').implement({
  description:
    "The service's own estimate of the arrival at the port of discharge, with an interval; learned from the service's history, " +
    "not the carrier's word (that is ShipmentTracking.eta).",
  fields: (t) => ({
    estimatedDateTime: t.field({
      type: 'DateTime',
      description: 'The predicted arrival at the port of discharge.',
      resolve: (p) => p.estimatedDateTime,
    }),
    earliestDateTime: t.field({
      type: 'DateTime',
      description: 'The start of the interval that holds the arrival with the share `coverage`.',
      resolve: (p) => p.earliestDateTime,
    }),
    latestDateTime: t.field({
      type: 'DateTime',
      description: 'The end of the interval that holds the arrival with the share `coverage`.',
      resolve: (p) => p.latestDateTime,
    }),
    coverage: t.float({
      description: "The interval's nominal share of arrivals it holds (0.8: four arrivals in five fall within it).",
      resolve: (p) => p.coverage,
    }),
    basis: t.field({ type: EtaBasisEnum, description: 'What the prediction was learned from.', resolve: (p) => p.basis }),
    sampleSize: t.int({
      description: 'How many past voyages the correction learned from (0 for CARRIER_ETA_ONLY).',
      resolve: (p) => p.sampleSize,
    }),
    trainedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the model was trained; null without a model.',
      resolve: (p) => p.trainedAt,
    }),
  }),
});
