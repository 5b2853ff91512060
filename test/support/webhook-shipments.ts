import { expect } from 'vitest';
import type { TestApp } from './app-fixture.js';

/**
 * Shipments with one webhook subscription each, and new milestones for them: the fixture of the delivery tests
 * that count what a receiver was sent (test/delivery-claims.test.ts, test/delivery-kill.test.ts).
 */

/**
 * A maker of new milestones: each call is a new estimated arrival (a transport call never seen before) of the
 * shipment booked as `bookingReference`, so one EVENT_TRIGGER delivery per subscription of it. `idPrefix` (eight
 * hex digits) keeps one test file's event ids apart from another's.
 */
export function milestoneMaker(idPrefix: string): (bookingReference: string) => Record<string, unknown> & { eventID: string } {
  let n = 0;
  return (bookingReference) => {
    n++;
    return {
      eventID: `${idPrefix}-0000-4000-8000-${String(n).padStart(12, '0')}`,
      eventType: 'TRANSPORT',
      eventClassifierCode: 'EST',
      eventDateTime: '2026-10-21T20:00:00Z',
      eventCreatedDateTime: '2026-10-10T00:00:00Z',
      transportEventTypeCode: 'ARRI',
      documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: bookingReference }],
      transportCall: {
        transportCallID: `TC-${idPrefix}-${n}`,
        modeOfTransport: 'VESSEL',
        UNLocationCode: 'SGSIN',
        vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
      },
    };
  };
}

/** Ingests the shipments (EGLV, Shanghai to Rotterdam) for `account`, and subscribes `callbackUrl` to each one's new milestones. */
export async function subscribedShipments(f: TestApp, account: string, bookings: string[], callbackUrl: string): Promise<void> {
  const { token } = await f.tokenFor(account, { subscribe: true });
  await f.ingest({
    carrierCode: 'EGLV',
    shipments: bookings.map((carrierBookingReference) => ({
      carrierBookingReference,
      carrierCode: 'EGLV',
      portOfLoading: { unLocationCode: 'CNSHA' },
      portOfDischarge: { unLocationCode: 'NLRTM' },
      accounts: [account],
    })),
  });
  for (const carrierBookingReference of bookings) {
    const response = await f.send('POST', '/v2/subscriptions', token, {
      callbackUrl,
      carrierCode: 'EGLV',
      carrierBookingReference,
      triggerTypes: ['EVENT_TRIGGER'],
    });
    expect(response.status).toBe(201);
  }
}
