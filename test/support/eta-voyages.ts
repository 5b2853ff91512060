import type { VoyageFacts } from '../../src/domain/eta/predictor.js';
import type { TrackingEvent } from '../../src/domain/types.js';
import { at, transportEvent, VESSELS } from './event-builders.js';

/**
 * Small generated voyage histories for the predictor's tests (test/eta-*.test.ts): a carrier that plans a
 * departure and an arrival, departs late, moves its ETA only part of the way and late, and arrives later
 * still. Seeded (mulberry32), so a failing case can be replayed from its seed.
 */

export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedVoyage {
  facts: VoyageFacts;
  /** The actual arrival at the port of discharge, ISO. */
  arrival: string;
}

const LANES = [
  ['CNSHA', 'NLRTM'],
  ['CNSHA', 'DEHAM'],
  ['SGSIN', 'NLRTM'],
] as const;

/** The carrier booking reference of generated voyage `index` (its events carry it, to link to its shipment). */
export const bookingOf = (index: number) => `MAEU49${String(index).padStart(6, '0')}`;

/** One voyage: departs `startHours` after T0, ~30 days at sea; every event received a few hours after it was created. */
export function generateVoyage(random: () => number, index: number, startHours: number, carrierCode = 'MAEU'): GeneratedVoyage {
  const [pol, pod] = LANES[index % LANES.length]!;
  const vessel = VESSELS.ALPHA;
  const voyage = `${100 + index}W`;
  const planDep = startHours;
  const planArr = planDep + 30 * 24;
  const depDelay = Math.round(random() * 72);
  const extra = Math.round(random() * 96);
  const actualDep = planDep + depDelay;
  const actualArr = planArr + depDelay + extra;
  const booked = planDep - 10 * 24;
  const events: TrackingEvent[] = [];
  const receivedAt: string[] = [];
  const push = (event: TrackingEvent, lagHours: number) => {
    events.push(event);
    receivedAt.push(at(lagHours, event.eventCreatedDateTime));
  };
  const call = { vessel, voyage, booking: bookingOf(index) };
  push(transportEvent({ ...call, port: pol, type: 'DEPA', classifier: 'PLN', eventDateTime: at(planDep), created: at(booked) }), 1);
  push(transportEvent({ ...call, port: pod, type: 'ARRI', classifier: 'PLN', eventDateTime: at(planArr), created: at(booked) }), 1);
  push(
    transportEvent({ ...call, port: pol, type: 'DEPA', classifier: 'ACT', eventDateTime: at(actualDep), created: at(actualDep + 2) }),
    3,
  );
  // The carrier's ETA: moved by half the departure delay three days later, then to the truth two days out.
  const revisions: Array<[number, number]> = [
    [actualDep + 72, planArr + Math.round(depDelay / 2)],
    [actualArr - 48, actualArr - Math.round(random() * 12)],
  ];
  for (const [created, eta] of revisions) {
    push(transportEvent({ ...call, port: pod, type: 'ARRI', classifier: 'EST', eventDateTime: at(eta), created: at(created) }), 2);
  }
  push(
    transportEvent({ ...call, port: pod, type: 'ARRI', classifier: 'ACT', eventDateTime: at(actualArr), created: at(actualArr + 1) }),
    2,
  );
  return {
    facts: {
      shipmentId: `S${index}`,
      carrierCode,
      portOfLoading: pol,
      portOfDischarge: pod,
      vesselKey: `${vessel.vesselIMONumber}/${voyage}`,
      events,
      receivedAt,
    },
    arrival: at(actualArr),
  };
}

/** `count` voyages departing a day apart from T0, from one seed. */
export function generateHistory(seed: number, count: number): GeneratedVoyage[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => generateVoyage(random, i, i * 24));
}
