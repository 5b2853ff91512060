import type { LogConfig } from 'kysely';
import { imoCheckDigit } from '../../src/domain/imo-number.js';
import { createTestApp, testConfig, type TestApp } from './app-fixture.js';
import { createTestDatabase, type TestDialect } from './databases.js';
import { containerNumber } from './fixture-bundle.js';

/**
 * A small generated history for the predicted arrival's service tests (docs/predicted-arrival.md): voyages of one
 * carrier on two lanes, each ingested as the service would have received it (the booking and the first plan, the
 * departure with a revised estimate, the actual arrival: three ingests at their own times), so the stored events
 * carry the receipt times the predictor reads. On the first lane the carrier's estimate is two days early, on the
 * second it is right; a seeded generator makes the same history on every run.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Lane {
  from: { locationName: string; UNLocationCode: string };
  to: { locationName: string; UNLocationCode: string };
  /** How late the ship arrives against the carrier's estimate, hours. */
  lateHours: number;
}

export const LANES: readonly Lane[] = [
  {
    from: { locationName: 'Rotterdam', UNLocationCode: 'NLRTM' },
    to: { locationName: 'Shanghai', UNLocationCode: 'CNSHA' },
    lateHours: 48,
  },
  { from: { locationName: 'Hamburg', UNLocationCode: 'DEHAM' }, to: { locationName: 'Singapore', UNLocationCode: 'SGSIN' }, lateHours: 0 },
];

/** One ingest of the history: a bundle and the time the service received it. */
export interface TimedBundle {
  at: Date;
  bundle: unknown;
}

/** Deterministic UUIDs, distinct per voyage and event. */
function uuid(voyage: number, n: number): string {
  return `00000000-0000-4000-a${String(voyage).padStart(3, '0')}-${n.toString(16).padStart(12, '0')}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Five vessels, each with a valid IMO number. */
function imoOf(voyage: number): string {
  const six = String(930_000 + (voyage % 5));
  return `${six}${imoCheckDigit(six)}`;
}

function transport(
  voyage: number,
  n: number,
  code: 'DEPA' | 'ARRI',
  classifier: 'PLN' | 'EST' | 'ACT',
  at: number,
  created: number,
  port: Lane['from'],
  booking: string,
) {
  return {
    eventID: uuid(voyage, n),
    eventType: 'TRANSPORT',
    eventClassifierCode: classifier,
    eventDateTime: iso(at),
    eventCreatedDateTime: iso(created),
    transportEventTypeCode: code,
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: booking }],
    transportCall: {
      transportCallID: `TC-${port.UNLocationCode}-${booking}`,
      modeOfTransport: 'VESSEL',
      facilityTypeCode: 'POTE',
      UNLocationCode: port.UNLocationCode,
      location: port,
      exportVoyageNumber: `${voyage}W`,
      importVoyageNumber: `${voyage}W`,
      vessel: { vesselName: `VESSEL ${voyage % 5}`, vesselIMONumber: imoOf(voyage) },
    },
  };
}

export function bookingOf(voyage: number): string {
  return `ETA-BKG-${String(voyage).padStart(4, '0')}`;
}

/**
 * The ingests of one voyage in the order the service receives them. `arrived: false` leaves out the arrival (a
 * voyage under way). `start` is the departure time; the carrier plans 20 days at sea and the ship takes 20 days
 * plus its lane's lateness, give or take a few hours.
 */
export function voyageBundles(voyage: number, start: number, options: { arrived: boolean; account?: string }): TimedBundle[] {
  const lane = LANES[voyage % LANES.length] as Lane;
  const booking = bookingOf(voyage);
  // A seeded jitter of up to +-6 h, the same on every run.
  const jitter = ((voyage * 7919) % 13) - 6;
  const planned = start + 20 * DAY;
  const actual = planned + (lane.lateHours + jitter) * HOUR;
  const master = {
    carrierBookingReference: booking,
    billOfLadingNumber: `ETABL${String(voyage).padStart(4, '0')}`,
    carrierCode: 'MAEU',
    carrierName: 'Maersk',
    vesselName: `VESSEL ${voyage % 5}`,
    voyageNumber: `${voyage}W`,
    portOfLoading: { locationName: lane.from.locationName, unLocationCode: lane.from.UNLocationCode },
    portOfDischarge: { locationName: lane.to.locationName, unLocationCode: lane.to.UNLocationCode },
    accounts: [options.account ?? 'acct-eta'],
    containers: [{ containerNumber: containerNumber(`MSKU${String(100_000 + voyage).padStart(6, '0')}`), isoType: '45G1' }],
  };
  const booked = start - 10 * DAY;
  const departed = start + 2 * HOUR;
  const bundles: TimedBundle[] = [
    {
      at: new Date(booked),
      bundle: {
        carrierCode: 'MAEU',
        shipments: [master],
        events: [
          transport(voyage, 1, 'DEPA', 'PLN', start, booked, lane.from, booking),
          transport(voyage, 2, 'ARRI', 'PLN', planned, booked, lane.to, booking),
        ],
      },
    },
    {
      at: new Date(departed),
      bundle: {
        carrierCode: 'MAEU',
        events: [
          transport(voyage, 3, 'DEPA', 'ACT', start, departed, lane.from, booking),
          // The carrier's estimate after departure: still the plan (the carrier's estimates lag).
          transport(voyage, 4, 'ARRI', 'EST', planned, departed, lane.to, booking),
        ],
      },
    },
  ];
  if (options.arrived) {
    bundles.push({
      at: new Date(actual + HOUR),
      bundle: { carrierCode: 'MAEU', events: [transport(voyage, 5, 'ARRI', 'ACT', actual, actual + HOUR, lane.to, booking)] },
    });
  }
  return bundles;
}

/**
 * `count` voyages that arrived, departing a day apart from `firstDeparture`, in the order the service received their
 * parts (by time), then `underWay` voyages departed two days before `now` and not arrived.
 */
export function voyageHistory(options: { count: number; underWay: number; firstDeparture: Date; now: Date }): TimedBundle[] {
  const arrived = Array.from({ length: options.count }, (_, i) =>
    voyageBundles(i, options.firstDeparture.getTime() + i * DAY, { arrived: true }),
  ).flat();
  const going = Array.from({ length: options.underWay }, (_, i) =>
    voyageBundles(options.count + i, options.now.getTime() - 2 * DAY, { arrived: false }),
  ).flat();
  return [...arrived, ...going].filter((b) => b.at.getTime() <= options.now.getTime()).sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * A test app on a fresh database of `dialect` holding a voyage history, each part ingested at its own time:
 * `arrived` voyages departing a day apart from 70 days before `now`, then one under way (bookingOf(arrived)).
 * Background training is off and the model is read at every request: the tests train when they mean to. The
 * database is the test's, not the app's (another app may share it): destroy both, `f.destroy()` then `f.t.destroy()`.
 */
export async function createVoyageHistoryApp(
  dialect: TestDialect['name'],
  options: { arrived: number; now: Date; log?: LogConfig },
): Promise<TestApp> {
  const t = await createTestDatabase(dialect, options.log ? { log: options.log } : {});
  const f = await createTestApp(dialect, {
    testDatabase: t,
    config: testConfig({ TT_ETA_TRAINING: 'false', TT_ETA_MODEL_CHECK_SECONDS: '0' }),
  });
  const history = voyageHistory({
    count: options.arrived,
    underWay: 1,
    firstDeparture: new Date(options.now.getTime() - 70 * DAY),
    now: options.now,
  });
  for (const { at, bundle } of history) await f.ingest(bundle, at);
  return f;
}
