import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import {
  CARRIER,
  CONTAINER_A,
  CONTAINER_B,
  eventId,
  rawEquipmentEvent,
  rawShipment,
  rawShipmentEvent,
  rawTransportEvent,
} from './support/ingest-fixtures.js';

/**
 * GET /v2/events by the filters that read through their own index since migration 023 (docs/architecture.md,
 * Event storage): equipmentReference (event_equipment_idx) and carrierBookingReference/transportDocumentReference
 * (the shipment's events, driven from shipment_booking_idx / shipment_bill_of_lading_idx). Each answers what the
 * unfiltered listing (the created-time index, an EXISTS per event) answers with the filter applied, in the same
 * order, page by page forwards and backwards, and only what the caller's accounts see.
 */
const id = eventId;
const booking = (ref: string) => [{ documentReferenceType: 'BKG', documentReferenceValue: ref }];
const at = (day: number, hour: number) => `2024-04-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`;

const SHIPMENTS = [
  rawShipment({
    carrierBookingReference: 'BKGE1',
    billOfLadingNumber: 'MAEUBLE1',
    bookingReference: 'FWD-E1',
    containers: [{ containerNumber: CONTAINER_A, isoType: '45G1' }],
  }),
  rawShipment({
    carrierBookingReference: 'BKGE2',
    billOfLadingNumber: 'MAEUBLE2',
    bookingReference: 'FWD-E2',
    accounts: ['other'],
    containers: [{ containerNumber: CONTAINER_B, isoType: '22G1' }],
  }),
];

// Container A's events: created times out of seq order, two of them equal (the seq breaks the tie), event times
// in yet another order; between them the shipment's other events, and the other account's container B.
const EVENTS = [
  rawEquipmentEvent(101, {
    eventCreatedDateTime: at(3, 9),
    eventDateTime: at(3, 1),
    equipmentEventTypeCode: 'GTIN',
    documentReferences: booking('BKGE1'),
  }),
  rawEquipmentEvent(102, {
    eventCreatedDateTime: at(1, 9),
    eventDateTime: at(5, 1),
    equipmentEventTypeCode: 'GTOT',
    documentReferences: booking('BKGE1'),
  }),
  rawEquipmentEvent(103, { eventCreatedDateTime: at(4, 9), eventDateTime: at(2, 1), documentReferences: booking('BKGE1') }),
  rawEquipmentEvent(104, {
    eventCreatedDateTime: at(4, 9),
    eventDateTime: at(6, 1),
    equipmentEventTypeCode: 'DISC',
    documentReferences: booking('BKGE1'),
  }),
  rawEquipmentEvent(105, {
    eventCreatedDateTime: at(6, 9),
    eventDateTime: at(4, 1),
    equipmentEventTypeCode: 'GTOT',
    documentReferences: booking('BKGE1'),
  }),
  rawEquipmentEvent(106, { eventCreatedDateTime: at(2, 9), eventDateTime: at(7, 1), documentReferences: booking('BKGE1') }),
  rawShipmentEvent(107, { documentID: 'BKGE1', eventCreatedDateTime: at(2, 12), eventDateTime: at(2, 12) }),
  rawTransportEvent(108, { eventCreatedDateTime: at(5, 3), eventDateTime: at(5, 3), documentReferences: booking('BKGE1') }),
  rawEquipmentEvent(109, {
    eventCreatedDateTime: at(3, 9),
    eventDateTime: at(3, 2),
    equipmentReference: CONTAINER_B,
    documentReferences: booking('BKGE2'),
  }),
  rawEquipmentEvent(110, {
    eventCreatedDateTime: at(5, 9),
    eventDateTime: at(1, 2),
    equipmentReference: CONTAINER_B,
    documentReferences: booking('BKGE2'),
  }),
];
const CONTAINER_A_EVENTS = [101, 102, 103, 104, 105, 106].map(id);
const BKGE1_EVENTS = [101, 102, 103, 104, 105, 106, 107, 108].map(id);
const BKGE2_EVENTS = [109, 110].map(id);

describe.each(dialects)('GET /v2/events through the filter indexes on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    await f.ingest({ carrierCode: CARRIER, shipments: SHIPMENTS, events: EVENTS });
    token = (await f.tokenFor('acme')).token;
    otherToken = (await f.tokenFor('other')).token;
  });
  afterAll(async () => f?.destroy());

  async function page(query: string, bearer = token) {
    const answer = await f.get(`/v2/events?${query}`, bearer);
    expect(answer.status, query).toBe(200);
    return {
      ids: ((await answer.json()) as { eventID: string }[]).map((e) => e.eventID),
      next: answer.headers.get('next-page'),
      prev: answer.headers.get('prev-page'),
    };
  }

  /** What the unfiltered listing (no filter index) serves of these events, in its order. */
  async function unfilteredOf(wanted: readonly string[], sort: string, bearer = token) {
    return (await page(`limit=1000${sort}`, bearer)).ids.filter((e) => wanted.includes(e));
  }

  /** Every page of a query, limit 2, walked forwards to the last and back from it to the first. */
  async function walk(query: string, bearer = token) {
    const forward = [await page(`${query}&limit=2`, bearer)];
    while (forward.at(-1)!.next) forward.push(await page(`cursor=${forward.at(-1)!.next}`, bearer));
    const backward = [forward.at(-1)!];
    while (backward.at(-1)!.prev) backward.push(await page(`cursor=${backward.at(-1)!.prev}`, bearer));
    return { forward: forward.map((p) => p.ids), backward: backward.map((p) => p.ids).reverse() };
  }

  for (const sort of ['', '&sort=eventCreatedDateTime:DESC', '&sort=eventDateTime', '&sort=eventDateTime:DESC,eventCreatedDateTime:ASC']) {
    it.skipIf(!enabled)(
      `equipmentReference, ${sort || 'default order'}: the listing's events of that container, paged both ways`,
      async () => {
        const expected = await unfilteredOf(CONTAINER_A_EVENTS, sort);
        expect([...expected].sort()).toEqual([...CONTAINER_A_EVENTS].sort());
        expect((await page(`equipmentReference=${CONTAINER_A}${sort}`)).ids).toEqual(expected);
        expect((await page(`equipmentReference=${CONTAINER_A}&eventType=EQUIPMENT${sort}`)).ids).toEqual(expected);
        const { forward, backward } = await walk(`equipmentReference=${CONTAINER_A}${sort}`);
        expect(forward.flat()).toEqual(expected);
        expect(forward.every((p) => p.length <= 2)).toBe(true);
        expect(backward).toEqual(forward);
      },
    );

    it.skipIf(!enabled)(
      `carrierBookingReference and transportDocumentReference, ${sort || 'default order'}: the shipment's events, paged both ways`,
      async () => {
        const expected = await unfilteredOf(BKGE1_EVENTS, sort);
        expect([...expected].sort()).toEqual([...BKGE1_EVENTS].sort());
        for (const filter of [
          'carrierBookingReference=BKGE1',
          'transportDocumentReference=MAEUBLE1',
          'carrierBookingReference=BKGE1&transportDocumentReference=MAEUBLE1',
        ]) {
          expect((await page(`${filter}${sort}`)).ids, filter).toEqual(expected);
          const { forward, backward } = await walk(`${filter}${sort}`);
          expect(forward.flat(), filter).toEqual(expected);
          expect(backward, filter).toEqual(forward);
        }
        const typed = expected.filter((e) => CONTAINER_A_EVENTS.includes(e));
        expect((await page(`carrierBookingReference=BKGE1&eventType=EQUIPMENT${sort}`)).ids).toEqual(typed);
        expect((await page(`carrierBookingReference=BKGE1&equipmentReference=${CONTAINER_A}${sort}`)).ids).toEqual(typed);
      },
    );
  }

  it.skipIf(!enabled)("never serves another account's container, booking or bill of lading", async () => {
    expect((await page(`equipmentReference=${CONTAINER_B}`)).ids).toEqual([]);
    expect((await page('carrierBookingReference=BKGE2')).ids).toEqual([]);
    expect((await page('transportDocumentReference=MAEUBLE2')).ids).toEqual([]);
    expect((await page('carrierBookingReference=BKGE1&transportDocumentReference=MAEUBLE2')).ids).toEqual([]);
    // Its owner sees them, through the same paths and pages.
    expect((await page(`equipmentReference=${CONTAINER_B}`, otherToken)).ids).toEqual(BKGE2_EVENTS);
    expect((await page('carrierBookingReference=BKGE2', otherToken)).ids).toEqual(BKGE2_EVENTS);
    expect((await walk('transportDocumentReference=MAEUBLE2', otherToken)).forward).toEqual([BKGE2_EVENTS]);
    expect((await page(`equipmentReference=${CONTAINER_A}`, otherToken)).ids).toEqual([]);
    expect((await page('carrierBookingReference=BKGE1', otherToken)).ids).toEqual([]);
  });
});
