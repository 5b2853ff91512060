import { describe, expect, it } from 'vitest';
import { deriveShipment } from '../src/domain/shipment-from-events.js';
import { planNextFetch, shipmentProgress, type CadencePolicy, type FetchState } from '../src/domain/tracking-cadence.js';
import { checkTrackingReference, recogniseCarrier } from '../src/domain/tracking-reference.js';
import type { EquipmentEvent, ShipmentEvent, TrackingEvent, TransportEvent } from '../src/domain/types.js';

/** The pure rules of tracking requests (docs/tracking-requests.md): references, cadence, shipments from events. */

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const POLICY: CadencePolicy = { minMs: 5 * MIN, maxMs: 6 * HOUR, giveUpMs: 72 * HOUR, completeAfterMs: 14 * DAY, idleGiveUpMs: 60 * DAY };
const NOW = new Date('2026-11-25T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const inFuture = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

function state(overrides: Partial<FetchState> = {}): FetchState {
  return {
    status: 'TRACKING',
    requestedAt: ago(30 * DAY),
    nextMilestoneAt: null,
    arrivedAt: null,
    lastChangeAt: ago(10 * DAY),
    consecutiveFailures: 0,
    retryAfterMs: null,
    ...overrides,
  };
}
const delay = (s: FetchState) => {
  const plan = planNextFetch(s, POLICY, NOW);
  if (plan.kind !== 'again') throw new Error(`expected another fetch, got ${plan.kind}`);
  return plan.delayMs;
};

describe('the fetch cadence', () => {
  it('fetches as often as allowed near a due milestone, rarely when idle', () => {
    const near = delay(state({ nextMilestoneAt: inFuture(6 * HOUR) }));
    const overdue = delay(state({ nextMilestoneAt: ago(2 * HOUR) }));
    const week = delay(state({ nextMilestoneAt: inFuture(7 * DAY) }));
    const idle = delay(state());
    expect(near).toBe(POLICY.minMs);
    expect(overdue).toBe(POLICY.minMs);
    expect(week).toBeGreaterThan(near);
    expect(idle).toBe(POLICY.maxMs);
    // A milestone long overdue that the carrier never reported: idle again.
    expect(delay(state({ nextMilestoneAt: ago(3 * DAY) }))).toBe(POLICY.maxMs);
    expect(week).toBeLessThanOrEqual(idle);
  });

  it('fetches more often right after a change', () => {
    expect(delay(state({ lastChangeAt: ago(10 * MIN) }))).toBeLessThan(delay(state()));
  });

  it('asks for an unknown reference often at first, then less and less, then gives up', () => {
    const fresh = delay(state({ status: 'PENDING', requestedAt: ago(MIN), lastChangeAt: null }));
    const day = delay(state({ status: 'AWAITING_CARRIER_DATA', requestedAt: ago(DAY), lastChangeAt: null }));
    expect(fresh).toBe(POLICY.minMs);
    expect(day).toBeGreaterThan(fresh);
    const late = planNextFetch(state({ status: 'AWAITING_CARRIER_DATA', requestedAt: ago(73 * HOUR), lastChangeAt: null }), POLICY, NOW);
    expect(late).toMatchObject({ kind: 'fail' });
    expect(late.kind === 'fail' && late.reason).toMatch(/within 72 h/);
  });

  it('backs off after failures and never asks before the carrier’s Retry-After', () => {
    const one = delay(state({ nextMilestoneAt: inFuture(HOUR), consecutiveFailures: 1 }));
    const three = delay(state({ nextMilestoneAt: inFuture(HOUR), consecutiveFailures: 3 }));
    expect(three).toBeGreaterThan(one);
    expect(delay(state({ consecutiveFailures: 1, retryAfterMs: 2 * HOUR }))).toBeGreaterThanOrEqual(2 * HOUR);
  });

  it('stops an arrived shipment once it is quiet (COMPLETED), a silent one much later (GIVEN_UP)', () => {
    expect(planNextFetch(state({ arrivedAt: ago(20 * DAY), lastChangeAt: ago(15 * DAY) }), POLICY, NOW)).toEqual({
      kind: 'stop',
      stopReason: 'COMPLETED',
    });
    expect(planNextFetch(state({ arrivedAt: ago(20 * DAY), lastChangeAt: ago(2 * DAY) }), POLICY, NOW).kind).toBe('again');
    expect(planNextFetch(state({ lastChangeAt: ago(61 * DAY) }), POLICY, NOW)).toEqual({ kind: 'stop', stopReason: 'GIVEN_UP' });
  });
});

const docs = [
  { documentReferenceType: 'BKG', documentReferenceValue: 'BKG1' },
  { documentReferenceType: 'TRD', documentReferenceValue: 'BL1' },
];
const vessel = { vesselIMONumber: '9321483', vesselName: 'MAERSK ESSEN' };
function transport(id: string, code: 'ARRI' | 'DEPA', port: string, classifier: 'PLN' | 'EST' | 'ACT', at: string): TransportEvent {
  return {
    eventID: id,
    eventType: 'TRANSPORT',
    eventClassifierCode: classifier,
    eventDateTime: at,
    eventCreatedDateTime: '2026-11-01T00:00:00.000Z',
    transportEventTypeCode: code,
    transportCall: { transportCallID: `${port}-1`, unLocationCode: port, modeOfTransport: 'VESSEL', vessel, exportVoyageNumber: '401E' },
    documentReferences: docs,
  };
}
const load: EquipmentEvent = {
  eventID: 'e3',
  eventType: 'EQUIPMENT',
  eventClassifierCode: 'ACT',
  eventDateTime: '2026-11-05T00:00:00.000Z',
  eventCreatedDateTime: '2026-11-05T00:00:00.000Z',
  equipmentEventTypeCode: 'LOAD',
  equipmentReference: 'MSKU1234565',
  emptyIndicatorCode: 'LADEN',
  documentReferences: docs,
};
const booked: ShipmentEvent = {
  eventID: 'e4',
  eventType: 'SHIPMENT',
  eventClassifierCode: 'ACT',
  eventDateTime: '2026-10-30T00:00:00.000Z',
  eventCreatedDateTime: '2026-10-30T00:00:00.000Z',
  shipmentEventTypeCode: 'CONF',
  documentTypeCode: 'BKG',
  documentID: 'BKG1',
};
const EVENTS: TrackingEvent[] = [
  booked,
  transport('e1', 'DEPA', 'NLRTM', 'PLN', '2026-11-06T00:00:00.000Z'),
  transport('e2', 'ARRI', 'SGSIN', 'PLN', '2026-12-01T00:00:00.000Z'),
  load,
];

describe('a shipment from its events alone', () => {
  it('takes the booking, bill of lading, ports, vessel and containers from the events', () => {
    expect(deriveShipment('MAEU', { kind: 'TRD', reference: 'BL1' }, EVENTS)).toEqual({
      carrierCode: 'MAEU',
      carrierBookingReference: 'BKG1',
      billOfLadingNumber: 'BL1',
      vesselName: 'MAERSK ESSEN',
      voyageNumber: '401E',
      portOfLoading: { unLocationCode: 'NLRTM' },
      portOfDischarge: { unLocationCode: 'SGSIN' },
      containers: ['MSKU1234565'],
      updatedDateTime: '1970-01-01T00:00:04.000Z',
    });
  });

  it('keeps the identity of a stored shipment, and states less than any bundle', () => {
    const derived = deriveShipment('MAEU', { kind: 'EQ', reference: 'MSKU1234565' }, EVENTS, 'KNOWN');
    expect(derived?.carrierBookingReference).toBe('KNOWN');
    expect(derived && derived.updatedDateTime < '2000-01-01T00:00:00.000Z').toBe(true);
    // More events: a later statement than the one before.
    const more = deriveShipment('MAEU', { kind: 'TRD', reference: 'BL1' }, [
      ...EVENTS,
      transport('e5', 'ARRI', 'SGSIN', 'EST', '2026-12-03T00:00:00.000Z'),
    ]);
    expect(more && more.updatedDateTime > '1970-01-01T00:00:04.000Z').toBe(true);
  });

  it('lets the tracked reference stand in for a booking the events do not name', () => {
    const bare = EVENTS.filter((e) => e.eventType === 'TRANSPORT').map((e) => ({ ...e, documentReferences: [] }));
    expect(deriveShipment('MAEU', { kind: 'TRD', reference: 'BL1' }, bare)?.carrierBookingReference).toBe('BL1');
    expect(deriveShipment('MAEU', { kind: 'TRD', reference: 'BL1' }, [])).toBeNull();
  });

  it('knows the next milestone due and the arrival', () => {
    const now = new Date('2026-11-05T12:00:00.000Z');
    expect(shipmentProgress(EVENTS, 'SGSIN', now)).toEqual({ nextMilestoneAt: '2026-11-06T00:00:00.000Z', arrivedAt: null });
    const arrived = [...EVENTS, transport('e6', 'ARRI', 'SGSIN', 'ACT', '2026-12-02T00:00:00.000Z')];
    expect(shipmentProgress(arrived, 'SGSIN', new Date('2026-12-10T00:00:00.000Z')).arrivedAt).toBe('2026-12-02T00:00:00.000Z');
  });
});

describe('what a tracking request names', () => {
  it('takes exactly one reference, a booking only with its carrier, a valid container number', () => {
    expect(checkTrackingReference({ transportDocumentReference: 'MAEU262150002' })).toEqual({
      ok: true,
      value: { kind: 'TRD', reference: 'MAEU262150002', carrierCode: null },
    });
    expect(checkTrackingReference({})).toMatchObject({ ok: false });
    expect(checkTrackingReference({ transportDocumentReference: 'A', equipmentReference: 'MSKU1234565' })).toMatchObject({ ok: false });
    expect(checkTrackingReference({ carrierBookingReference: '262150001' })).toMatchObject({ ok: false, field: 'carrierCode' });
    expect(checkTrackingReference({ equipmentReference: 'MSKU1234566' })).toMatchObject({ ok: false, field: 'equipmentReference' });
    expect(checkTrackingReference({ transportDocumentReference: ' MAEU1' })).toMatchObject({ ok: false });
    expect(checkTrackingReference({ transportDocumentReference: 'MAEU1', carrierCode: 'maeu' })).toMatchObject({
      ok: false,
      field: 'carrierCode',
    });
  });

  it('recognises the carrier by the longest prefix, and names the candidates when it cannot', () => {
    const carriers = [
      { carrierCode: 'MAEU', prefixes: ['MAEU', 'MSKU'] },
      { carrierCode: 'MSCU', prefixes: ['MSC', 'MEDU'] },
      { carrierCode: 'ZIMU', prefixes: ['MSKU'] },
    ];
    expect(recogniseCarrier('MAEU262150002', carriers)).toEqual({ ok: true, carrierCode: 'MAEU' });
    expect(recogniseCarrier('MSCU1234', carriers)).toEqual({ ok: true, carrierCode: 'MSCU' });
    expect(recogniseCarrier('MSKU1234565', carriers)).toMatchObject({ ok: false, candidates: ['MAEU', 'ZIMU'] });
    expect(recogniseCarrier('HLCU1', carriers)).toMatchObject({ ok: false, candidates: [] });
  });
});
