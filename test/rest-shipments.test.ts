import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app/create-app.js';
import { createLogger } from '../src/observability/logger.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { C1, C2, C3, cmduBundle, maeuBackfillBundle, maeuBundle } from './support/fixture-bundle.js';

interface DcsaError {
  httpMethod: string;
  requestUri: string;
  statusCode: number;
  statusCodeText: string;
  providerCorrelationReference: string;
  errorDateTime: string;
  errors: { errorCode: number; property?: string; errorCodeText: string; errorCodeMessage: string }[];
}

describe.each(dialects)('GET /v2/shipments on $name', ({ name, enabled }) => {
  let f: TestApp;
  let tokenA: string;
  let clientA: string;
  let tokenB: string;

  const logged: Record<string, unknown>[] = [];
  beforeAll(async () => {
    if (!enabled) return;
    const logger = createLogger('silent');
    f = await createTestApp(name, {
      logger: { ...logger, log: (level, message, fields) => logged.push({ level, message, ...fields }) },
    });
    await f.ingest(maeuBundle());
    await f.ingest(cmduBundle());
    await f.ingest(maeuBackfillBundle());
    ({ token: tokenA, clientId: clientA } = await f.tokenFor('acct-a'));
    ({ token: tokenB } = await f.tokenFor('acct-b'));
  });
  afterAll(async () => f?.destroy());

  async function lookup(query: string, token = tokenA) {
    const response = await f.get(`/v2/shipments?${query}`, token);
    return { response, body: (await response.json()) as any };
  }

  async function expectError(query: string, status: number, token: string | null = tokenA) {
    const response = await f.get(`/v2/shipments${query ? `?${query}` : ''}`, token ?? undefined);
    expect(response.status).toBe(status);
    const body = (await response.json()) as DcsaError;
    expect(body).toMatchObject({ httpMethod: 'GET', statusCode: status, requestUri: `/v2/shipments${query ? `?${query}` : ''}` });
    expect(body.providerCorrelationReference).toBe(response.headers.get('x-correlation-id'));
    expect(body.errorDateTime).toMatch(/Z$/);
    expect(body.errors.length).toBeGreaterThan(0);
    for (const e of body.errors) expect(e.errorCode).toBeGreaterThanOrEqual(7000);
    return { response, body };
  }

  describe.skipIf(!enabled)('200', () => {
    it('finds a shipment by carrierCode + carrierBookingReference with the full snapshot', async () => {
      const { response, body } = await lookup('carrierCode=MAEU&carrierBookingReference=MAEU-BKG-1001');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(body.transmissionHeader).toMatchObject({
        triggerType: 'MANUAL_TRIGGER',
        triggeredByEvent: null,
        senderID: 'TRACK-AND-TRACE',
        receiverID: clientA,
        schemaVersion: '1.2',
      });
      expect(body.transmissionHeader.transmissionID).toMatch(/^TXN-\d+$/);
      const s = body.shipmentTracking;
      expect(s).toMatchObject({
        bookingReference: 'FWD-1001',
        carrierBookingReference: 'MAEU-BKG-1001',
        billOfLadingNumber: 'MAEU1001BL',
        carrierCode: 'MAEU',
        carrierName: 'Maersk',
        serviceType: 'PORT_TO_DOOR',
        // ACT departure given as 12:00+01:00 is served in UTC.
        etd: '2026-11-01T11:00:00.000Z',
        // Two estimates: the later-created one wins over the plan and the earlier estimate.
        eta: '2026-12-01T09:00:00.000Z',
      });
      expect(s.portOfLoading).toEqual({ locationName: 'Rotterdam', unLocationCode: 'NLRTM' });
      expect(s.transportEvents.map((e: any) => [e.transportEventTypeCode, e.eventClassifierCode])).toEqual([
        ['DEPA', 'ACT'],
        ['ARRI', 'EST'],
      ]);
      expect(s.shipmentEvents).toHaveLength(1);
      expect(s.exceptions).toEqual([]);
      const c1 = s.containers.find((c: any) => c.containerNumber === C1);
      expect(c1.eventHistory.map((e: any) => `${e.equipmentEventTypeCode}/${e.eventClassifierCode}`)).toEqual([
        'GTIN/ACT',
        'LOAD/ACT',
        'DISC/PLN',
      ]);
      expect(c1.latestEvent).toMatchObject({ equipmentEventTypeCode: 'LOAD', eventClassifierCode: 'ACT' });
      expect(s.containers.map((c: any) => c.containerNumber)).toEqual([C1, C2]);
    });

    it('omits optional fields without a value but carries identifiers and reference dates as null', async () => {
      const { body } = await lookup('billOfLadingNumber=MAEU1001BL');
      const s = body.shipmentTracking;
      expect(s).not.toHaveProperty('placeOfReceipt');
      expect(s.references).toMatchObject({
        customer_name: 'ACME Imports',
        string_ref2: '',
        cargo_ready_dt: null,
        booking_dt: '2026-10-01T08:00:00.000Z',
      });
      expect(Object.keys(s.references)).toHaveLength(17);
      expect(Object.keys(s.containers[0].references)).toHaveLength(17);
      const { body: other } = await lookup('carrierCode=CMDU&carrierBookingReference=MAEU-BKG-1001', tokenB);
      expect(other.shipmentTracking).toMatchObject({ bookingReference: null, etd: null, eta: null, billOfLadingNumber: 'CMDU1001BL' });
      expect(other.shipmentTracking).not.toHaveProperty('vesselName');
    });

    it('finds a shipment by bill of lading', async () => {
      const { response, body } = await lookup('billOfLadingNumber=MAEU0999BL');
      expect(response.status).toBe(200);
      expect(body.shipmentTracking.carrierBookingReference).toBe('MAEU-BKG-0999');
    });

    it('finds the current shipment of a reused container by equipmentReference alone, despite a later backfill', async () => {
      const { response, body } = await lookup(`equipmentReference=${C1}`);
      expect(response.status).toBe(200);
      expect(body.shipmentTracking.carrierBookingReference).toBe('MAEU-BKG-1001');
    });

    it('disambiguates a reused container combined with a bill of lading or a booking', async () => {
      const byBl = await lookup(`equipmentReference=${C1}&billOfLadingNumber=MAEU0999BL`);
      expect(byBl.response.status).toBe(200);
      expect(byBl.body.shipmentTracking.carrierBookingReference).toBe('MAEU-BKG-0999');
      const byBooking = await lookup(`equipmentReference=${C1}&carrierCode=MAEU&carrierBookingReference=MAEU-BKG-0999`);
      expect(byBooking.body.shipmentTracking.billOfLadingNumber).toBe('MAEU0999BL');
      expect(byBooking.body.shipmentTracking.containers.map((c: any) => c.containerNumber)).toEqual([C1]);
    });

    it('scopes a carrier booking number to its carrier', async () => {
      const { body } = await lookup('carrierCode=CMDU&carrierBookingReference=MAEU-BKG-1001', tokenB);
      expect(body.shipmentTracking).toMatchObject({ carrierCode: 'CMDU', billOfLadingNumber: 'CMDU1001BL' });
    });
  });

  describe.skipIf(!enabled)('400', () => {
    it.each([
      ['no lookup parameter', ''],
      ['carrierCode alone', 'carrierCode=MAEU'],
      ['carrierBookingReference without carrierCode', 'carrierBookingReference=MAEU-BKG-1001'],
      ['an unknown parameter', 'billOfLadingNumber=MAEU1001BL&foo=bar'],
      ['a repeated parameter', 'billOfLadingNumber=MAEU1001BL&billOfLadingNumber=MAEU0999BL'],
      ['a container number with a wrong check digit', `equipmentReference=${C1.slice(0, 10)}${(Number(C1[10]) + 1) % 10}`],
      ['a malformed container number', 'equipmentReference=ABC123'],
      ['a lower-case carrier code', 'carrierCode=maeu&carrierBookingReference=MAEU-BKG-1001'],
      ['a carrier code of 5 letters', 'carrierCode=MAEUX&carrierBookingReference=MAEU-BKG-1001'],
      ['an oversized booking reference', `carrierCode=MAEU&carrierBookingReference=${'X'.repeat(36)}`],
      ['an oversized bill of lading', `billOfLadingNumber=${'X'.repeat(21)}`],
      ['an empty bill of lading', 'billOfLadingNumber='],
    ])('rejects %s', async (_label, query) => {
      const { body } = await expectError(query, 400);
      expect(body.statusCodeText).toBe('Bad Request');
    });

    it('names the offending parameter', async () => {
      const { body } = await expectError('billOfLadingNumber=MAEU1001BL&foo=bar', 400);
      expect(body.errors[0]).toMatchObject({ property: 'foo', errorCode: 8004 });
      const { body: check } = await expectError(`equipmentReference=${C1.slice(0, 10)}${(Number(C1[10]) + 1) % 10}`, 400);
      expect(check.errors[0]?.errorCodeMessage).toMatch(/check digit/);
    });
  });

  describe.skipIf(!enabled)('401 and 403', () => {
    it('401 without a token, with WWW-Authenticate', async () => {
      const { response } = await expectError('billOfLadingNumber=MAEU1001BL', 401, null);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    });

    it('401 before 400: an unauthenticated request with bad parameters learns nothing', async () => {
      await expectError('carrierBookingReference=X', 401, null);
    });

    it('401 for a malformed Authorization header', async () => {
      const response = await f.get('/v2/shipments?billOfLadingNumber=MAEU1001BL', undefined, { Authorization: `Token ${tokenA}` });
      expect(response.status).toBe(401);
    });

    it('401 for a tampered token and for alg none', async () => {
      const [h, p, s] = tokenA.split('.') as [string, string, string];
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...payload, client_id: 'someone-else', sub: 'someone-else' })).toString('base64url');
      await expectError('billOfLadingNumber=MAEU1001BL', 401, `${h}.${forged}.${s}`);
      const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
      await expectError('billOfLadingNumber=MAEU1001BL', 401, `${none}.${p}.`);
    });

    it('401 for an expired token and for a token of another environment (issuer)', async () => {
      const past = await createApp({
        config: f.config,
        database: f.t.database,
        now: () => new Date(Date.now() - 2 * 3600_000),
        logger: createLogger('silent'),
      });
      const creds = await f.app.clients.createClient({ name: 'old', account: 'acct-a' });
      const expired = await past.tokens.issueToken({ clientId: creds.client_id, scope: 'track-and-trace.read' });
      await expectError('billOfLadingNumber=MAEU1001BL', 401, expired.access_token);

      const production = await createApp({
        config: testConfig({ TT_BASE_URL: 'https://api.example.com' }),
        database: f.t.database,
        logger: createLogger('silent'),
      });
      const foreign = await production.tokens.issueToken({ clientId: creds.client_id, scope: 'track-and-trace.read' });
      await expectError('billOfLadingNumber=MAEU1001BL', 401, foreign.access_token);
    });

    it('401 once the client is disabled, for tokens issued before', async () => {
      const { token, clientId } = await f.tokenFor('acct-a');
      expect((await lookup('billOfLadingNumber=MAEU1001BL', token)).response.status).toBe(200);
      await f.app.clients.disableClient(clientId);
      await expectError('billOfLadingNumber=MAEU1001BL', 401, token);
    });

    it('403 insufficient_scope for a token without the read scope', async () => {
      const creds = await f.app.clients.createClient({ name: 'narrow', account: 'acct-a' });
      const narrow = await f.app.tokens.issueToken({ clientId: creds.client_id, scope: 'track-and-trace.write' });
      const { response } = await expectError('billOfLadingNumber=MAEU1001BL', 403, narrow.access_token);
      expect(response.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    });
  });

  describe.skipIf(!enabled)('404', () => {
    it.each([
      ['an unknown bill of lading', 'billOfLadingNumber=NOPE0001'],
      ["another account's shipment", 'billOfLadingNumber=CMDU2001BL'],
      ['a combination that matches no single shipment', `billOfLadingNumber=MAEU1001BL&equipmentReference=${C3}`],
      ['a booking number under another carrier', 'carrierCode=CMDU&carrierBookingReference=MAEU-BKG-1001'],
      ['an unknown container', `equipmentReference=${C3}`],
    ])('answers 404 for %s', async (_label, query) => {
      const { body } = await expectError(query, 404);
      expect(body.errors[0]).toMatchObject({ errorCode: 8005 });
    });

    it("gives the same body for another account's shipment as for a missing one", async () => {
      const strip = (b: DcsaError) => ({ ...b, requestUri: '', providerCorrelationReference: '', errorDateTime: '' });
      const other = await expectError('billOfLadingNumber=CMDU2001BL', 404);
      const missing = await expectError('billOfLadingNumber=CMDU2002BL', 404);
      expect(strip(other.body)).toEqual(strip(missing.body));
    });
  });

  it.skipIf(!enabled)('logs every refused lookup under its providerCorrelationReference', async () => {
    const { body } = await expectError('billOfLadingNumber=NOPE0002', 404);
    expect(logged).toContainEqual(expect.objectContaining({ correlationId: body.providerCorrelationReference, status: 404 }));
  });

  it.skipIf(!enabled)('405 for other methods', async () => {
    const response = await f.app.fetch(`${BASE}/v2/shipments?billOfLadingNumber=MAEU1001BL`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenA}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
