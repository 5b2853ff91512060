import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccessCheck } from '../src/auth/access-check.js';
import { ChangeFeed } from '../src/push/change-feed.js';
import { LiveStreams } from '../src/push/live-streams.js';
import { SUBSCRIBE_SCOPE } from '../src/auth/scopes.js';
import { retireSigningKey } from '../src/store/housekeeping/service-secrets.js';
import { grantAccountAccess, revokeAccountAccess } from '../src/store/access/shipment-access.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { TEST_REDIS_URL, uniquePrefix } from './support/rate-limit-stores.js';
import { runCaptured } from './support/cli-run.js';

/**
 * Streams that end when access ends (issue 27, README "Live updates"): a GraphQL subscription over SSE asks
 * the access check again at its cadence and, once its holder may no longer see the shipment, sends a last
 * event with the error saying why and completes: when the client is disabled, its token expires, the key that
 * signed it is retired, a scope it needs is taken back, or the account's access to the shipment is revoked;
 * also when the change is made through another instance. A client holds at most TT_STREAMS_PER_CLIENT_MAX.
 */
const CARRIER = 'EGLV';
const BOOKING = 'STREAM-1';
const BL = 'STREAMBL1';
const ACCOUNT = 'acct-stream';
const QUERY = `subscription { shipmentUpdates(billOfLadingNumber: "${BL}") { transmissionHeader { triggerType } } }`;

interface SseEvent {
  event: string;
  data: any;
}

/** The server-sent events of a response, in order, until the stream completes or the test drops it. */
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
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n');
      const event = lines
        .find((l) => l.startsWith('event:'))
        ?.slice(6)
        .trim();
      if (!event) continue; // a keep-alive comment
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('');
      yield { event, data: data ? JSON.parse(data) : null };
    }
  }
}

/** The events up to the stream's end; fails the test when it does not end within `ms` (a generous harness budget). */
async function untilEnd(events: AsyncGenerator<SseEvent>, ms = 20_000): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`the stream did not end: ${JSON.stringify(seen)}`)), ms),
  );
  const read = (async () => {
    for await (const e of events) {
      seen.push(e);
      if (e.event === 'complete') break;
    }
    return seen;
  })();
  return Promise.race([read, timeout]);
}

const bundle = {
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
  events: [],
};

describe.each(dialects)('streams end when access ends, on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let f: TestApp;
  let other: TestApp | undefined;
  let clockOffsetMs = 0;
  const now = () => new Date(Date.now() + clockOffsetMs);
  const open: AbortController[] = [];

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    const redis: Record<string, string> = TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL, TT_RATE_LIMIT_PREFIX: uniquePrefix() } : {};
    f = await createTestApp(name, {
      testDatabase: t,
      config: testConfig({ TT_STREAMS_PER_CLIENT_MAX: '3', ...redis }),
      streamCheckMs: 100,
      now,
    });
    await f.ingest(bundle);
  });
  afterEach(() => {
    for (const a of open.splice(0)) a.abort();
  });
  afterAll(async () => {
    await other?.destroy();
    await f?.destroy();
    await t?.destroy();
  });

  async function subscribe(app: TestApp, token: string): Promise<Response> {
    const abort = new AbortController();
    open.push(abort);
    return app.app.fetch(`${BASE}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: QUERY }),
      signal: abort.signal,
    });
  }

  /** A stream of a fresh client of ACCOUNT, open (its status checked). */
  async function openStream(app: TestApp = f) {
    const client = await f.tokenFor(ACCOUNT);
    const response = await subscribe(app, client.token);
    expect(response.status).toBe(200);
    return { ...client, events: sse(response) };
  }

  function expectFinalError(events: SseEvent[], code: string, message: RegExp) {
    expect(events.map((e) => e.event)).toEqual(['next', 'complete']);
    expect(events[0]!.data.data).toBeNull();
    expect(events[0]!.data.errors).toHaveLength(1);
    expect(events[0]!.data.errors[0].message).toMatch(message);
    expect(events[0]!.data.errors[0].extensions.code).toBe(code);
  }

  it.skipIf(!enabled)('a disabled client: its stream ends with UNAUTHENTICATED', async () => {
    const { clientId, events } = await openStream();
    await f.app.clients.disableClient(clientId);
    expectFinalError(await untilEnd(events), 'UNAUTHENTICATED', /disabled/);
  });

  it.skipIf(!enabled)("the account's access to the shipment revoked: its stream ends with FORBIDDEN, others go on", async () => {
    const keep = await f.tokenFor('acct-stays');
    await grantAccountAccess(t.database.db, t.database.dialect, { carrierCode: CARRIER, carrierBookingReference: BOOKING }, 'acct-stays');
    const staying = sse(await subscribe(f, keep.token));
    const { events } = await openStream();
    await revokeAccountAccess(
      t.database.db,
      t.database.dialect,
      { carrierCode: CARRIER, carrierBookingReference: BOOKING },
      ACCOUNT,
      'customer changed forwarder',
      new Date(),
    );
    try {
      expectFinalError(await untilEnd(events), 'FORBIDDEN', /access to the shipment was revoked/);
      // The other account's stream is still open: its holder may still see the shipment.
      expect(f.app.services.streams.openOf(keep.clientId)).toBe(1);
    } finally {
      await grantAccountAccess(t.database.db, t.database.dialect, { carrierCode: CARRIER, carrierBookingReference: BOOKING }, ACCOUNT);
      void staying.return(undefined);
    }
  });

  it.skipIf(!enabled)('a scope taken back: the access check says FORBIDDEN for what needs it', async () => {
    const { clientId, token } = await f.tokenFor(ACCOUNT, { subscribe: true });
    const verified = await f.app.tokens.verifyToken(token);
    const grant = { clientId, kid: verified.kid, expiresAt: verified.expiresAt, scopes: verified.scopes };
    const access = new AccessCheck(f.app.clients, t.database.db, { ttlMs: 0 });
    const shipmentId = (
      await t.database.db.selectFrom('shipment').select('id').where('carrier_booking_reference', '=', BOOKING).executeTakeFirstOrThrow()
    ).id;
    expect(await access.mayStillSee(grant, SUBSCRIBE_SCOPE, shipmentId)).toBeNull();
    await f.app.clients.setScope(clientId, SUBSCRIBE_SCOPE, false);
    expect(await access.mayStillSee(grant, SUBSCRIBE_SCOPE, shipmentId)).toEqual({
      code: 'FORBIDDEN',
      message: `the client no longer holds the ${SUBSCRIBE_SCOPE} scope`,
    });
    // Lookups see the same: the token no longer carries the scope (webhook management answers 403).
    const list = await f.get('/v2/subscriptions', token);
    expect(list.status).toBe(403);
  });

  it.skipIf(!enabled)('a scope granted counts at once for a token issued after the grant, whatever the cache holds', async () => {
    const { clientId, clientSecret, token: before } = await f.tokenFor(ACCOUNT);
    const access = new AccessCheck(f.app.clients, t.database.db, { ttlMs: 5000 });
    const grantOf = async (token: string) => {
      const verified = await f.app.tokens.verifyToken(token);
      return { clientId, kid: verified.kid, expiresAt: verified.expiresAt, issuedAt: verified.issuedAt, scopes: verified.scopes };
    };
    // This process has just read the client, without the scope, and would remember it for 5 s.
    expect(await access.token(await grantOf(before))).toMatchObject({ scopes: ['track-and-trace.read'] });
    // An operator grants the scope (another process); the client takes a new token with it right away.
    await f.app.clients.setScope(clientId, SUBSCRIBE_SCOPE, true);
    const issued = await f.app.fetch('http://localhost/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: `track-and-trace.read ${SUBSCRIBE_SCOPE}`,
      }).toString(),
    });
    expect(issued.status).toBe(200);
    const after = await grantOf(((await issued.json()) as { access_token: string }).access_token);
    expect(await access.token(after)).toMatchObject({ scopes: ['track-and-trace.read', SUBSCRIBE_SCOPE] });
  });

  it.skipIf(!enabled)(
    'a client holds at most TT_STREAMS_PER_CLIENT_MAX streams: one more is 429 with Retry-After; closing one frees it',
    async () => {
      const { token, clientId } = await f.tokenFor(ACCOUNT);
      const responses: Response[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await subscribe(f, token);
        responses.push(response);
        expect(response.status).toBe(200);
      }
      expect(f.app.services.streams.openOf(clientId)).toBe(3);
      const refused = await subscribe(f, token);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      const [first] = await untilEnd(sse(refused));
      expect(first!.data.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', quota: 'streams' });
      expect(first!.data.errors[0].message).toMatch(/^Quota exceeded: 3 open live streams for this client/);

      const metrics = await (await f.get('/metrics')).text();
      expect(metrics).toMatch(/^tt_live_streams_open [1-9]\d*$/m);

      // The client goes away: its stream is cancelled, and its place is free again.
      const reader = responses[0]!.body!.getReader();
      await reader.read();
      await reader.cancel();
      await expect.poll(() => f.app.services.streams.openOf(clientId), { timeout: 10_000 }).toBe(2);
      expect((await subscribe(f, token)).status).toBe(200);
    },
  );

  it.skipIf(!enabled || !TEST_REDIS_URL)('across two instances with Redis: disabling through A ends the stream B holds', async () => {
    const redis = { REDIS_URL: TEST_REDIS_URL as string, TT_RATE_LIMIT_PREFIX: uniquePrefix() };
    other = await createTestApp(name, {
      testDatabase: t,
      config: testConfig({ ...redis }),
      clientCacheTtlMs: 200,
    });
    const { clientId, events } = await openStream(other);
    // B remembers the client as active (its cache), A disables it.
    await f.app.clients.disableClient(clientId);
    expectFinalError(await untilEnd(events), 'UNAUTHENTICATED', /disabled/);
    expect(other.app.services.streams.openOf(clientId)).toBe(0);
  });

  it.skipIf(!enabled)('an expired token: its stream ends with UNAUTHENTICATED', async () => {
    const { events } = await openStream();
    clockOffsetMs = 3600_000 + 60_000;
    try {
      expectFinalError(await untilEnd(events), 'UNAUTHENTICATED', /expired/);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it.skipIf(!enabled)('10,000 streams on one shipment: one fan-out entry, every stream gets the change, no listener warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const feed = new ChangeFeed(t.database.db, { pollMs: 60_000, log: () => {} });
      const access = new AccessCheck(f.app.clients, t.database.db);
      const streams = new LiveStreams(feed, access, { maxPerClient: 10_000, checkMs: 60_000, log: () => {} });
      const grant = { clientId: 'fan-out', kid: 'k', expiresAt: new Date(Date.now() + 3600_000), scopes: ['track-and-trace.read'] };
      const all = Array.from({ length: 10_000 }, () =>
        streams.start({ grant, scope: 'track-and-trace.read', shipmentId: 42, accept: () => true })!,
      );
      expect(streams.start({ grant, scope: 'track-and-trace.read', shipmentId: 42, accept: () => true })).toBeNull();
      expect(feed.followedShipments).toBe(1);
      const change = {
        cursor: '1',
        changeId: 1,
        shipmentId: 42,
        triggerType: 'EVENT_TRIGGER' as const,
        triggeredByEvent: null,
        exceptionId: null,
        accountId: null,
        createdAt: new Date().toISOString(),
      };
      feed.publish(change);
      feed.publish({ ...change, shipmentId: 43 });
      const firsts = await Promise.all(all.map((s) => s.next()));
      expect(firsts.every((r) => !r.done && 'change' in r.value && r.value.change.shipmentId === 42)).toBe(true);
      await Promise.all(all.map((s) => s.return!()));
      expect(feed.followedShipments).toBe(0);
      expect(streams.open).toBe(0);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  // Last: it retires the key every token of this database is signed with.
  it.skipIf(!enabled)('the signing key retired: its streams end with UNAUTHENTICATED, its tokens get 401', async () => {
    const { token, events } = await openStream();
    const { kid } = await f.app.tokens.verifyToken(token);
    // As an operator does it: the command writes to the database every instance reads.
    const retired = await runCaptured(['keys', 'retire', kid, '--reason', 'rotated'], {
      env: { TT_LOG_LEVEL: 'silent' },
      database: t.database,
    });
    expect(retired.code, retired.stderr).toBe(0);
    expect(retired.stdout).toContain(`Retired signing key ${kid}`);
    const listed = await runCaptured(['keys', 'retired', '--json'], { env: { TT_LOG_LEVEL: 'silent' }, database: t.database });
    expect(JSON.parse(listed.stdout)).toEqual([{ kid, reason: 'rotated', retiredAt: expect.any(String) }]);
    expectFinalError(await untilEnd(events), 'UNAUTHENTICATED', /key that signed the access token was retired/);
    const lookup = await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token);
    expect(lookup.status).toBe(401);
    expect(await retireSigningKey(t.database.db, kid, 'again', new Date())).toBe(false);
  });
});
