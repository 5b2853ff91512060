import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventsAuth } from '../src/carriers/carrier-config.js';
import { CarrierStore } from '../src/carriers/carrier-store.js';
import { CarrierPoller, type CarrierPollerOptions } from '../src/carriers/poller.js';
import { readPollState, takeLease } from '../src/store/carriers/poll-state.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { testConfig } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { FakeDcsaPublisher, type FakePublisherOptions } from './support/fake-dcsa-publisher.js';
import { CARRIER, CONTAINER_A, eventId, rawEquipmentEvent, rawShipment, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * The carrier poller against a fake DCSA publisher on loopback, on each
 * store: pages, retries after 429 and 5xx, resuming from the watermark after
 * a kill with nothing lost or doubled, the lease, credentials.
 */

const START = Date.parse('2024-03-01T00:00:00Z');
const OFFSETS = [8 * 60, -5 * 60, 0];

/** `ms` as a carrier's local time with an offset of `minutes` (DCSA timestamps are local). */
function local(ms: number, minutes: number): string {
  if (minutes === 0) return new Date(ms).toISOString().replace('.000Z', 'Z');
  const shifted = new Date(ms + minutes * 60_000).toISOString().slice(0, 19);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${shifted}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Event i of the feed: created i minutes after START, alternately a vessel estimate and a container move. */
function published(i: number): Record<string, unknown> {
  const createdMs = START + i * 60_000;
  const created = local(createdMs, OFFSETS[i % 3] ?? 0);
  if (i % 2 === 0) {
    return rawTransportEvent(1000 + i, { eventCreatedDateTime: created, eventDateTime: local(createdMs + 20 * 86_400_000, 8 * 60) });
  }
  return rawEquipmentEvent(1000 + i, {
    eventCreatedDateTime: created,
    eventDateTime: local(createdMs - 600_000, 60),
    equipmentReference: CONTAINER_A,
  });
}
const createdAt = (i: number) => new Date(START + i * 60_000).toISOString();

describe.each(dialects)('carrier poller on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let publisher: FakeDcsaPublisher;
  let carriers: CarrierStore;
  const config = testConfig({ TT_CARRIER_POLL_PAGE_SIZE: '40' });
  const sleeps: number[] = [];

  async function setUp(
    options: FakePublisherOptions = {},
    auth: (p: FakeDcsaPublisher) => EventsAuth = () => ({ kind: 'api-key', header: 'X-API-Key', value: 'k-123' }),
    count = 250,
  ) {
    publisher = await FakeDcsaPublisher.start({ apiKey: { header: 'X-API-Key', value: 'k-123' }, ...options });
    publisher.events = Array.from({ length: count }, (_, i) => published(i));
    t = await createTestDatabase(name);
    carriers = new CarrierStore(t.database.db, 'p'.repeat(32), config);
    await carriers.addCarrier({
      carrierCode: CARRIER,
      eventsUrl: publisher.eventsUrl,
      auth: auth(publisher),
      pollSince: '2024-02-01T00:00:00Z',
    });
    const master = parseBundle({ carrierCode: CARRIER, shipments: [rawShipment()] });
    if (!master.ok) throw new Error('bundle');
    await ingestBundle(t.database, master.bundle, { now: () => new Date() });
    sleeps.length = 0;
  }
  afterEach(async () => {
    await publisher?.close();
    await t?.destroy();
  });

  function poller(options: Partial<CarrierPollerOptions> = {}): CarrierPoller {
    return new CarrierPoller({
      database: t.database,
      carriers,
      config,
      log: () => undefined,
      sleep: async (ms) => void sleeps.push(ms),
      leaseMs: 60_000,
      ...options,
    });
  }
  async function storedEvents(): Promise<string[]> {
    return (await t.database.db.selectFrom('event').select('event_id').orderBy('event_id').execute()).map((r) => r.event_id);
  }
  const allIds = (count: number) => Array.from({ length: count }, (_, i) => eventId(1000 + i)).sort();

  it.skipIf(!enabled)(
    'takes every page, surviving a 429 and a 500 in the middle, and moves the watermark to the newest event',
    async () => {
      await setUp();
      publisher.script = { 2: { status: 429, retryAfter: '1' }, 5: { status: 500 } };
      const [result] = await poller().runOnce({ force: true });
      expect(result).toMatchObject({
        carrierCode: CARRIER,
        pages: 7,
        events: 250,
        eventsStored: 250,
        eventsRejected: 0,
        retries: 2,
        error: null,
      });
      // Retry-After: 1 honoured; the 500 without one waits the first backoff step.
      expect(sleeps).toEqual([1000, 1000]);
      expect(publisher.requests).toHaveLength(9);
      expect(publisher.requests[0]).toBe(`/v2/events?eventCreatedDateTime:gte=${encodeURIComponent('2024-01-31T23:55:00.000Z')}&limit=40`);
      expect(publisher.requests[3]).toBe(publisher.requests[2]);
      expect(await storedEvents()).toEqual(allIds(250));
      const state = await readPollState(t.database.db, CARRIER);
      expect(state).toMatchObject({ watermark: createdAt(249), lease_owner: null, last_error: null, events_polled: 250 });

      // The next run asks from the watermark minus the overlap, and stores nothing twice.
      publisher.events.push(published(250));
      const [next] = await poller().runOnce({ force: true });
      expect(publisher.requests.at(-1)).toBe(
        `/v2/events?eventCreatedDateTime:gte=${encodeURIComponent(new Date(START + 244 * 60_000).toISOString())}&limit=40`,
      );
      expect(next).toMatchObject({ pages: 1, events: 7, eventsStored: 1, eventsAlreadyStored: 6 });
      expect(await storedEvents()).toEqual(allIds(251));
    },
  );

  it.skipIf(!enabled)(
    'restarts from its watermark after a kill, with nothing lost and nothing doubled; one poller per carrier',
    async () => {
      await setUp();
      let reached!: () => void;
      const killed = new Promise<void>((resolve) => (reached = resolve));
      // Poller A dies during page 3, after its commit and before its watermark moved (the worst moment).
      const a = poller({ onPage: (_code, _summary, page) => (page === 3 ? (reached(), new Promise<never>(() => undefined)) : undefined) });
      void a.runOnce({ force: true });
      await killed;
      expect(await storedEvents()).toHaveLength(120);
      expect((await readPollState(t.database.db, CARRIER))?.watermark).toBe(createdAt(79));

      // While A's lease runs, no other poller takes the carrier.
      expect(await poller().runOnce({ force: true })).toEqual([]);
      expect(await takeLease(t.database.db, CARRIER, 'someone-else', new Date(), 60_000, true)).toBe(false);

      // After it expires, B takes over from the watermark minus the overlap.
      const later = () => new Date(Date.now() + 61_000);
      const requestsBefore = publisher.requests.length;
      const [b] = await poller({ now: later }).runOnce({ force: true });
      expect(publisher.requests[requestsBefore]).toContain(`gte=${encodeURIComponent(new Date(START + 74 * 60_000).toISOString())}`);
      expect(b).toMatchObject({ events: 176, eventsStored: 130, eventsAlreadyStored: 46, error: null, watermark: createdAt(249) });
      expect(await storedEvents()).toEqual(allIds(250));
    },
  );

  it.skipIf(!enabled)('ends the run on a long Retry-After and schedules the next poll after it', async () => {
    await setUp();
    publisher.script = { 0: { status: 503, retryAfter: '3600' } };
    const before = Date.now();
    const [result] = await poller().runOnce({ force: true });
    expect(result).toMatchObject({ pages: 0, retries: 0, error: expect.stringContaining('503') });
    const state = await readPollState(t.database.db, CARRIER);
    expect(state).toMatchObject({ watermark: '2024-02-01T00:00:00.000Z', lease_owner: null, consecutive_failures: 1 });
    expect(Date.parse(state!.next_poll_at)).toBeGreaterThanOrEqual(before + 3_600_000);
    // Not due: a run that is not forced leaves it alone.
    expect(await poller().runOnce()).toEqual([]);
  });

  it.skipIf(!enabled)('gets an OAuth2 token once and follows Next-Page-Cursor', async () => {
    await setUp(
      { apiKey: undefined, oauth: { clientId: 'tt', clientSecret: 's3cret' }, nextPage: 'Next-Page-Cursor' },
      (p) => ({ kind: 'oauth2', tokenUrl: p.tokenUrl, clientId: 'tt', clientSecret: 's3cret' }),
      100,
    );
    const [result] = await poller().runOnce({ force: true });
    expect(result).toMatchObject({ pages: 3, eventsStored: 100, error: null });
    expect(publisher.tokensIssued).toBe(1);
    expect(publisher.requests[1]).toMatch(/^\/v2\/events\?cursor=/);
  });

  it.skipIf(!enabled)('follows Next-Page links, and from an unordered feed moves the watermark only at the end', async () => {
    await setUp({ nextPage: 'Next-Page-Link', unordered: true }, undefined, 0);
    publisher.events = Array.from({ length: 90 }, (_, i) => published(89 - i));
    const pages: (string | undefined)[] = [];
    const [result] = await poller({
      onPage: async () => void pages.push((await readPollState(t.database.db, CARRIER))?.watermark),
    }).runOnce({ force: true });
    expect(result).toMatchObject({ pages: 3, eventsStored: 90, watermark: createdAt(89) });
    // The feed comes newest first: the order breaks on page 1, so the watermark never moved mid-run.
    expect(pages).toEqual(['2024-02-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z']);
  });

  it.skipIf(!enabled)('leaves out an invalid event of a page, stores the rest, and skips disabled carriers', async () => {
    await setUp(undefined, undefined, 10);
    publisher.events[3] = { ...publisher.events[3], eventDateTime: 'yesterday' };
    const [result] = await poller().runOnce({ force: true });
    expect(result).toMatchObject({ events: 10, eventsStored: 9, eventsRejected: 1, error: null });
    await carriers.disableCarrier(CARRIER);
    expect(await poller().runOnce({ force: true })).toEqual([]);
  });
});

describe('fake publisher sanity', () => {
  let publisher: FakeDcsaPublisher;
  beforeAll(async () => {
    publisher = await FakeDcsaPublisher.start();
    publisher.events = [published(0)];
  });
  afterAll(async () => publisher.close());

  it('answers GET /v2/events with a JSON array and the DCSA headers', async () => {
    const response = await fetch(`${publisher.eventsUrl}?limit=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('api-version')).toBe('2.2.0');
    expect(response.headers.get('current-page')).toBeTruthy();
    expect(await response.json()).toHaveLength(1);
  });
});
