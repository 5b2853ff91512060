import { validate as isUuid } from 'uuid';
import { describe, expect, it } from 'vitest';
import { buildSandboxBundle, SANDBOX_ACCOUNT, SANDBOX_OTHER_ACCOUNT } from '../db/sandbox-bundle.js';
import { isValidContainerNumber } from '../src/domain/container-number.js';
import { exceptionsFromFacts } from '../src/domain/exception-lifecycle.js';
import { explainInvalidImoNumber } from '../src/domain/imo-number.js';
import type { TrackingEvent, TrackingException } from '../src/domain/types.js';
import type { IngestBundle, ShipmentInput } from '../src/domain/bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { DEFAULT_THRESHOLDS } from './support/exception-engine-fixtures.js';

/**
 * The sandbox seed, run through the real bundle parser and the exception
 * engine: it must parse, and its shipments must show every exception type
 * both DETECTED and RESOLVED, whatever instant the sandbox is started at.
 */

function parsed(now: Date): IngestBundle[] {
  return buildSandboxBundle(now).map((raw, i) => {
    const result = parseBundle(raw);
    if (!result.ok) throw new Error(`bundle ${i}: ${result.issues.map((x) => `${x.path}: ${x.message}`).join('; ')}`);
    return result.bundle;
  });
}

/**
 * Links events to a shipment the way ingest does (docs/architecture.md, Ingest bundle): same
 * carrier, and a booking / bill of lading reference or, for equipment
 * events, the container number, so a reused box links both shipments.
 */
function linkedEvents(shipment: ShipmentInput, bundles: IngestBundle[]): TrackingEvent[] {
  const containers = new Set(shipment.containers.map((c) => c.containerNumber));
  const matches = (type: string, value: string) =>
    (type === 'BKG' && value === shipment.carrierBookingReference) || (type === 'TRD' && value === shipment.billOfLadingNumber);
  return bundles
    .filter((b) => b.carrierCode === shipment.carrierCode)
    .flatMap((b) => b.events)
    .filter(
      (e) =>
        (e.eventType === 'SHIPMENT' && matches(e.documentTypeCode, e.documentID)) ||
        (e.documentReferences ?? []).some((r) => matches(r.documentReferenceType, r.documentReferenceValue)) ||
        (e.eventType === 'EQUIPMENT' && containers.has(e.equipmentReference)),
    );
}

function evaluateAll(now: Date): Map<string, TrackingException[]> {
  const bundles = parsed(now);
  const out = new Map<string, TrackingException[]>();
  for (const shipment of bundles.flatMap((b) => b.shipments)) {
    out.set(
      `${shipment.carrierCode} ${shipment.carrierBookingReference}`,
      exceptionsFromFacts({
        shipment,
        containers: shipment.containers,
        events: linkedEvents(shipment, bundles),
        now: now.toISOString(),
        thresholds: DEFAULT_THRESHOLDS,
      }),
    );
  }
  return out;
}

const summary = (list: TrackingException[]) =>
  list.map((e) => `${e.exceptionType} ${e.status}${e.resolutionType ? ` ${e.resolutionType}` : ''} ${e.severity}`).sort();

/** What each story of db/sandbox-bundle.ts must show. */
const EXPECTED: Record<string, string[]> = {
  'MAEU 262150001': ['ETA_DELAY DETECTED CRITICAL', 'MISSED_CONNECTION RESOLVED REBOOKED CRITICAL'],
  'MAEU 262150002': [
    'DEMURRAGE_RISK DETECTED WARNING',
    'DEMURRAGE_RISK RESOLVED EVENT_ACTUALIZED WARNING',
    'DETENTION_RISK DETECTED CRITICAL',
    'ETA_DELAY RESOLVED EVENT_ACTUALIZED CRITICAL',
  ],
  'MAEU 262150003': ['ROLLOVER DETECTED CRITICAL', 'ROLLOVER RESOLVED REBOOKED CRITICAL'],
  'MAEU 261900004': ['DETENTION_RISK RESOLVED EVENT_ACTUALIZED CRITICAL'],
  'MAEU 262150005': [],
  'CMDU CNSHA2600451': ['MISSED_CONNECTION DETECTED CRITICAL'],
  'CMDU KRPUS2600087': ['ETA_DELAY RESOLVED SCHEDULE_RECOVERED WARNING'],
};

const STARTS = [
  new Date('2026-06-15T10:37:12.345Z'),
  new Date('2026-01-01T00:00:00.000Z'),
  new Date('2027-03-28T23:59:59.999Z'),
  new Date(),
];

describe('sandbox bundle', () => {
  it('parses, one bundle per carrier, every shipment with its carrier name', () => {
    const bundles = parsed(STARTS[0] as Date);
    expect(bundles.map((b) => b.carrierCode)).toEqual(['MAEU', 'CMDU']);
    for (const b of bundles) {
      expect(b.shipments.length).toBeGreaterThan(0);
      for (const s of b.shipments) {
        expect(s.carrierCode).toBe(b.carrierCode);
        expect(s.carrierName).toBeTruthy();
      }
    }
  });

  it.each(STARTS)('shows every exception type DETECTED and RESOLVED (started at %s)', (now) => {
    const byShipment = evaluateAll(now);
    expect(Object.fromEntries([...byShipment].map(([key, list]) => [key, summary(list)]))).toEqual(EXPECTED);
    const all = [...byShipment.values()].flat();
    for (const type of ['ETA_DELAY', 'ROLLOVER', 'MISSED_CONNECTION', 'DEMURRAGE_RISK', 'DETENTION_RISK']) {
      expect(
        all.some((e) => e.exceptionType === type && e.status === 'DETECTED'),
        `${type} DETECTED`,
      ).toBe(true);
      expect(
        all.some((e) => e.exceptionType === type && e.status === 'RESOLVED'),
        `${type} RESOLVED`,
      ).toBe(true);
    }
  });

  it('keeps every event in the past of now and uses all three classifiers', () => {
    const now = STARTS[0] as Date;
    const events = parsed(now).flatMap((b) => b.events);
    for (const e of events) expect(e.eventCreatedDateTime <= now.toISOString()).toBe(true);
    expect(new Set(events.map((e) => e.eventClassifierCode))).toEqual(new Set(['PLN', 'EST', 'ACT']));
    expect(new Set(events.map((e) => e.eventType))).toEqual(new Set(['SHIPMENT', 'TRANSPORT', 'EQUIPMENT']));
  });

  it('uses both location spellings and timestamps with UTC offsets', () => {
    const raw = JSON.stringify(buildSandboxBundle(STARTS[0] as Date));
    expect(raw).toContain('"UNLocationCode"');
    expect(raw).toContain('"unLocationCode"');
    expect(raw).toMatch(/"eventDateTime":"[^"]+\+08:00"/);
  });

  it('has deterministic UUID event IDs, independent of the start time (idempotent reseed)', () => {
    const ids = (now: Date) => parsed(now).flatMap((b) => b.events.map((e) => e.eventID));
    const first = ids(STARTS[0] as Date);
    expect(new Set(first).size).toBe(first.length);
    for (const id of first) expect(isUuid(id)).toBe(true);
    expect(ids(STARTS[1] as Date)).toEqual(first);
    expect(buildSandboxBundle(STARTS[0] as Date)).toEqual(buildSandboxBundle(STARTS[0] as Date));
  });

  it('has valid container and IMO numbers, and a container reused by an old and a current shipment', () => {
    const bundles = parsed(STARTS[0] as Date);
    const events = bundles.flatMap((b) => b.events);
    const shipments = bundles.flatMap((b) => b.shipments);
    for (const c of shipments.flatMap((s) => s.containers)) expect(isValidContainerNumber(c.containerNumber)).toBe(true);
    for (const e of events) {
      const vessel = e.eventType === 'SHIPMENT' ? undefined : e.transportCall?.vessel;
      if (vessel) expect(explainInvalidImoNumber(vessel.vesselIMONumber)).toBeNull();
    }
    const holders = shipments.filter((s) => s.containers.some((c) => c.containerNumber === 'MSKU1357908'));
    expect(holders.map((s) => s.carrierBookingReference).sort()).toEqual(['261900004', '262150005']);
  });

  it('gives one shipment to other-account and the rest to demo-account', () => {
    const shipments = parsed(STARTS[0] as Date).flatMap((b) => b.shipments);
    expect(shipments.filter((s) => s.accounts.includes(SANDBOX_OTHER_ACCOUNT))).toHaveLength(1);
    expect(shipments.filter((s) => s.accounts.includes(SANDBOX_ACCOUNT))).toHaveLength(shipments.length - 1);
  });
});
