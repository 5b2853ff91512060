import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerCheckDigit } from '../src/domain/container-number.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { checkedAnswer, DcsaValidator } from './support/dcsa-validator.js';
import {
  CARRIER,
  CONTAINER_A,
  eventId,
  rawEquipmentEvent,
  rawShipment,
  rawShipmentEvent,
  rawTransportEvent,
} from './support/ingest-fixtures.js';

/**
 * GET /v2/events as DCSA Track & Trace 2.2 defines it (docs/dcsa-events.md: Consuming the service as a DCSA publisher): each
 * filter, the operator forms of eventCreatedDateTime, sort, cursor pages with the standard's headers, the error
 * body, the tenant rule; every answer validated against the standard (corrected: test/dcsa-standard.test.ts).
 */
const CONTAINER_C = `MSCU765432${containerCheckDigit('MSCU765432')}`;
const id = (n: number) => eventId(n);

const SHIPMENTS = [
  rawShipment(),
  rawShipment({
    carrierBookingReference: 'BKG200',
    billOfLadingNumber: 'MAEUBL200',
    bookingReference: 'FWD-200',
    containers: [{ containerNumber: CONTAINER_C, isoType: '22G1' }],
  }),
  rawShipment({
    carrierBookingReference: 'BKG300',
    billOfLadingNumber: 'MAEUBL300',
    bookingReference: 'FWD-300',
    accounts: ['other'],
    containers: [],
  }),
];

const EVENTS = [
  rawShipmentEvent(1),
  rawTransportEvent(2),
  rawEquipmentEvent(3),
  rawTransportEvent(4, {
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: '2024-03-06T10:00:00+01:00',
    eventDateTime: '2024-03-06T08:00:00+01:00',
    transportEventTypeCode: 'DEPA',
    transportCall: {
      carrierServiceCode: 'AE1',
      exportVoyageNumber: '402W',
      UNLocationCode: 'NLRTM',
      modeOfTransport: 'VESSEL',
      transportCallSequenceNumber: 3,
      vessel: { vesselIMONumber: '9321483', vesselName: 'MAERSK ESSEN' },
    },
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG200' }],
  }),
  rawEquipmentEvent(5, {
    eventCreatedDateTime: '2024-03-07T10:00:00+01:00',
    eventDateTime: '2024-03-07T09:00:00+01:00',
    equipmentEventTypeCode: 'GTOT',
    equipmentReference: CONTAINER_C,
    emptyIndicatorCode: 'EMPTY',
    transportCall: undefined,
    eventLocation: { locationName: 'Hamburg', UNLocationCode: 'DEHAM' },
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG200' }],
  }),
  rawShipmentEvent(6, { documentID: 'BKG300', eventCreatedDateTime: '2024-03-03T12:00:00+01:00' }),
  // CANC is DCSA reference data but not in the 2.2 enum: stored and served by the lookup, never published here.
  rawShipmentEvent(7, { shipmentEventTypeCode: 'CANC', eventCreatedDateTime: '2024-03-08T12:00:00+01:00' }),
];

describe.each(dialects)('GET /v2/events on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  let otherToken: string;
  const validator = new DcsaValidator();

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    await f.ingest({ carrierCode: CARRIER, shipments: SHIPMENTS, events: EVENTS });
    token = (await f.tokenFor('acme')).token;
    otherToken = (await f.tokenFor('other')).token;
  });
  afterAll(async () => f?.destroy());

  /** GET /v2/events?query, validated against the standard. */
  async function events(query: string, options: { token?: string | null; headers?: Record<string, string> } = {}) {
    const bearer = options.token === undefined ? token : options.token;
    const answer = await checkedAnswer(
      validator,
      'GET',
      '/v2/events',
      await f.get(`/v2/events${query ? `?${query}` : ''}`, bearer ?? undefined, options.headers),
    );
    expect(answer.problems, query).toEqual([]);
    return answer;
  }
  const ids = async (query: string) => {
    const answer = await events(query);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body as { eventID: string }[]).map((e) => e.eventID);
  };
  const refused = async (query: string, headers: Record<string, string> = {}) => {
    const answer = await events(query, { headers });
    expect(answer.status).toBe(400);
    return (answer.body as { errors: { message: string }[] }).errors.map((e) => e.message).join(' ');
  };

  it.skipIf(!enabled)("serves the account's events in 2.2 spelling, oldest first, with API-Version; never another account's", async () => {
    const answer = await events('');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('api-version')).toBe('2.2.0');
    expect((answer.body as { eventID: string }[]).map((e) => e.eventID)).toEqual([id(1), id(2), id(3), id(4), id(5)]);
    const transport = (answer.body as Record<string, any>[])[1];
    expect(transport?.transportCall).toMatchObject({
      UNLocationCode: 'SGSIN',
      transportCallID: 'TC-SGSIN-401E',
      carrierServiceCode: 'AE7',
    });
    expect(JSON.stringify(answer.body)).not.toContain('unLocationCode');
    // The carrier sent no transportCallID: 2.2 requires one, the call's identity stands in.
    expect((answer.body as Record<string, any>[])[3]?.transportCall.transportCallID).toBe('at/NLRTM/3/9321483');
    expect(await ids('')).not.toContain(id(6));
    const other = await events('', { token: otherToken });
    expect((other.body as { eventID: string }[]).map((e) => e.eventID)).toEqual([id(6)]);
  });

  it.skipIf(!enabled)('filters by every parameter of the standard (AND between them, OR within a list)', async () => {
    expect(await ids('eventType=SHIPMENT')).toEqual([id(1)]);
    expect(await ids('eventType=TRANSPORT,EQUIPMENT')).toEqual([id(2), id(3), id(4), id(5)]);
    expect(await ids('shipmentEventTypeCode=CONF')).toEqual([id(1)]);
    expect(await ids('shipmentEventTypeCode=DRFT,RECE')).toEqual([]);
    expect(await ids('shipmentEventTypeCode=CONF&equipmentEventTypeCode=LOAD')).toEqual([]);
    expect(await ids('documentTypeCode=BKG')).toEqual([id(1)]);
    expect(await ids('carrierBookingReference=BKG200')).toEqual([id(4), id(5)]);
    expect(await ids('bookingReference=BKG200')).toEqual([id(4), id(5)]);
    expect(await ids('transportDocumentReference=MAEUBL100')).toEqual([id(1), id(2), id(3)]);
    expect(await ids('carrierBookingReference=BKG100&transportDocumentReference=MAEUBL200')).toEqual([]);
    expect(await ids('transportEventTypeCode=DEPA')).toEqual([id(4)]);
    expect(await ids('transportCallID=TC-SGSIN-401E')).toEqual([id(2)]);
    expect(await ids(`transportCallID=${encodeURIComponent('at/NLRTM/3/9321483')}`)).toEqual([id(4)]);
    expect(await ids('vesselIMONumber=9321483')).toEqual([id(2), id(3), id(4)]);
    expect(await ids('exportVoyageNumber=401E')).toEqual([id(2), id(3)]);
    expect(await ids('carrierVoyageNumber=402W')).toEqual([id(4)]);
    expect(await ids('carrierServiceCode=AE7')).toEqual([id(2), id(3)]);
    expect(await ids('UNLocationCode=NLRTM')).toEqual([id(3), id(4)]);
    expect(await ids('UNLocationCode=DEHAM')).toEqual([id(5)]);
    expect(await ids('equipmentEventTypeCode=GTOT,DISC')).toEqual([id(5)]);
    expect(await ids(`equipmentReference=${CONTAINER_A}`)).toEqual([id(3)]);
    expect(await ids('carrierCode=MAEU&eventType=SHIPMENT')).toEqual([id(1)]);
    expect(await ids('carrierCode=CMDU')).toEqual([]);
  });

  it.skipIf(!enabled)('bounds eventCreatedDateTime with :gte, :gt, :lte, :lt, :eq and the bare form, in any offset', async () => {
    const at = encodeURIComponent('2024-03-05T10:15:00+01:00');
    expect(await ids(`eventCreatedDateTime:gte=${at}`)).toEqual([id(3), id(4), id(5)]);
    expect(await ids(`eventCreatedDateTime:gt=${at}`)).toEqual([id(4), id(5)]);
    expect(await ids(`eventCreatedDateTime:lte=${at}`)).toEqual([id(1), id(2), id(3)]);
    expect(await ids(`eventCreatedDateTime:lt=${at}`)).toEqual([id(1), id(2)]);
    expect(await ids(`eventCreatedDateTime:eq=${at}`)).toEqual([id(3)]);
    expect(await ids('eventCreatedDateTime=2024-03-05T09:15:00Z')).toEqual([id(3)]);
    expect(await ids(`eventCreatedDateTime:gt=${at}&eventCreatedDateTime:lt=2024-03-07T00:00:00Z`)).toEqual([id(4)]);
  });

  it.skipIf(!enabled)('sorts by eventCreatedDateTime or eventDateTime, ascending or descending', async () => {
    expect(await ids('sort=eventCreatedDateTime:DESC')).toEqual([id(5), id(4), id(3), id(2), id(1)]);
    // eventDateTime: the estimated arrival (e2) is the latest.
    expect(await ids('sort=eventDateTime')).toEqual([id(1), id(3), id(4), id(5), id(2)]);
    expect(await ids('sort=eventDateTime:DESC,eventCreatedDateTime:ASC')).toEqual([id(2), id(5), id(4), id(3), id(1)]);
  });

  it.skipIf(!enabled)('pages with cursors in Current-Page, Next-Page, Prev-Page, First-Page and Last-Page', async () => {
    const page = async (query: string) => {
      const answer = await events(query);
      expect(answer.status).toBe(200);
      const header = (n: string) => answer.headers.get(n);
      return {
        ids: (answer.body as { eventID: string }[]).map((e) => e.eventID),
        current: header('current-page'),
        next: header('next-page'),
        prev: header('prev-page'),
        first: header('first-page'),
        last: header('last-page'),
      };
    };
    const one = await page('limit=2');
    expect(one).toMatchObject({ ids: [id(1), id(2)], prev: null, first: null });
    expect(one.next && one.last && one.current).toBeTruthy();
    const two = await page(`cursor=${one.next}`);
    expect(two.ids).toEqual([id(3), id(4)]);
    expect(two.prev && two.first && two.next && two.last).toBeTruthy();
    const three = await page(`cursor=${two.next}`);
    expect(three).toMatchObject({ ids: [id(5)], next: null, last: null });
    expect((await page(`cursor=${three.prev}`)).ids).toEqual([id(3), id(4)]);
    expect((await page(`cursor=${three.first}`)).ids).toEqual([id(1), id(2)]);
    expect((await page(`cursor=${one.last}`)).ids).toEqual([id(4), id(5)]);
    expect((await page(`cursor=${two.current}`)).ids).toEqual([id(3), id(4)]);
    // The cursor carries the query: sent again with it, or with part of it, the same page; with another, refused.
    expect((await page(`limit=2&cursor=${one.next}`)).ids).toEqual([id(3), id(4)]);
    const filtered = await page('eventType=TRANSPORT,EQUIPMENT&limit=3');
    expect((await page(`eventType=TRANSPORT,EQUIPMENT&cursor=${filtered.next}`)).ids).toEqual([id(5)]);
    expect(await refused(`eventType=SHIPMENT&cursor=${filtered.next}`)).toMatch(/eventType differs from the query the cursor carries/);
    expect(await refused(`limit=3&cursor=${filtered.next}`)).toMatch(/eventType is part of the cursor's query/);
    expect(await refused('cursor=bm90LWEtY3Vyc29y')).toMatch(/cursor is not a page cursor/);
  });

  it.skipIf(!enabled)('walks every event exactly once while new ones are stored between pages', async () => {
    const seen: string[] = [];
    let query = 'limit=2';
    for (let n = 0; n < 10; n++) {
      const answer = await events(query);
      seen.push(...(answer.body as { eventID: string }[]).map((e) => e.eventID));
      if (n === 0) {
        // Created before the page boundary (not seen: the page passed it) and after it (seen once, at the end).
        await f.ingest({
          carrierCode: CARRIER,
          events: [
            rawShipmentEvent(8, {
              shipmentEventTypeCode: 'ISSU',
              documentTypeCode: 'TRD',
              documentID: 'MAEUBL100',
              eventCreatedDateTime: '2024-02-01T00:00:00Z',
            }),
            rawShipmentEvent(9, {
              shipmentEventTypeCode: 'ISSU',
              documentTypeCode: 'TRD',
              documentID: 'MAEUBL100',
              eventCreatedDateTime: '2024-04-01T00:00:00Z',
            }),
          ],
        });
      }
      const next = answer.headers.get('next-page');
      if (!next) break;
      query = `cursor=${next}`;
    }
    expect(seen).toEqual([id(1), id(2), id(3), id(4), id(5), id(9)]);
    expect(await ids('')).toEqual([id(8), id(1), id(2), id(3), id(4), id(5), id(9)]);
  });

  it.skipIf(!enabled)('refuses bad parameters with 400 naming the parameter and what it allows, in the 2.2 error body', async () => {
    expect(await refused('eventType=FOO')).toBe('eventType must list values of SHIPMENT, TRANSPORT, EQUIPMENT');
    expect(await refused('shipmentEventTypeCode=CANC')).toMatch(/^shipmentEventTypeCode must list values of RECE, DRFT, PENA, PENU, REJE/);
    expect(await refused('equipmentEventTypeCode=LOAD,,DISC')).toMatch(/equipmentEventTypeCode must be a comma-separated list/);
    expect(await refused('colour=red')).toMatch(/^Unknown query parameter colour; allowed: eventType, shipmentEventTypeCode/);
    expect(await refused('limit=0')).toBe('limit must be an integer from 1 to 1000');
    expect(await refused('limit=1001')).toBe('limit must be an integer from 1 to 1000');
    expect(await refused('limit=ten')).toBe('limit must be an integer from 1 to 1000');
    expect(await refused('sort=carrierBookingReference:DESC')).toMatch(/^sort must list fields of eventCreatedDateTime, eventDateTime/);
    expect(await refused('eventCreatedDateTime:gte=yesterday')).toMatch(/^eventCreatedDateTime:gte must be an ISO 8601 date-time/);
    expect(await refused('eventCreatedDateTime:after=2024-01-01T00:00:00Z')).toMatch(/^Unknown query parameter eventCreatedDateTime:after/);
    expect(await refused('UNLocationCode=Rotterdam')).toMatch(/^UNLocationCode must be a UN\/LOCODE/);
    expect(await refused('vesselIMONumber=12')).toBe('vesselIMONumber must be an IMO number: 7 digits');
    expect(await refused('eventType=SHIPMENT&eventType=TRANSPORT')).toMatch(/given more than once \(lists are comma-separated\)/);
    expect(await refused('transportDocumentID=3cecb101-7a1a-43a4-9d62-e88a131651e2')).toMatch(
      /not supported; use transportDocumentReference/,
    );
    expect(await refused('bookingReference=BKG100&carrierBookingReference=BKG100')).toMatch(/deprecated name of carrierBookingReference/);
    expect(await refused('', { 'API-Version': '1' })).toMatch(/^API-Version must be 2/);
    expect((await events('', { headers: { 'API-Version': '2' } })).status).toBe(200);
  });

  it.skipIf(!enabled)('answers 401 without a token, 403 without the read scope, 405 to other methods (before any 400)', async () => {
    const none = await events('eventType=FOO', { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const client = await f.app.clients.createClient({ name: 'subscriber only', account: 'acme' });
    await f.app.clients.setScope(client.client_id, 'track-and-trace.subscribe', true);
    const { access_token } = await f.app.tokens.issueToken({ clientId: client.client_id, scope: 'track-and-trace.subscribe' });
    expect((await events('', { token: access_token })).status).toBe(403);
    const post = await checkedAnswer(validator, 'GET', '/v2/events', await f.send('POST', '/v2/events', token));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(post.problems).toEqual([]);
  });

  it.skipIf(!enabled)('is the GraphQL `events` field, with its policy', async () => {
    const query = `{ events(eventType: ["EQUIPMENT"], limit: 1) { events { eventID } nextPage previousPage } }`;
    const body = (await (await f.graphql(query, {}, token)).json()) as {
      data: { events: { events: { eventID: string }[]; nextPage: string } };
    };
    expect(body.data.events.events).toEqual([{ eventID: id(3) }]);
    const next = (await (
      await f.graphql(`{ events(cursor: "${body.data.events.nextPage}") { events { eventID } } }`, {}, token)
    ).json()) as {
      data: { events: { events: unknown[] } };
    };
    expect(next.data.events.events).toEqual([{ eventID: id(5) }]);
    const anonymous = (await (await f.graphql(query)).json()) as { errors: { extensions: { code: string } }[] };
    expect(anonymous.errors[0]?.extensions.code).toBe('UNAUTHENTICATED');
  });
});
