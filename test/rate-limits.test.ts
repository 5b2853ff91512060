import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READ_SCOPE } from '../src/auth/scopes.js';
import { runDocument } from '../src/executor/run-document.js';
import { SHIPMENT_DOCUMENT } from '../src/executor/shipment-document.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { rateLimitStores, TEST_REDIS_URL, uniquePrefix, type StoreKind } from './support/rate-limit-stores.js';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const LOOKUP = '/v2/shipments?billOfLadingNumber=NOPE0001';

/** A request as if from `peer` over a socket (the node adapter puts the request's `req` in the server context). */
function fromPeer(f: TestApp, peer: string, path: string, init: RequestInit = {}): Promise<Response> {
  return f.app.handle(new Request(`${BASE}${path}`, init), { req: { socket: { remoteAddress: peer } } });
}

function tokenRequest(f: TestApp, peer: string, clientId: string, secret: string, forwardedFor?: string): Promise<Response> {
  return fromPeer(f, peer, '/oauth/token', {
    method: 'POST',
    headers: { ...FORM, ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString(),
  });
}

function rateLimitOf(response: Response) {
  const h = (name: string) => response.headers.get(name);
  return { limit: h('ratelimit-limit'), remaining: h('ratelimit-remaining'), reset: h('ratelimit-reset'), retryAfter: h('retry-after') };
}

const aliases = (n: number, field: (i: number) => string) => Array.from({ length: n }, (_, i) => `a${i}: ${field(i)}`).join(' ');

describe.each(dialects)('quotas and failed-authentication limits on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.destroy()));
  });
  afterAll(async () => t?.destroy());

  /** A store, and how long the access check remembers a caller (0: read every time, as the other tests do). */
  type Setup = { store: StoreKind; clientCacheTtlMs: number };

  async function appWith(setup: StoreKind | Setup, env: Record<string, string> = {}, prefix = uniquePrefix()): Promise<TestApp> {
    const { store, clientCacheTtlMs } = typeof setup === 'string' ? { store: setup, clientCacheTtlMs: 0 } : setup;
    const redis: Record<string, string> = store === 'redis' ? { REDIS_URL: TEST_REDIS_URL as string, TT_RATE_LIMIT_PREFIX: prefix } : {};
    const f = await createTestApp(name, { testDatabase: t, config: testConfig({ ...env, ...redis }), clientCacheTtlMs });
    apps.push(f);
    return f;
  }

  // A caller remembered by the access check is authenticated and counted at once, without a promise
  // (src/http/rest-quotas.ts, src/executor/use-graphql-quotas.ts): both paths keep every rule.
  const setups = rateLimitStores.flatMap((s) => [
    { ...s, caller: 'read every time', clientCacheTtlMs: 0 },
    { ...s, caller: 'remembered', clientCacheTtlMs: 60_000 },
  ]);

  describe.each(setups)('with the $name store, the caller $caller', ({ name: kind, enabled: storeEnabled, clientCacheTtlMs }) => {
    const on = enabled && storeEnabled;
    const store: Setup = { store: kind, clientCacheTtlMs };

    it.skipIf(!on)(
      'GET /v2/shipments: RateLimit headers on every answer, then 429 with a DCSA body; other clients unaffected',
      async () => {
        const f = await appWith(store, { TT_QUOTA_LOOKUPS_PER_MINUTE: '3', TT_QUOTA_LOOKUPS_BURST: '0' });
        const { token } = await f.tokenFor('acct-a');
        const seen = [];
        for (let i = 0; i < 3; i++) {
          const response = await f.get(LOOKUP, token);
          expect(response.status).toBe(404);
          seen.push(rateLimitOf(response));
        }
        expect(seen.map((s) => [s.limit, s.remaining, s.retryAfter])).toEqual([
          ['3', '2', null],
          ['3', '1', null],
          ['3', '0', null],
        ]);
        expect(Number(seen[0]?.reset)).toBeGreaterThan(50);
        const refused = await f.get(LOOKUP, token);
        expect(refused.status).toBe(429);
        const limits = rateLimitOf(refused);
        expect(limits).toMatchObject({ limit: '3', remaining: '0' });
        expect(Number(limits.retryAfter)).toBeGreaterThan(50);
        expect(refused.headers.get('ratelimit-policy')).toBe('3;w=60');
        expect(refused.headers.get('x-correlation-id')).toBeTruthy();
        const body = (await refused.json()) as Record<string, unknown>;
        expect(body).toMatchObject({ httpMethod: 'GET', statusCode: 429, statusCodeText: 'Too Many Requests', requestUri: LOOKUP });
        expect(body.errors).toEqual([
          expect.objectContaining({
            errorCode: 7429,
            errorCodeText: 'rateLimited',
            errorCodeMessage: expect.stringMatching(/^Quota exceeded: 3 lookups per 60 s/),
          }),
        ]);
        // A parameter error of a client over quota is 429 too: the quota is checked first.
        expect((await f.get('/v2/shipments?colour=red', token)).status).toBe(429);
        const other = await f.tokenFor('acct-a');
        const fine = await f.get(LOOKUP, other.token);
        expect(fine.status).toBe(404);
        expect(rateLimitOf(fine).remaining).toBe('2');
      },
    );

    it.skipIf(!on)('lets a client burst past its per-minute quota by the burst allowance', async () => {
      const f = await appWith(store, { TT_QUOTA_LOOKUPS_PER_MINUTE: '2', TT_QUOTA_LOOKUPS_BURST: '2' });
      const { token } = await f.tokenFor('acct-a');
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await f.get(LOOKUP, token)).status);
      expect(statuses).toEqual([404, 404, 404, 404, 429]);
    });

    it.skipIf(!on)('counts /v2/subscriptions* requests against their own quota', async () => {
      const f = await appWith(store, { TT_QUOTA_SUBSCRIPTIONS_PER_MINUTE: '2', TT_QUOTA_SUBSCRIPTIONS_BURST: '0' });
      const { token } = await f.tokenFor('acct-a', { subscribe: true });
      expect((await f.send('GET', '/v2/subscriptions', token)).status).toBe(200);
      const second = await f.send('GET', '/v2/subscriptions/00000000-0000-4000-8000-000000000000', token);
      expect(second.status).toBe(404);
      expect(rateLimitOf(second)).toMatchObject({ limit: '2', remaining: '0' });
      const refused = await f.send('POST', '/v2/subscriptions', token, {});
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { errors: { errorCode: number }[] }).errors[0]?.errorCode).toBe(7429);
      // Lookups are another budget.
      expect((await f.get(LOOKUP, token)).status).toBe(404);
    });

    it.skipIf(!on)('/graphql: each aliased lookup counts; over quota a RATE_LIMITED error with HTTP 429', async () => {
      const f = await appWith(store, { TT_QUOTA_LOOKUPS_PER_MINUTE: '5', TT_QUOTA_LOOKUPS_BURST: '0' });
      const { token } = await f.tokenFor('acct-a');
      const three = `{ ${aliases(3, (i) => `shipment(billOfLadingNumber: "NOPE${i}") { transmissionHeader { transmissionID } }`)} }`;
      const ok = await f.graphql(three, {}, token);
      expect(ok.status).toBe(404); // the shipments do not exist: executed, and counted
      expect(rateLimitOf(ok)).toMatchObject({ limit: '5', remaining: '2' });
      const refused = await f.graphql(three, {}, token);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await refused.json()) as { data?: unknown; errors: { extensions: Record<string, unknown> }[] };
      expect(body.data).toBeUndefined();
      expect(body.errors[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', quota: 'lookups' });
      // Without a token the answer stays 401: authentication comes before the quota.
      expect((await f.graphql(three)).status).toBe(401);
    });

    it.skipIf(!on)('counts a live shipmentUpdates subscription as a lookup when it starts', async () => {
      const f = await appWith(store, { TT_QUOTA_LOOKUPS_PER_MINUTE: '1', TT_QUOTA_LOOKUPS_BURST: '0' });
      const { token } = await f.tokenFor('acct-a');
      /** The first server-sent event of a subscription, parsed; the stream is then dropped. */
      async function firstEvent(): Promise<{ status: number; event: any }> {
        const abort = new AbortController();
        const response = await f.app.fetch(`${BASE}/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
          body: JSON.stringify({
            query: 'subscription { shipmentUpdates(billOfLadingNumber: "NOPE0001") { transmissionHeader { transmissionID } } }',
          }),
          signal: abort.signal,
        });
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        let text = '';
        while (!/^data: .*$/m.test(text)) {
          const { value, done } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
        abort.abort();
        return { status: response.status, event: JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? 'null') };
      }
      // The first one is counted and runs (the shipment does not exist: NOT_FOUND); the second is over quota.
      expect((await firstEvent()).event.errors[0].extensions.code).toBe('NOT_FOUND');
      expect((await firstEvent()).event.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', quota: 'lookups' });
    });

    it.skipIf(!on)(
      'counts every token issued: aliased issueToken fields issue no more than the quota (1,000 aliases are refused sooner, by the alias limit)',
      async () => {
        const f = await appWith(store, { TT_QUOTA_TOKENS_PER_MINUTE: '3', TT_QUOTA_TOKENS_BURST: '1' });
        const { client_id, client_secret } = await f.app.clients.createClient({ name: 'erp', account: 'acct-a' });
        const first = await tokenRequest(f, '192.0.2.1', client_id, client_secret);
        expect(first.status).toBe(200);
        expect(rateLimitOf(first)).toMatchObject({ limit: '3', remaining: '2' });
        const mutation = `mutation($id: String!, $secret: String!) { ${aliases(10, () => 'issueToken(grant_type: "client_credentials", client_id: $id, client_secret: $secret) { token_type }')} }`;
        const response = await f.graphql(mutation, { id: client_id, secret: client_secret });
        expect(response.status).toBe(429);
        expect(rateLimitOf(response)).toMatchObject({ limit: '3', remaining: '0' });
        // issueToken is non-null: the first refusal ends the (serial) mutation, and with it the data.
        const body = (await response.json()) as { data: null; errors: { path: string[]; extensions: Record<string, unknown> }[] };
        expect(body.data).toBeNull();
        expect(body.errors).toHaveLength(1);
        expect(body.errors[0]?.path).toEqual(['a3']); // a0..a1: the minute's last two, a2: the burst
        expect(body.errors[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', oauth: { error: 'temporarily_unavailable' } });
        const refused = await tokenRequest(f, '192.0.2.1', client_id, client_secret);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('cache-control')).toBe('no-store');
        expect(rateLimitOf(refused)).toMatchObject({ limit: '3', remaining: '0' });
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await refused.json()).toMatchObject({
          error: 'temporarily_unavailable',
          error_description: expect.stringMatching(/^Quota exceeded: 3 tokens per 60 s/),
        });
        // Wrong secrets never spend the client's quota: no one else can use it up.
        expect((await tokenRequest(f, '192.0.2.9', client_id, 'wrong')).status).toBe(401);
      },
    );

    it.skipIf(!on)("never counts the service's own executions (push delivery runs the lookup as the subscriber)", async () => {
      const f = await appWith(store, { TT_QUOTA_LOOKUPS_PER_MINUTE: '1', TT_QUOTA_LOOKUPS_BURST: '0' });
      const { clientId, token } = await f.tokenFor('acct-a');
      for (const url of [`${BASE}/graphql`, 'http://push.internal/v2/shipments']) {
        for (let i = 0; i < 3; i++) {
          const result = await runDocument(f.app.executor, {
            request: new Request(url),
            query: SHIPMENT_DOCUMENT,
            operationName: 'RestShipmentLookup',
            variables: { billOfLadingNumber: 'NOPE0001' },
            context: {
              asPrincipal: { clientId, accountIds: ['acct-a'], scopes: [READ_SCOPE] },
              transmission: { transmissionID: 'TXN-1', triggerType: 'SCHEDULED_TRIGGER', triggeredByEvent: null },
            },
          });
          expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
        }
      }
      const own = await f.get(LOOKUP, token);
      expect(own.status).toBe(404);
      expect(rateLimitOf(own).remaining).toBe('0');
    });

    it.skipIf(!on)("failed authentications: an attacker's failures at address A never refuse the victim at address B", async () => {
      const f = await appWith(store);
      const victim = await f.app.clients.createClient({ name: 'victim', account: 'acct-a' });
      for (let i = 0; i < 10; i++) expect((await tokenRequest(f, '203.0.113.66', victim.client_id, 'guess')).status).toBe(401);
      const atA = await tokenRequest(f, '203.0.113.66', victim.client_id, victim.client_secret);
      expect(atA.status).toBe(429);
      expect(Number(atA.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await tokenRequest(f, '198.51.100.7', victim.client_id, victim.client_secret)).status).toBe(200);
      // Cycling client_ids from A ends at the per-address limit (50), for A only.
      for (let i = 0; i < 40; i++) await tokenRequest(f, '203.0.113.66', `tt_guess_${i}`, 'guess');
      const other = await f.app.clients.createClient({ name: 'other', account: 'acct-a' });
      expect((await tokenRequest(f, '203.0.113.66', other.client_id, other.client_secret)).status).toBe(429);
      expect((await tokenRequest(f, '198.51.100.8', other.client_id, other.client_secret)).status).toBe(200);
    });

    it.skipIf(!on)(
      'behind a trusted proxy, failures of client X do not lock out client Y; without trusting it, X-Forwarded-For is ignored',
      async () => {
        const trusted = await appWith(store, { TT_TRUSTED_PROXIES: '10.0.0.0/8' });
        const victim = await trusted.app.clients.createClient({ name: 'victim', account: 'acct-a' });
        // X, behind the proxy, tries the victim's client_id and then 60 others: its own address gets limited...
        for (let i = 0; i < 10; i++) await tokenRequest(trusted, '10.0.0.5', victim.client_id, 'guess', '198.51.100.1');
        for (let i = 0; i < 50; i++) await tokenRequest(trusted, '10.0.0.5', `tt_guess_${i}`, 'guess', '198.51.100.1');
        expect((await tokenRequest(trusted, '10.0.0.5', victim.client_id, victim.client_secret, '198.51.100.1')).status).toBe(429);
        // ...while Y, behind the same proxy, gets its token; a spoofed left part does not change who Y is.
        expect((await tokenRequest(trusted, '10.0.0.5', victim.client_id, victim.client_secret, '198.51.100.2')).status).toBe(200);
        expect((await tokenRequest(trusted, '10.0.0.5', victim.client_id, victim.client_secret, '198.51.100.1, 198.51.100.2')).status).toBe(
          200,
        );
        // X cannot escape its counter by sending its own X-Forwarded-For: the proxy appends the real address.
        expect((await tokenRequest(trusted, '10.0.0.5', victim.client_id, victim.client_secret, '192.0.2.200, 198.51.100.1')).status).toBe(
          429,
        );

        // A peer that is not a trusted proxy: its X-Forwarded-For is ignored, whatever it claims.
        for (let i = 0; i < 10; i++) await tokenRequest(trusted, '203.0.113.9', victim.client_id, 'guess', `192.0.2.${i}`);
        expect((await tokenRequest(trusted, '203.0.113.9', victim.client_id, victim.client_secret, '192.0.2.250')).status).toBe(429);

        // Without TT_TRUSTED_PROXIES everyone behind the proxy is the proxy (hence the setting).
        const untrusted = await appWith(store, { TT_AUTH_FAILURES_PER_ADDRESS: '5' });
        const y = await untrusted.app.clients.createClient({ name: 'y', account: 'acct-a' });
        for (let i = 0; i < 5; i++) await tokenRequest(untrusted, '10.0.0.5', `tt_guess_${i}`, 'guess', '198.51.100.1');
        expect((await tokenRequest(untrusted, '10.0.0.5', y.client_id, y.client_secret, '198.51.100.2')).status).toBe(429);
      },
    );

    it.skipIf(!on)('GET /v2/shipments authenticates before checking parameters: 401 and 403 whatever the parameters', async () => {
      const f = await appWith(store);
      for (const query of ['colour=red', 'billOfLadingNumber=A&billOfLadingNumber=B', 'foo=1&bar=2']) {
        const response = await f.get(`/v2/shipments?${query}`);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
        expect(response.headers.get('ratelimit-limit')).toBeNull();
      }
      const { clientId } = await f.tokenFor('acct-a');
      const { access_token } = await f.app.tokens.issueToken({ clientId, scope: 'track-and-trace.write' });
      expect((await f.get('/v2/shipments?colour=red', access_token)).status).toBe(403);
      const { token } = await f.tokenFor('acct-a');
      expect((await f.get('/v2/shipments?colour=red', token)).status).toBe(400);
    });

    it.skipIf(!on)('TT_QUOTAS=false turns the quotas off (the failed-authentication limits stay)', async () => {
      const f = await appWith(store, { TT_QUOTAS: 'false', TT_QUOTA_LOOKUPS_PER_MINUTE: '1', TT_QUOTA_LOOKUPS_BURST: '0' });
      const { token } = await f.tokenFor('acct-a');
      for (let i = 0; i < 3; i++) {
        const response = await f.get(LOOKUP, token);
        expect(response.status).toBe(404);
        expect(response.headers.get('ratelimit-limit')).toBeNull();
      }
    });
  });

  it.skipIf(!enabled || !TEST_REDIS_URL)('two app instances on one Redis share one budget per client', async () => {
    const prefix = uniquePrefix();
    const env = {
      TT_QUOTA_LOOKUPS_PER_MINUTE: '4',
      TT_QUOTA_LOOKUPS_BURST: '0',
      TT_QUOTA_TOKENS_PER_MINUTE: '2',
      TT_QUOTA_TOKENS_BURST: '0',
    };
    const [a, b] = [await appWith('redis', env, prefix), await appWith('redis', env, prefix)];
    const { token, clientId, clientSecret } = await a.tokenFor('acct-a'); // token 1 of 2
    const statuses = [];
    for (const f of [a, b, a, b, a, b]) statuses.push((await f.get(LOOKUP, token)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
    expect((await tokenRequest(b, '192.0.2.1', clientId, clientSecret)).status).toBe(200);
    expect((await tokenRequest(a, '192.0.2.1', clientId, clientSecret)).status).toBe(429);
    // A separate memory-store instance keeps its own budget: the sharing is Redis's doing.
    const alone = await appWith('memory', env);
    expect((await alone.get(LOOKUP, token)).status).toBe(404);
  });
});

describe('failed-authentication limits over a real socket', () => {
  /** POST /oauth/token from `localAddress` (any 127.0.0.0/8 address is this machine's). */
  function post(port: number, localAddress: string, form: Record<string, string>, forwardedFor?: string): Promise<number> {
    const body = new URLSearchParams(form).toString();
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          localAddress,
          method: 'POST',
          path: '/oauth/token',
          headers: { ...FORM, ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('keys on the socket peer, and on X-Forwarded-For only from a trusted proxy', async () => {
    const f = await createTestApp('sqlite', { config: testConfig({ TT_TRUSTED_PROXIES: '127.0.0.1' }) });
    const server = createServer(f.app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const victim = await f.app.clients.createClient({ name: 'victim', account: 'acct-a' });
      const wrong = { grant_type: 'client_credentials', client_id: victim.client_id, client_secret: 'guess' };
      const right = { ...wrong, client_secret: victim.client_secret };
      // 127.0.0.2 is no trusted proxy: its X-Forwarded-For is ignored, its failures are its own.
      for (let i = 0; i < 10; i++) expect(await post(port, '127.0.0.2', wrong, `192.0.2.${i}`)).toBe(401);
      expect(await post(port, '127.0.0.2', right, '192.0.2.99')).toBe(429);
      expect(await post(port, '127.0.0.3', right)).toBe(200);
      // Through the trusted proxy (127.0.0.1), the forwarded client is the key.
      for (let i = 0; i < 10; i++) await post(port, '127.0.0.1', wrong, '198.51.100.1');
      expect(await post(port, '127.0.0.1', right, '198.51.100.1')).toBe(429);
      expect(await post(port, '127.0.0.1', right, '198.51.100.2')).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await f.destroy();
    }
  });
});
