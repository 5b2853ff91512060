import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearException } from '../src/store/shipment-writes/exception-clear.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { C1, cmduBundle, maeuBundle } from './support/fixture-bundle.js';

/**
 * Conditional polling of GET /v2/shipments (docs/lookups-and-polling.md "Conditional polling"):
 * a poller that sends back the ETag gets 304 with no body until the
 * shipment changes, and never a 304 for something it may not see.
 */
describe.each(dialects)('conditional polling on $name', ({ name, enabled }) => {
  let f: TestApp;
  let tokenA: string;
  let tokenB: string;
  const PATH = '/v2/shipments?billOfLadingNumber=MAEU1001BL';

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    await f.ingest(maeuBundle());
    await f.ingest(cmduBundle());
    ({ token: tokenA } = await f.tokenFor('acct-a'));
    ({ token: tokenB } = await f.tokenFor('acct-b'));
  });
  afterAll(async () => f?.destroy());

  const poll = (etag?: string, token = tokenA, path = PATH) => f.get(path, token, etag ? { 'If-None-Match': etag } : {});

  it.skipIf(!enabled)('answers 304 without a body while the shipment is unchanged, 200 with a new tag once it changes', async () => {
    const first = await poll();
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const body = (await first.json()) as { transmissionHeader: { transmissionID: string } };

    const again = await poll(etag ?? undefined);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');

    // A 200 without the tag is a full answer with a new transmission, but the same tag: the shipment did not change.
    const full = await poll();
    expect(full.headers.get('etag')).toBe(etag);
    expect(((await full.json()) as typeof body).transmissionHeader.transmissionID).not.toBe(body.transmissionHeader.transmissionID);

    // A new event of this shipment changes it: the old tag no longer matches.
    await f.ingest({
      carrierCode: 'MAEU',
      events: [
        {
          eventID: '0b7c6f52-3a55-4a43-9a43-7d4f1b2c9e01',
          eventType: 'EQUIPMENT',
          eventClassifierCode: 'ACT',
          eventDateTime: '2026-11-02T10:00:00+01:00',
          eventCreatedDateTime: '2026-11-02T09:05:00Z',
          equipmentEventTypeCode: 'GTIN',
          equipmentReference: C1,
          emptyIndicatorCode: 'LADEN',
          eventLocation: { locationName: 'Rotterdam', UNLocationCode: 'NLRTM' },
          documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'MAEU-BKG-1001' }],
        },
      ],
    });
    const changed = await poll(etag ?? undefined);
    expect(changed.status).toBe(200);
    const newTag = changed.headers.get('etag');
    expect(newTag).not.toBe(etag);
    expect((await poll(newTag ?? undefined)).status).toBe(304);
  });

  it.skipIf(!enabled)('an operator clear changes the tag too', async () => {
    // The arrival estimate slips three days: an ETA_DELAY the operator then clears.
    await f.ingest({
      carrierCode: 'MAEU',
      events: [
        {
          eventID: '0b7c6f52-3a55-4a43-9a43-7d4f1b2c9e02',
          eventType: 'TRANSPORT',
          eventClassifierCode: 'EST',
          eventDateTime: '2026-12-04T09:00:00Z',
          eventCreatedDateTime: '2026-11-07T08:00:00Z',
          transportEventTypeCode: 'ARRI',
          documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'MAEU-BKG-1001' }],
          transportCall: {
            transportCallID: 'TC-CNSHA-MAEU-BKG-1001',
            modeOfTransport: 'VESSEL',
            facilityTypeCode: 'POTE',
            UNLocationCode: 'CNSHA',
            location: { locationName: 'Shanghai', UNLocationCode: 'CNSHA' },
            exportVoyageNumber: '241W',
            importVoyageNumber: '241W',
            vessel: { vesselName: 'MAERSK EDINBURGH', vesselIMONumber: '9299628' },
          },
        },
      ],
    });
    const before = await poll();
    const etag = before.headers.get('etag') ?? '';
    const { shipmentTracking } = (await before.json()) as { shipmentTracking: { exceptions: { exceptionID: string; status: string }[] } };
    const open = shipmentTracking.exceptions.find((e) => e.status !== 'RESOLVED');
    expect(open).toBeDefined();
    await clearException(f.t.database, open?.exceptionID ?? '', 'checked with the carrier', new Date());
    expect((await poll(etag)).status).toBe(200);
  });

  it.skipIf(!enabled)('matches by weak comparison in a list, and * ; a malformed value gets the full answer', async () => {
    const etag = (await poll()).headers.get('etag') ?? '';
    const opaque = etag.replace(/^W\//, '');
    expect((await poll(`"other", ${opaque}`)).status).toBe(304);
    expect((await poll(`W/"other", ${etag}`)).status).toBe(304);
    expect((await poll('*')).status).toBe(304);
    expect((await poll('not-a-tag')).status).toBe(200);
    expect((await poll('W/"someone-elses"')).status).toBe(200);
  });

  it.skipIf(!enabled)('authentication and tenancy come first: no 304 for a shipment the caller may not see', async () => {
    const etag = (await poll()).headers.get('etag') ?? '';
    const other = await poll(etag, tokenB);
    expect(other.status).toBe(404);
    expect(other.headers.get('etag')).toBeNull();
    const anonymous = await f.get(PATH, undefined, { 'If-None-Match': '*' });
    expect(anonymous.status).toBe(401);
  });

  it.skipIf(!enabled)('the tag names the shipment: another shipment never matches it', async () => {
    const etag = (await poll()).headers.get('etag') ?? '';
    const older = await poll(etag, tokenA, '/v2/shipments?billOfLadingNumber=MAEU0999BL');
    expect(older.status).toBe(200);
    expect(older.headers.get('etag')).not.toBe(etag);
  });

  describe('GraphQL GET form', () => {
    const QUERY =
      'query Poll($bl: String) { shipment(billOfLadingNumber: $bl) { shipmentTracking { eta exceptions { exceptionID status } } } }';
    const getGraphql = (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}, token = tokenA) =>
      f.get(`/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`, token, {
        'X-GraphQL-Yoga-CSRF': '1',
        ...headers,
      });

    it.skipIf(!enabled)(
      'a one-shipment query gets a tag and 304 while unchanged; another selection or shipment does not match',
      async () => {
        const first = await getGraphql(QUERY, { bl: 'MAEU1001BL' });
        expect(first.status).toBe(200);
        const etag = first.headers.get('etag') ?? '';
        expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
        expect(first.headers.get('cache-control')).toBe('private, no-cache');
        expect(((await first.json()) as { data: { shipment: unknown } }).data.shipment).not.toBeNull();

        const again = await getGraphql(QUERY, { bl: 'MAEU1001BL' }, { 'If-None-Match': etag });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);

        // The REST tag names another selection; another shipment or selection never matches.
        const rest = (await poll()).headers.get('etag') ?? '';
        expect(rest).not.toBe(etag);
        expect((await getGraphql(QUERY, { bl: 'MAEU1001BL' }, { 'If-None-Match': rest })).status).toBe(200);
        expect((await getGraphql(QUERY, { bl: 'MAEU0999BL' }, { 'If-None-Match': etag })).status).toBe(200);
        const wider = QUERY.replace('exceptionID status', 'exceptionID status title');
        expect((await getGraphql(wider, { bl: 'MAEU1001BL' }, { 'If-None-Match': etag })).status).toBe(200);
      },
    );

    it.skipIf(!enabled)('no tag for other operations, POSTs, or a shipment the caller may not see', async () => {
      const etag = (await getGraphql(QUERY, { bl: 'MAEU1001BL' })).headers.get('etag') ?? '';
      const two = await getGraphql(
        `query Two($bl: String) { a: shipment(billOfLadingNumber: $bl) { shipmentTracking { eta } } b: shipment(billOfLadingNumber: $bl) { shipmentTracking { etd } } }`,
        { bl: 'MAEU1001BL' },
        { 'If-None-Match': '*' },
      );
      expect(two.status).toBe(200);
      expect(two.headers.get('etag')).toBeNull();
      const posted = await f.app.fetch('http://tracking.test/graphql', {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokenA}`, 'Content-Type': 'application/json', 'If-None-Match': etag },
        body: JSON.stringify({ query: QUERY, variables: { bl: 'MAEU1001BL' } }),
      });
      expect(posted.status).toBe(200);
      expect(posted.headers.get('etag')).toBeNull();
      const other = await getGraphql(QUERY, { bl: 'MAEU1001BL' }, { 'If-None-Match': etag }, tokenB);
      expect(other.status).toBe(404);
      expect(other.headers.get('etag')).toBeNull();
      expect(((await other.json()) as { errors: unknown[] }).errors).toHaveLength(1);
    });
  });
});
