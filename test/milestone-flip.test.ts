import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';

/**
 * Spec section 6: pollers detect that a milestone happened by its
 * eventClassifierCode flipping to ACT. For every kind of event, a planned
 * milestone and its actual must be one milestone in the snapshot, whatever
 * the actual adds (terminal, import voyage, laden flag), so the flip is seen.
 * Events are in DCSA 2.2 spelling, as carriers publish them.
 */

const BOOKING = 'FLIP-1';
const BL = 'FLIPBL1';
const BOX = 'MSKU1234565';
const ACCOUNT = 'acct-flip';

let n = 0;
const id = () => `f1100000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const refs = [{ documentReferenceType: 'BKG', documentReferenceValue: BOOKING }];

/** A vessel call at Rotterdam; the ACT version adds the terminal and the import voyage. */
function vesselCall(actual: boolean) {
  return {
    transportCallID: 'TC-NLRTM-ALPHA-610W',
    UNLocationCode: 'NLRTM',
    modeOfTransport: 'VESSEL',
    facilityTypeCode: 'POTE',
    exportVoyageNumber: '610W',
    ...(actual ? { importVoyageNumber: '610E', facilityCode: 'ECTDE', facilityCodeListProvider: 'SMDG' } : {}),
    vessel: { vesselIMONumber: '9321483', vesselName: 'MAERSK ALPHA' },
  };
}

type Classifier = 'PLN' | 'ACT';
const KINDS: { name: string; list: 'shipmentEvents' | 'transportEvents' | 'eventHistory'; event: (c: Classifier) => object }[] = [
  ...(['CONF', 'ISSU'] as const).map((code) => ({
    name: `SHIPMENT ${code}`,
    list: 'shipmentEvents' as const,
    event: (c: Classifier) => ({
      eventType: 'SHIPMENT',
      shipmentEventTypeCode: code,
      documentTypeCode: code === 'CONF' ? 'BKG' : 'TRD',
      documentID: code === 'CONF' ? BOOKING : BL,
      eventDateTime: c === 'PLN' ? '2026-05-01T10:00:00+02:00' : '2026-05-01T11:30:00+02:00',
    }),
  })),
  ...(['ARRI', 'DEPA'] as const).map((code) => ({
    name: `TRANSPORT ${code}`,
    list: 'transportEvents' as const,
    event: (c: Classifier) => ({
      eventType: 'TRANSPORT',
      transportEventTypeCode: code,
      documentReferences: refs,
      transportCall: vesselCall(c === 'ACT'),
      eventDateTime: c === 'PLN' ? '2026-05-10T06:00:00+02:00' : '2026-05-10T09:15:00+02:00',
    }),
  })),
  ...(['LOAD', 'DISC'] as const).map((code) => ({
    name: `EQUIPMENT ${code}`,
    list: 'eventHistory' as const,
    event: (c: Classifier) => ({
      eventType: 'EQUIPMENT',
      equipmentEventTypeCode: code,
      equipmentReference: BOX,
      emptyIndicatorCode: 'LADEN',
      documentReferences: refs,
      transportCall: vesselCall(c === 'ACT'),
      eventDateTime: c === 'PLN' ? '2026-05-10T12:00:00+02:00' : '2026-05-10T13:40:00+02:00',
    }),
  })),
  ...(['GTOT', 'GTIN'] as const).map((code) => ({
    name: `EQUIPMENT ${code}`,
    list: 'eventHistory' as const,
    event: (c: Classifier) => ({
      eventType: 'EQUIPMENT',
      equipmentEventTypeCode: code,
      equipmentReference: BOX,
      // Planned to move empty, reported laden: still one milestone.
      emptyIndicatorCode: c === 'PLN' ? 'EMPTY' : 'LADEN',
      documentReferences: refs,
      eventLocation: { locationName: 'Duisburg', UNLocationCode: 'DEDUI' },
      eventDateTime: c === 'PLN' ? '2026-05-20T08:00:00+02:00' : '2026-05-20T10:05:00+02:00',
    }),
  })),
];

describe.each(dialects)('a PLN milestone flips to ACT in the snapshot on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    ({ token } = await f.tokenFor(ACCOUNT));
    await f.ingest({
      carrierCode: 'MAEU',
      shipments: [
        {
          carrierBookingReference: BOOKING,
          billOfLadingNumber: BL,
          carrierCode: 'MAEU',
          portOfLoading: { UNLocationCode: 'CNSHA' },
          portOfDischarge: { UNLocationCode: 'NLRTM' },
          accounts: [ACCOUNT],
          containers: [{ containerNumber: BOX }],
        },
      ],
    });
  });
  afterAll(async () => f?.destroy());

  async function milestones(list: (typeof KINDS)[number]['list'], predicate: (e: any) => boolean) {
    const response = await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token);
    expect(response.status).toBe(200);
    const tracking = ((await response.json()) as any).shipmentTracking;
    const events = list === 'eventHistory' ? tracking.containers[0].eventHistory : tracking[list];
    return (events as any[]).filter(predicate);
  }

  it.skipIf(!enabled).each(KINDS)('$name', async ({ list, event }) => {
    const planned = { eventID: id(), eventClassifierCode: 'PLN', eventCreatedDateTime: '2026-04-01T00:00:00Z', ...event('PLN') };
    const actual = { eventID: id(), eventClassifierCode: 'ACT', eventCreatedDateTime: '2026-05-21T00:00:00Z', ...event('ACT') };
    const sameKind = (e: any) =>
      e.eventType === (planned as any).eventType &&
      (e.shipmentEventTypeCode ?? e.transportEventTypeCode ?? e.equipmentEventTypeCode) ===
        ((planned as any).shipmentEventTypeCode ?? (planned as any).transportEventTypeCode ?? (planned as any).equipmentEventTypeCode);

    await f.ingest({ carrierCode: 'MAEU', events: [planned] });
    expect((await milestones(list, sameKind)).map((e) => [e.eventID, e.eventClassifierCode])).toEqual([[planned.eventID, 'PLN']]);

    await f.ingest({ carrierCode: 'MAEU', events: [actual] });
    expect((await milestones(list, sameKind)).map((e) => [e.eventID, e.eventClassifierCode])).toEqual([[actual.eventID, 'ACT']]);
  });
});
