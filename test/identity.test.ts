import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxBundle } from '../db/sandbox-bundle.js';
import { ClientInputError } from '../src/auth/client-store.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';

/**
 * docs/architecture.md, Identity: identifiers and account ids compare exactly, byte for
 * byte, on every store. MySQL/MariaDB compare text under the column's
 * collation, whose server default ignores case, accents and trailing spaces;
 * the test databases are created with exactly such a default
 * (test/support/databases.ts), so only the migration's explicit collation
 * stands between these cases and a cross-tenant read.
 */

const NOW = new Date('2026-11-22T12:00:00.000Z');

/** Every lookup form of the spec, for the sandbox's demo-account shipment MAEU 262150001 (box MSKU1234565). */
const LOOKUPS: Record<string, string>[] = [
  { carrierCode: 'MAEU', carrierBookingReference: '262150001' },
  { billOfLadingNumber: 'MAEU262150001' },
  { equipmentReference: 'MSKU1234565' },
  { equipmentReference: 'MSKU1234565', carrierCode: 'MAEU', carrierBookingReference: '262150001' },
  { equipmentReference: 'MSKU1234565', billOfLadingNumber: 'MAEU262150001' },
];

const graphqlLookup = (args: Record<string, string>) =>
  `{ shipment(${Object.entries(args)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ')}) { shipmentTracking { carrierBookingReference } } }`;

describe.each(dialects)('exact identity on $name', ({ name, enabled }) => {
  let f: TestApp;
  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    for (const bundle of buildSandboxBundle(NOW)) await f.ingest(bundle, NOW);
  });
  afterAll(async () => f?.destroy());

  /** A bearer token of a client whose account is exactly `account` (set in the table, as a legacy row could be). */
  async function tokenOfAccount(account: string): Promise<string> {
    const { token, clientId } = await f.tokenFor('placeholder-account');
    await f.t.database.db.updateTable('api_client').set({ account_id: account }).where('client_id', '=', clientId).execute();
    return token;
  }

  async function answers(token: string): Promise<{ rest: number[]; graphql: (string | undefined)[] }> {
    const rest: number[] = [];
    const graphql: (string | undefined)[] = [];
    for (const lookup of LOOKUPS) {
      rest.push((await f.get(`/v2/shipments?${new URLSearchParams(lookup)}`, token)).status);
      const body = (await (await f.graphql(graphqlLookup(lookup), {}, token)).json()) as any;
      graphql.push(body.errors?.[0]?.extensions?.code ?? (body.data?.shipment ? 'FOUND' : undefined));
    }
    return { rest, graphql };
  }

  it.skipIf(!enabled)('the account itself reads its shipment by every lookup form (control)', async () => {
    expect(await answers(await tokenOfAccount('demo-account'))).toEqual({
      rest: LOOKUPS.map(() => 200),
      graphql: LOOKUPS.map(() => 'FOUND'),
    });
  });

  it.skipIf(!enabled).each(['DEMO-ACCOUNT', 'Demo-Account', 'démo-account', 'demo-account ', 'demo-accounT'])(
    'a client of account %j reads nothing of demo-account, REST and GraphQL, by any lookup form',
    async (account) => {
      expect(await answers(await tokenOfAccount(account))).toEqual({
        rest: LOOKUPS.map(() => 404),
        graphql: LOOKUPS.map(() => 'NOT_FOUND'),
      });
    },
  );

  it.skipIf(!enabled)('refuses to create a client whose account has surrounding whitespace', async () => {
    await expect(f.app.clients.createClient({ name: 'padded', account: 'demo-account ' })).rejects.toThrow(ClientInputError);
  });

  it.skipIf(!enabled)('compares lookup values exactly: another case is not found, surrounding whitespace is refused', async () => {
    const token = await tokenOfAccount('demo-account');
    expect((await f.get('/v2/shipments?billOfLadingNumber=MAEU262150002', token)).status).toBe(200);
    expect((await f.get('/v2/shipments?billOfLadingNumber=maeu262150002', token)).status).toBe(404);
    for (const padded of ['MAEU262150002%20', '%20MAEU262150002', 'MAEU262150002%09']) {
      const response = await f.get(`/v2/shipments?billOfLadingNumber=${padded}`, token);
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).errors[0].errorCodeMessage).toMatch(/whitespace/);
    }
    expect((await f.get('/v2/shipments?carrierCode=MAEU&carrierBookingReference=262150001%20', token)).status).toBe(400);
    expect((await f.get('/v2/shipments?equipmentReference=msku1234565', token)).status).toBe(400);
  });

  it.skipIf(!enabled)('keeps two bookings that differ only in case apart, and links events by the exact reference', async () => {
    const token = await tokenOfAccount('acct-case');
    const shipment = (booking: string, bl: string) => ({
      carrierBookingReference: booking,
      billOfLadingNumber: bl,
      carrierCode: 'MAEU',
      portOfLoading: { UNLocationCode: 'CNSHA' },
      portOfDischarge: { UNLocationCode: 'NLRTM' },
      accounts: ['acct-case'],
    });
    await f.ingest({ carrierCode: 'MAEU', shipments: [shipment('CASE-A1', 'CASEBLUPPER'), shipment('case-a1', 'CASEBLLOWER')] }, NOW);
    const arrival = (eventID: string, booking: string, when: string) => ({
      eventID,
      eventType: 'TRANSPORT',
      eventClassifierCode: 'EST',
      eventDateTime: when,
      eventCreatedDateTime: '2026-11-01T00:00:00Z',
      transportEventTypeCode: 'ARRI',
      documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: booking }],
      transportCall: {
        UNLocationCode: 'NLRTM',
        modeOfTransport: 'VESSEL',
        vessel: { vesselIMONumber: '9321483', vesselName: 'MAERSK ALPHA' },
      },
    });
    await f.ingest(
      { carrierCode: 'MAEU', events: [arrival('c45e0000-0000-4000-8000-000000000001', 'case-a1', '2026-12-01T00:00:00Z')] },
      NOW,
    );
    const eta = async (bl: string) =>
      ((await (await f.get(`/v2/shipments?billOfLadingNumber=${bl}`, token)).json()) as any).shipmentTracking.eta;
    expect(await eta('CASEBLLOWER')).toBe('2026-12-01T00:00:00.000Z');
    expect(await eta('CASEBLUPPER')).toBeNull();
    const byBooking = await f.get('/v2/shipments?carrierCode=MAEU&carrierBookingReference=CASE-A1', token);
    expect(((await byBooking.json()) as any).shipmentTracking.billOfLadingNumber).toBe('CASEBLUPPER');
  });
});
