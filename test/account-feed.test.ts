import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app/create-app.js';
import { createLogger } from '../src/observability/logger.js';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';

/**
 * The account change feed and the shipments connection (issue 21, docs/account-feed.md) on each store:
 * without a cursor every visible shipment once; from a saved cursor only what changed later; another
 * tenant's shipments never; filters of the connection.
 */

const MINE = 'acct-feed-mine';
const THEIRS = 'acct-feed-theirs';
const SHIPMENTS = 23;

let n = 0;
function event(booking: string, classifier: 'PLN' | 'EST' | 'ACT', at: string, code = 'ARRI') {
  n++;
  return {
    eventID: `0fee0000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    eventType: 'TRANSPORT',
    eventClassifierCode: classifier,
    eventDateTime: at,
    eventCreatedDateTime: '2026-10-01T00:00:00Z',
    transportEventTypeCode: code,
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: booking }],
    transportCall: {
      transportCallID: `TC-${booking}`,
      modeOfTransport: 'VESSEL',
      UNLocationCode: 'SGSIN',
      vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
    },
  };
}
const shipment = (booking: string, accounts: string[], carrierCode = 'EGLV') => ({
  carrierBookingReference: booking,
  billOfLadingNumber: `BL${booking.replace(/-/g, '')}`,
  carrierCode,
  portOfLoading: { unLocationCode: 'CNSHA' },
  portOfDischarge: { unLocationCode: 'SGSIN' },
  accounts,
});

interface Entry {
  carrierCode: string;
  carrierBookingReference: string;
  billOfLadingNumber?: string;
  version: number;
  changedDateTime: string;
  changes: { triggerType: string; triggeredByEvent?: string; exceptionID?: string; exceptionType?: string }[];
  shipmentTracking?: { carrierBookingReference: string; transportEvents: unknown[] };
}
interface Page {
  changes: Entry[];
  next: string;
  hasMore: boolean;
}

describe.each(dialects)('account change feed on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  let theirToken: string;

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    ({ token } = await f.tokenFor(MINE));
    ({ token: theirToken } = await f.tokenFor(THEIRS));
    const mine = Array.from({ length: SHIPMENTS }, (_, i) => shipment(`FEED-${i}`, [MINE], i % 2 === 0 ? 'EGLV' : 'MAEU'));
    await f.ingest({ carrierCode: 'EGLV', shipments: [...mine.filter((s) => s.carrierCode === 'EGLV'), shipment('THEIRS-1', [THEIRS])] });
    await f.ingest({ carrierCode: 'MAEU', shipments: mine.filter((s) => s.carrierCode === 'MAEU') });
    await f.ingest({
      carrierCode: 'EGLV',
      events: [event('FEED-0', 'PLN', '2026-10-20T06:00:00.000Z'), event('THEIRS-1', 'PLN', '2026-10-20T06:00:00.000Z')],
    });
  });
  afterAll(async () => {
    await f?.destroy();
  });

  async function page(path: string, as = token): Promise<Page> {
    const response = await f.get(path, as);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Page;
  }

  /** Follows `next` from `path` until hasMore is false: every entry, and the cursor to poll next. */
  async function readAll(limit: number, after?: string, as = token): Promise<{ entries: Entry[]; next: string; pages: number }> {
    const entries: Entry[] = [];
    let cursor = after;
    for (let pages = 1; ; pages++) {
      const p = await page(`/v2/changes?limit=${limit}${cursor ? `&after=${cursor}` : ''}`, as);
      entries.push(...p.changes);
      cursor = p.next;
      if (!p.hasMore) return { entries, next: p.next, pages };
      expect(pages).toBeLessThan(100);
    }
  }

  it.skipIf(!enabled)('pages through every visible shipment exactly once without a cursor, at its latest version', async () => {
    const { entries, pages } = await readAll(5);
    expect(pages).toBe(Math.ceil(SHIPMENTS / 5));
    const bookings = entries.map((e) => e.carrierBookingReference);
    expect(new Set(bookings).size).toBe(bookings.length);
    expect(bookings.sort()).toEqual(Array.from({ length: SHIPMENTS }, (_, i) => `FEED-${i}`).sort());
    expect(bookings).not.toContain('THEIRS-1');
    for (const e of entries) expect(e.changes).toEqual([]);
    const lookedUp = await f.get('/v2/shipments?carrierCode=EGLV&carrierBookingReference=FEED-0', token);
    const etag = lookedUp.headers.get('etag');
    const first = entries.find((e) => e.carrierBookingReference === 'FEED-0') as Entry;
    expect(first.version).toBeGreaterThan(1);
    expect(etag).toBeTruthy();
  });

  it.skipIf(!enabled)('from a saved cursor returns only the changes committed after it, with what changed', async () => {
    const { next: saved } = await readAll(100);
    expect((await page(`/v2/changes?after=${saved}`)).changes).toEqual([]);
    await f.ingest({
      carrierCode: 'EGLV',
      events: [
        event('FEED-2', 'PLN', '2026-10-21T06:00:00.000Z'),
        event('FEED-4', 'ACT', '2026-10-21T07:00:00.000Z'),
        event('THEIRS-1', 'ACT', '2026-10-20T06:00:00.000Z'),
      ],
    });
    const { entries, next } = await readAll(100, saved);
    expect(entries.map((e) => e.carrierBookingReference).sort()).toEqual(['FEED-2', 'FEED-4']);
    for (const e of entries) {
      expect(e.changes.map((c) => c.triggerType)).toContain('EVENT_TRIGGER');
      expect(e.changedDateTime).toMatch(/Z$/);
    }
    // Read again from the same saved cursor: the same answer (a cursor is a position, not a session).
    expect((await readAll(100, saved)).entries.map((e) => e.carrierBookingReference).sort()).toEqual(['FEED-2', 'FEED-4']);
    // And the cursor after them: nothing new.
    expect((await page(`/v2/changes?after=${next}`)).changes).toEqual([]);
  });

  it.skipIf(!enabled)('reads a saved cursor the same on another instance of the service', async () => {
    const { next: saved } = await readAll(100);
    await f.ingest({ carrierCode: 'EGLV', events: [event('FEED-20', 'PLN', '2026-10-22T06:00:00.000Z')] });
    const other = await createApp({ config: f.config, database: f.t.database, logger: createLogger('silent'), clientCacheTtlMs: 0 });
    try {
      const response = await other.fetch(`${BASE}/v2/changes?after=${saved}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      const fromOther = (await response.json()) as Page;
      const fromThis = await page(`/v2/changes?after=${saved}`);
      expect(fromOther).toEqual(fromThis);
      expect(fromOther.changes.map((e) => e.carrierBookingReference)).toEqual(['FEED-20']);
    } finally {
      await other.close();
    }
  });

  it.skipIf(!enabled)('pages through changes with small pages, none lost or repeated, and includes snapshots on request', async () => {
    const { next: saved } = await readAll(100);
    // Shipments with no event yet: each event is a newly reported milestone, so one change each.
    const events = Array.from({ length: 7 }, (_, i) => event(`FEED-${6 + 2 * i}`, 'PLN', `2026-10-2${i}T06:00:00.000Z`));
    for (const e of events) await f.ingest({ carrierCode: 'EGLV', events: [e] });
    const { entries, pages } = await readAll(2, saved);
    expect(pages).toBeGreaterThanOrEqual(4);
    const triggers = entries.flatMap((e) => e.changes.map((c) => c.triggeredByEvent));
    expect(triggers.sort()).toEqual(events.map((e) => e.eventID).sort());
    const withSnapshots = await page(`/v2/changes?after=${saved}&include=snapshot&limit=50`);
    expect(withSnapshots.changes.length).toBeGreaterThan(0);
    for (const e of withSnapshots.changes) expect(e.shipmentTracking?.carrierBookingReference).toBe(e.carrierBookingReference);
    const plain = await page(`/v2/changes?after=${saved}&limit=50`);
    expect(plain.changes.map((e) => e.carrierBookingReference)).toEqual(withSnapshots.changes.map((e) => e.carrierBookingReference));
    expect(plain.changes[0]?.shipmentTracking).toBeUndefined();
  });

  it.skipIf(!enabled)("never shows another tenant's shipments: 404 on lookup, absent from the feed and the connection", async () => {
    expect((await f.get('/v2/shipments?carrierCode=EGLV&carrierBookingReference=THEIRS-1', token)).status).toBe(404);
    const theirs = await readAll(100, undefined, theirToken);
    expect(theirs.entries.map((e) => e.carrierBookingReference)).toEqual(['THEIRS-1']);
    const mine = await readAll(100);
    expect(mine.entries.map((e) => e.carrierBookingReference)).not.toContain('THEIRS-1');
    // Their cursor read with my token still shows only mine.
    const fromTheirCursor = await readAll(100, theirs.next);
    expect(fromTheirCursor.entries.map((e) => e.carrierBookingReference)).not.toContain('THEIRS-1');
    const connection = await f.graphql('{ shipments(first: 500) { nodes { carrierBookingReference } } }', {}, token);
    const nodes = ((await connection.json()) as { data: { shipments: { nodes: { carrierBookingReference: string }[] } } }).data.shipments
      .nodes;
    expect(nodes.map((s) => s.carrierBookingReference)).not.toContain('THEIRS-1');
    expect(nodes).toHaveLength(SHIPMENTS);
  });

  it.skipIf(!enabled)('refuses bad input with 400 and a clear message, and asks for a token first', async () => {
    for (const query of ['after=not-a-cursor', 'limit=0', 'limit=1001', 'include=everything', 'bogus=1', 'limit=5&limit=6']) {
      const response = await f.get(`/v2/changes?${query}`, token);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { errors: { errorCodeMessage: string }[] };
      expect(body.errors[0]?.errorCodeMessage, query).toBeTruthy();
    }
    expect((await f.get('/v2/changes?include=snapshot&limit=101', token)).status).toBe(400);
    expect((await f.get('/v2/changes?bogus=1')).status).toBe(401);
    expect((await f.get('/v2/changes')).status).toBe(401);
  });

  it.skipIf(!enabled)('serves the same feed in GraphQL, snapshots loaded only when selected and bounded per page', async () => {
    const rest = await readAll(100);
    const response = await f.graphql(
      '{ accountChanges(limit: 1000) { changes { carrierBookingReference version changes { triggerType } } next hasMore } }',
      {},
      token,
    );
    const body = (await response.json()) as { data: { accountChanges: Page } };
    expect(body.data.accountChanges.hasMore).toBe(false);
    expect(body.data.accountChanges.changes.map((e) => e.carrierBookingReference)).toEqual(
      rest.entries.map((e) => e.carrierBookingReference),
    );
    const tooMany = await f.graphql(
      'query { accountChanges(limit: 101) { ...Entries } } fragment Entries on AccountChangePage { changes { shipmentTracking { eta } } }',
      {},
      token,
    );
    const refused = (await tooMany.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(refused.errors[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(refused.errors[0]?.message).toContain('at most 100');
    const withSnapshots = await f.graphql(
      '{ accountChanges(limit: 3) { changes { carrierBookingReference shipmentTracking { carrierBookingReference } } } }',
      {},
      token,
    );
    const entries = ((await withSnapshots.json()) as { data: { accountChanges: Page } }).data.accountChanges.changes;
    expect(entries).toHaveLength(3);
    for (const e of entries) expect(e.shipmentTracking?.carrierBookingReference).toBe(e.carrierBookingReference);
  });

  it.skipIf(!enabled)('the GraphQL connection pages in a stable order and filters by carrier, open exception and update time', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i++) {
      const response = await f.graphql(
        'query($after: String) { shipments(first: 4, after: $after) { nodes { carrierBookingReference version updatedDateTime } pageInfo { endCursor hasNextPage } } }',
        { after },
        token,
      );
      const body = (await response.json()) as {
        data: { shipments: { nodes: { carrierBookingReference: string }[]; pageInfo: { endCursor: string; hasNextPage: boolean } } };
      };
      seen.push(...body.data.shipments.nodes.map((s) => s.carrierBookingReference));
      if (!body.data.shipments.pageInfo.hasNextPage) break;
      after = body.data.shipments.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(SHIPMENTS);
    expect(new Set(seen).size).toBe(SHIPMENTS);

    const maeu = await f.graphql('{ shipments(first: 500, carrierCode: "MAEU") { nodes { carrierCode } } }', {}, token);
    const maeuNodes = ((await maeu.json()) as { data: { shipments: { nodes: { carrierCode: string }[] } } }).data.shipments.nodes;
    expect(maeuNodes.length).toBe(Math.floor(SHIPMENTS / 2));
    expect(new Set(maeuNodes.map((s) => s.carrierCode))).toEqual(new Set(['MAEU']));

    const future = await f.graphql('{ shipments(updatedSince: "2999-01-01T00:00:00Z") { nodes { carrierCode } } }', {}, token);
    expect(((await future.json()) as { data: { shipments: { nodes: unknown[] } } }).data.shipments.nodes).toEqual([]);

    const open = await f.graphql('{ shipments(exceptionType: ETA_DELAY) { nodes { carrierBookingReference } } }', {}, token);
    const openNodes = ((await open.json()) as { data: { shipments: { nodes: unknown[] } } }).data.shipments.nodes;
    expect(openNodes).toEqual([]);

    const bad = await f.graphql('{ shipments(after: "nope") { nodes { carrierCode } } }', {}, token);
    expect(((await bad.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe('BAD_USER_INPUT');
  });
});
