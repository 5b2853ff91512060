import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeAccountAccess } from '../src/store/access/shipment-access.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * `extensions.cost` on a GraphQL subscription's events (issue 50, docs/graphql.md: Cost): every event of a
 * `shipmentUpdates` stream over SSE, the changes it carries and the error that ends it, says what the document
 * costs by the documented formula, and the quota as subscribing left it (events count nothing).
 */
const CARRIER = 'EGLV';
const BOOKING = 'COST-1';
const BL = 'COSTBL1';
const ACCOUNT = 'acct-cost';

/**
 * Its declared cost, by docs/graphql.md's formula: triggerType 1 + triggeredByEvent 1 = 2, transmissionHeader
 * 2 + 1.5 × 2 = 5; eta 1, shipmentTracking 2 + 1.5 × 1 = 3.5; shipmentUpdates 2 + 1.5 × (5 + 3.5) = 14.75: 15.
 */
const DOCUMENT = `subscription {
  shipmentUpdates(billOfLadingNumber: "${BL}") {
    transmissionHeader { triggerType triggeredByEvent }
    shipmentTracking { eta }
  }
}`;
const DECLARED_COST = 15;

let n = 0;
const arrival = (classifier: 'PLN' | 'EST' | 'ACT', at: string) => ({
  eventID: `c0570000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  eventType: 'TRANSPORT',
  eventClassifierCode: classifier,
  eventDateTime: at,
  eventCreatedDateTime: '2026-10-01T00:00:00Z',
  transportEventTypeCode: 'ARRI',
  documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: BOOKING }],
  transportCall: {
    transportCallID: `TC-COST-${n}`,
    modeOfTransport: 'VESSEL',
    UNLocationCode: 'NLRTM',
    vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
  },
});

interface SseEvent {
  event: string;
  data: any;
}

/** The server-sent events of a response, in order (keep-alive comments skipped). */
async function* sse(response: Response): AsyncGenerator<SseEvent> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const event = lines
        .find((l) => l.startsWith('event:'))
        ?.slice(6)
        .trim();
      if (!event) continue;
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('');
      yield { event, data: data ? JSON.parse(data) : null };
    }
  }
}

/** The next event, or a failure naming what was awaited after `ms` (a harness budget, not a speed assertion). */
async function next(events: AsyncGenerator<SseEvent>, what: string, ms = 20_000): Promise<SseEvent> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what}`)), ms)));
  try {
    const result = await Promise.race([events.next(), timeout]);
    if (result.done) throw new Error(`the stream ended before ${what}`);
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}

describe.each(dialects)('extensions.cost on subscription events, on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let f: TestApp;

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    f = await createTestApp(name, { testDatabase: t, config: testConfig({ TT_DELIVERY_POLL_MS: '100' }), streamCheckMs: 100 });
    await f.ingest({
      carrierCode: CARRIER,
      shipments: [
        {
          carrierBookingReference: BOOKING,
          billOfLadingNumber: BL,
          carrierCode: CARRIER,
          portOfLoading: { unLocationCode: 'CNSHA' },
          portOfDischarge: { unLocationCode: 'NLRTM' },
          accounts: [ACCOUNT],
        },
      ],
      events: [arrival('PLN', '2026-10-20T06:00:00Z')],
    });
  });
  afterAll(async () => {
    await f?.destroy();
    await t?.destroy();
  });

  it.skipIf(!enabled)('every event of a stream, the one that ends it included, carries the cost its document declares', async () => {
    const { token } = await f.tokenFor(ACCOUNT);
    const abort = new AbortController();
    try {
      const response = await f.app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: DOCUMENT }),
        signal: abort.signal,
      });
      expect(response.status).toBe(200);
      const events = sse(response);
      // Give the stream its starting point in the change log before the changes are committed.
      await new Promise((resolve) => setTimeout(resolve, 300));

      // Two changes, committed one after the other: a new estimated arrival (a new milestone, and an ETA delay),
      // then the actual arrival.
      const estimated = arrival('EST', '2026-10-21T20:00:00Z');
      await f.ingest({ carrierCode: CARRIER, events: [estimated] });
      const first = await next(events, 'event of the first change');
      const actual = arrival('ACT', '2026-10-21T22:00:00Z');
      await f.ingest({ carrierCode: CARRIER, events: [actual] });
      let second = await next(events, 'event of the second change');
      // The first change may be carried by more than one event (one per transition): read on to the second one's.
      while (second.data.data?.shipmentUpdates.transmissionHeader.triggeredByEvent !== actual.eventID) {
        second = await next(events, 'event of the second change');
      }
      expect(first.data.data.shipmentUpdates.transmissionHeader.triggeredByEvent).toBe(estimated.eventID);

      // Access ends: the stream's last event is the error saying so.
      await revokeAccountAccess(
        t.database.db,
        t.database.dialect,
        { carrierCode: CARRIER, carrierBookingReference: BOOKING },
        ACCOUNT,
        'the cost test is over',
        new Date(),
      );
      let last = await next(events, 'the final error');
      while (last.data.data !== null) last = await next(events, 'the final error');
      expect(last.data.errors[0].extensions.code).toBe('FORBIDDEN');

      const costs = [first, second, last].map((e) => e.data.extensions?.cost);
      for (const cost of costs) {
        expect(cost).toMatchObject({
          requestedQueryCost: DECLARED_COST,
          maximumQueryCost: f.config.graphql.limits.maxCost,
          // Counted once, when subscribing: one lookups point for its one root field.
          throttleStatus: { quota: 'lookups', cost: 1 },
        });
      }
      // Events count nothing: each repeats the figure subscribing left, not a quota read per event.
      expect(costs[1]).toEqual(costs[0]);
      expect(costs[2]).toEqual(costs[0]);
    } finally {
      abort.abort();
    }
  });

  it.skipIf(!enabled)('a subscription refused before its stream starts carries the cost too, as a refused query does', async () => {
    const subscribe = (token: string | null) =>
      f.app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'text/event-stream',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ query: DOCUMENT }),
      });
    const firstOf = async (response: Response) => {
      const events = sse(response);
      const event = await next(events, 'the refusal');
      void events.return(undefined);
      return event.data;
    };
    // No token: UNAUTHENTICATED, nothing counted, so the document's cost alone (as a refused query answers).
    const anonymous = await firstOf(await subscribe(null));
    expect(anonymous.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(anonymous.extensions?.cost).toEqual({ requestedQueryCost: DECLARED_COST, maximumQueryCost: f.config.graphql.limits.maxCost });
    // A shipment the account does not see: NOT_FOUND, after the subscription counted its lookup.
    const stranger = await f.tokenFor('acct-cost-stranger');
    const unseen = await firstOf(await subscribe(stranger.token));
    expect(unseen.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(unseen.extensions?.cost).toMatchObject({
      requestedQueryCost: DECLARED_COST,
      maximumQueryCost: f.config.graphql.limits.maxCost,
      throttleStatus: { quota: 'lookups', cost: 1 },
    });
  });
});
