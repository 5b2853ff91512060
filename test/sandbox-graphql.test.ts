import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPMENT_DOCUMENT } from '../src/executor/shipment-document.js';
import { dialects } from './support/databases.js';
import { createSandboxApp, type SandboxApp } from './support/sandbox-app.js';

interface Exception {
  exceptionType: string;
  status: string;
  resolutionType: string | null;
}

/**
 * Every shipment of the sandbox, of every account, through the full
 * snapshot document: each stored code, timestamp and exception value
 * serializes through the schema's enums and DateTime scalar (ingest checks
 * them against the same code lists, so none may fail).
 */
describe.each(dialects)('the sandbox data through the GraphQL schema on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  beforeAll(async () => {
    if (enabled) f = await createSandboxApp(name);
  });
  afterAll(async () => f?.destroy());

  it.skipIf(!enabled)('serializes every shipment of every account without an error', async () => {
    const shipments = await f.t.database.db
      .selectFrom('shipment')
      .innerJoin('shipment_account', 'shipment_account.shipment_id', 'shipment.id')
      .select(['carrier_code', 'carrier_booking_reference', 'account_id'])
      .orderBy('shipment.id')
      .execute();
    expect(shipments.length).toBeGreaterThanOrEqual(7);
    const tokens = new Map<string, string>();
    const exceptions: Exception[] = [];
    for (const shipment of shipments) {
      if (!tokens.has(shipment.account_id)) tokens.set(shipment.account_id, (await f.tokenFor(shipment.account_id)).token);
      const response = await f.graphql(
        SHIPMENT_DOCUMENT,
        { carrierCode: shipment.carrier_code, carrierBookingReference: shipment.carrier_booking_reference },
        tokens.get(shipment.account_id),
      );
      const body = (await response.json()) as {
        errors?: unknown[];
        data: { shipment: { shipmentTracking: { carrierBookingReference: string; exceptions: Exception[] } } };
      };
      expect(body.errors, `${shipment.carrier_code} ${shipment.carrier_booking_reference}`).toBeUndefined();
      expect(body.data.shipment.shipmentTracking.carrierBookingReference).toBe(shipment.carrier_booking_reference);
      exceptions.push(...body.data.shipment.shipmentTracking.exceptions);
    }
    // The sandbox shows every exception type, so each enum value above went through serialization.
    expect(new Set(exceptions.map((e) => e.exceptionType))).toEqual(
      new Set(['ETA_DELAY', 'ROLLOVER', 'MISSED_CONNECTION', 'DEMURRAGE_RISK', 'DETENTION_RISK']),
    );
    expect(new Set(exceptions.map((e) => e.resolutionType).filter(Boolean))).toEqual(
      new Set(['SCHEDULE_RECOVERED', 'REBOOKED', 'EVENT_ACTUALIZED']),
    );
  });
});
