import { sql } from 'kysely';
import { x12Interchange } from './support/edi-files.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app/create-app.js';
import { createLogger } from '../src/observability/logger.js';
import { connectDatabase } from '../src/db/connect.js';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { enqueuePushTriggers } from '../src/store/push/push-outbox.js';
import { setWritesCompact } from '../src/store/encoding/write-forms.js';
import { OPERATOR_INGEST_SCOPE, TRACK_SCOPE } from '../src/auth/scopes.js';
import { ensureSandboxCarrier } from '../src/carriers/sandbox-carrier.js';
import { notificationKey, signNotification } from '../src/carriers/notification-signature.js';
import { rawTransportEvent } from './support/ingest-fixtures.js';
import { BASE } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { OpenApiResponseValidator } from './support/openapi-validator.js';
import { createSandboxApp, SANDBOX_LOOKUPS, SANDBOX_SEEDED_AT, type SandboxApp } from './support/sandbox-app.js';

type Recorded = Record<string, Record<string, Record<string, unknown>>>;

/** Per-request values of a recorded example, replaced so that the examples are the same on every run and store. */
const MASKED: Record<string, string> = {
  providerCorrelationReference: '0d5b8f5e-6c1a-4c3e-9b7a-2f4e8d1c6a90',
  access_token: 'eyJhbGciOiJFUzI1NiIsInR5cCI6ImF0K2p3dCIsImtpZCI6Ii4uLiJ9.eyJpc3MiOiIuLi4ifQ.c2lnbmF0dXJl',
  transmissionID: 'TXN-000000004097',
  receiverID: 'tt_0123456789abcdef0123456789abcdef',
  kid: 'hK2vZ8qU3nYx0fJ4sW7cT1mR6pL9dA5eB2gN8oI0uQk',
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
  subscriptionID: '6f1c2b7e-8d4a-4f0e-9c3b-1a2d3e4f5a6b',
  secret: 'whsec_4Nq8xV2mZ7rT1pK9sW3yL6uB0cD5eF8gH2jM4nP7qR1',
  deliveryID: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  trackingRequestID: '3e5a7c9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d',
  // The store differs between runs of this test; the example shows the production one.
  database: 'mysql',
};

/** The account feed's and webhook trials' operations: provoked and recorded by test/account-feed-openapi.test.ts. */
const ACCOUNT_FEED_OPERATION = / \/v2\/(changes|subscriptions\/\{subscriptionID\}\/(test|deliveries\/\{deliveryID\}\/redeliver))\b/;

/** Per-run values inside strings (a subscription id in a requestUri), replaced by their masked value. */
const MASKED_VALUES = new Map<string, string>();

function mask(body: unknown): unknown {
  let text = JSON.stringify(body);
  for (const [value, masked] of MASKED_VALUES) text = text.replaceAll(value, masked);
  return JSON.parse(text, (key, value: unknown) => (key in MASKED ? MASKED[key] : value));
}

/**
 * Real responses of every status the REST routes answer, on both stores,
 * checked against the OpenAPI document served at /openapi.json: so the
 * document cannot drift from the code. Named responses are recorded as the
 * document's examples (src/openapi/examples/sandbox-responses.json).
 */
describe.each(dialects)('REST responses against the OpenAPI document on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  let validator: OpenApiResponseValidator;
  /** The app over a closed database connection: the database is unavailable, 503. */
  let broken: App;
  /** The app over a database whose api_client table went away after start: an unexpected database error, 500. */
  let faulty: App;
  let faultyDatabase: TestDatabase;
  /** A token of that app, with both scopes. */
  let faultyToken: string;
  /** A token of that app allowed to track (the tracking request routes). */
  let faultyTracker: string;
  /** A token of that app allowed to load bundles (the operator ingest route). */
  let faultyOperator: string;
  /** The app with a rate limit of one failed authentication. */
  let limited: App;
  /** The app with quotas of one lookup, one subscription request and one token per minute. */
  let overQuota: App;
  /** The app with 1 KiB body limits on the carrier routes. */
  let smallBodies: App;
  const recorded: Recorded = {};

  beforeAll(async () => {
    if (!enabled) return;
    f = await createSandboxApp(name);
    validator = new OpenApiResponseValidator(buildOpenApiDocument(f.config));
    const common = { config: f.config, now: () => SANDBOX_SEEDED_AT, logger: createLogger('silent'), clientCacheTtlMs: 0 };
    const connection = connectDatabase(f.t.url, { poolSize: 1 });
    broken = await createApp({ ...common, database: connection });
    await connection.close();
    limited = await createApp({ ...common, database: f.t.database, rateLimit: { maxFailuresPerClientAddress: 1 } });
    const one = { perMinute: 1, burst: 0 };
    const quotas = { ...f.config.quotas, lookups: one, subscriptions: one, tokens: one };
    overQuota = await createApp({ ...common, config: { ...f.config, quotas }, database: f.t.database });
    faultyDatabase = await createTestDatabase(name);
    faulty = await createApp({ ...common, database: faultyDatabase.database });
    const client = await faulty.clients.createClient({ name: 'faulty', account: 'demo-account' });
    await faulty.clients.setScope(client.client_id, 'track-and-trace.subscribe', true);
    faultyToken = (await faulty.tokens.issueToken({ clientId: client.client_id, scope: 'track-and-trace.read track-and-trace.subscribe' }))
      .access_token;
    await faulty.clients.setScope(client.client_id, TRACK_SCOPE, true);
    faultyTracker = (await faulty.tokens.issueToken({ clientId: client.client_id, scope: `track-and-trace.read ${TRACK_SCOPE}` }))
      .access_token;
    await faulty.clients.setScope(client.client_id, OPERATOR_INGEST_SCOPE, true);
    faultyOperator = (await faulty.tokens.issueToken({ clientId: client.client_id, scope: OPERATOR_INGEST_SCOPE })).access_token;
    await sql`alter table api_client rename to api_client_gone`.execute(faultyDatabase.database.db);
    smallBodies = await createApp({
      ...common,
      database: f.t.database,
      config: { ...f.config, carriers: { ...f.config.carriers, notificationMaxBytes: 1024, operatorIngestMaxBytes: 1024 } },
    });
  });
  afterAll(async () => {
    await faultyDatabase?.destroy();
    await f?.destroy();
  });

  /** Asserts that the response is documented; records its body as the example `example` when named. */
  const documentedResponse = (...args: Parameters<typeof documented>) => documented(...args);
  async function documented(method: string, path: string, response: Response, example?: string): Promise<unknown> {
    const { problems, body } = await validator.check(method, path, response);
    expect(problems, `${method} ${path} ${response.status}`).toEqual([]);
    if (example) {
      const byStatus = (recorded[`${method} ${path}`] ??= {});
      // The first response recorded under a name is its example, so the examples do not depend on later calls.
      (byStatus[String(response.status)] ??= {})[example] ??= mask(body);
    }
    return body;
  }

  function token(body: Record<string, string>, headers: Record<string, string> = {}, app: App = f.app) {
    return app.fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body).toString(),
    });
  }

  const basic = (id: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });

  describe.skipIf(!enabled)('POST /oauth/token', () => {
    const op = (response: Response, example?: string) => documented('POST', '/oauth/token', response, example);
    const grant = () => ({ grant_type: 'client_credentials', client_id: f.demo.client_id, client_secret: f.demo.client_secret });

    it('200 with credentials in the body or in HTTP Basic', async () => {
      await op(await token({ ...grant(), scope: 'track-and-trace.read' }), 'client credentials');
      await op(await token({ grant_type: 'client_credentials' }, basic(f.demo.client_id, f.demo.client_secret)));
    });

    it('400 invalid_request, unsupported_grant_type, invalid_scope', async () => {
      await op(await token({ client_id: f.demo.client_id, client_secret: f.demo.client_secret }), 'invalid_request');
      await op(await token(grant(), basic(f.demo.client_id, f.demo.client_secret)));
      await op(
        await f.app.fetch(`${BASE}/oauth/token`, {
          method: 'POST',
          body: JSON.stringify(grant()),
          headers: { 'Content-Type': 'application/json' },
        }),
      );
      await op(await token({ ...grant(), grant_type: 'password' }), 'unsupported_grant_type');
      await op(await token({ ...grant(), scope: 'track-and-trace.write' }), 'invalid_scope');
    });

    it('401 invalid_client, with a Basic challenge when Basic was used', async () => {
      await op(await token({ ...grant(), client_secret: 'wrong' }), 'invalid_client');
      await op(await token({ grant_type: 'client_credentials' }));
      const response = await token({ grant_type: 'client_credentials' }, basic(f.demo.client_id, 'wrong'));
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
      await op(response);
    });

    it('405 for another method', async () => {
      await op(await f.app.fetch(`${BASE}/oauth/token`), 'method not allowed');
    });

    it('429 after too many failed authentications', async () => {
      const attempt = () => token({ ...grant(), client_id: 'tt_unknown', client_secret: 'wrong' }, {}, limited);
      expect((await attempt()).status).toBe(401);
      await op(await attempt(), 'temporarily_unavailable');
    });

    it('429 over the quota of tokens, with the RateLimit headers', async () => {
      const first = await token(grant(), {}, overQuota);
      expect(first.headers.get('ratelimit-remaining')).toBe('0');
      await op(first);
      const refused = await token(grant(), {}, overQuota);
      expect(refused.headers.get('ratelimit-limit')).toBe('1');
      await op(refused, 'token quota');
    });

    it('413 for a body over 8 KiB', async () => {
      await op(await token({ ...grant(), scope: 'x'.repeat(9000) }), 'body too large');
    });

    it('500 when the database fails unexpectedly, 503 when it is unavailable', async () => {
      await op(await token(grant(), {}, faulty), 'server_error');
      const unavailable = await token(grant(), {}, broken);
      expect(unavailable.status).toBe(503);
      await op(unavailable, 'temporarily_unavailable');
    });
  });

  describe.skipIf(!enabled)('GET /v2/shipments', () => {
    const op = (response: Response, example?: string) => documented('GET', '/v2/shipments', response, example);
    const lookup = (query: string, bearer: string | null = f.token, app: App = f.app) =>
      app.fetch(`${BASE}/v2/shipments${query ? `?${query}` : ''}`, { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });

    it('200 for every sandbox lookup', async () => {
      for (const query of Object.values(SANDBOX_LOOKUPS)) {
        const response = await lookup(query);
        expect(response.status).toBe(200);
        await op(response, query === SANDBOX_LOOKUPS['bl-MAEU262150002'] ? query : undefined);
      }
      // With the opt-in prediction (docs/predicted-arrival.md): the same body with shipmentTracking.predictedArrival.
      const predicted = await lookup('carrierCode=MAEU&carrierBookingReference=262150001&include=predictedArrival');
      expect(predicted.status).toBe(200);
      expect(((await predicted.clone().json()) as { shipmentTracking: object }).shipmentTracking).toHaveProperty('predictedArrival');
      await op(predicted);
    });

    it('304 for a conditional poll of an unchanged shipment', async () => {
      const query = SANDBOX_LOOKUPS['bl-MAEU262150002'] ?? '';
      const etag = (await lookup(query)).headers.get('etag') ?? '';
      const response = await f.app.fetch(`${BASE}/v2/shipments?${query}`, {
        headers: { Authorization: `Bearer ${f.token}`, 'If-None-Match': etag },
      });
      expect(response.status).toBe(304);
      await op(response);
    });

    it('400 for missing, unknown, repeated and malformed parameters', async () => {
      await op(await lookup(''), 'no lookup parameter');
      await op(await lookup('carrierBookingReference=262150001'), 'carrierBookingReference without carrierCode');
      await op(await lookup('billOfLadingNumber=MAEU262150002&foo=bar'), 'unknown parameter');
      await op(await lookup('billOfLadingNumber=A&billOfLadingNumber=B'));
      await op(await lookup('billOfLadingNumber=MAEU262150002&include=eta'), 'unknown include value');
      await op(await lookup('equipmentReference=MSKU1357909'), 'wrong check digit');
    });

    it('401 without a token, with a malformed one, or with a tampered one', async () => {
      await op(await lookup('billOfLadingNumber=MAEU262150002', null), 'no token');
      await op(await lookup('billOfLadingNumber=MAEU262150002', 'not-a-jwt'));
      const [h, p] = f.token.split('.');
      await op(await lookup('billOfLadingNumber=MAEU262150002', `${h}.${p}.AAAA`), 'tampered token');
    });

    it('403 for a token without the read scope', async () => {
      const { access_token } = await f.app.tokens.issueToken({ clientId: f.demo.client_id, scope: 'track-and-trace.write' });
      await op(await lookup('billOfLadingNumber=MAEU262150002', access_token), 'insufficient scope');
    });

    it("404 for an unknown shipment and for another account's", async () => {
      await op(await lookup('billOfLadingNumber=CMDUPUS2600087'), 'not found');
      await op(await lookup('billOfLadingNumber=NOPE0001'));
    });

    it('405 for another method', async () => {
      const response = await f.app.fetch(`${BASE}/v2/shipments?billOfLadingNumber=MAEU262150002`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${f.token}` },
      });
      await op(response, 'method not allowed');
    });

    it('500 when the database fails unexpectedly, 503 when it is unavailable', async () => {
      await op(await lookup('billOfLadingNumber=MAEU262150002', faultyToken, faulty), 'internal error');
      const unavailable = await lookup('billOfLadingNumber=MAEU262150002', f.token, broken);
      expect(unavailable.status).toBe(503);
      await op(unavailable, 'service unavailable');
    });

    it('429 over the quota of lookups, with Retry-After and the RateLimit headers', async () => {
      expect((await lookup('billOfLadingNumber=MAEU262150002', f.token, overQuota)).status).toBe(200);
      const refused = await lookup('billOfLadingNumber=MAEU262150002', f.token, overQuota);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      await op(refused, 'quota used up');
    });
  });

  describe.skipIf(!enabled)('/v2/subscriptions', () => {
    const CALLBACK = 'http://127.0.0.1:9/tracking-webhook';
    let subscriber: string;
    let subscriptionID: string;
    const call = (method: string, path: string, options: { bearer?: string | null; body?: unknown; type?: string; app?: App } = {}) => {
      const bearer = options.bearer === undefined ? subscriber : options.bearer;
      return (options.app ?? f.app).fetch(`${BASE}${path}`, {
        method,
        headers: {
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
          ...(options.body !== undefined ? { 'Content-Type': options.type ?? 'application/json' } : {}),
        },
        ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
      });
    };
    // Every status gets an example: the first response of that status, unless one is named.
    const op = (method: string, template: string, response: Response, example?: string) =>
      documented(method, template, response, example ?? (response.status === 204 ? undefined : `status ${response.status}`));

    beforeAll(async () => {
      await f.app.clients.setScope(f.demo.client_id, 'track-and-trace.subscribe', true);
      subscriber = (await f.app.tokens.issueToken({ clientId: f.demo.client_id, scope: 'track-and-trace.read track-and-trace.subscribe' }))
        .access_token;
    });

    it('POST: 201, 400, 401, 403, 404, 409, 405, 413, 415, 500, 503', async () => {
      const P = '/v2/subscriptions';
      const created = await call('POST', P, {
        body: { callbackUrl: CALLBACK, billOfLadingNumber: 'MAEU262150002', scheduledIntervalSeconds: 3600 },
      });
      expect(created.status).toBe(201);
      subscriptionID = ((await created.clone().json()) as { subscriptionID: string }).subscriptionID;
      MASKED_VALUES.set(subscriptionID, MASKED.subscriptionID as string);
      await op('POST', P, created, 'subscribed');
      await op(
        'POST',
        P,
        await call('POST', P, { body: { callbackUrl: 'http://10.0.0.8/hook', billOfLadingNumber: 'MAEU262150002' } }),
        'private callback address',
      );
      await op('POST', P, await call('POST', P, { body: { callbackUrl: CALLBACK, carrierCode: 'MAEU' } }));
      await op('POST', P, await call('POST', P, { bearer: null, body: {} }), 'no token');
      await op(
        'POST',
        P,
        await call('POST', P, { bearer: f.token, body: { callbackUrl: CALLBACK, billOfLadingNumber: 'MAEU262150002' } }),
        'insufficient scope',
      );
      await op('POST', P, await call('POST', P, { body: { callbackUrl: CALLBACK, billOfLadingNumber: 'CMDUPUS2600087' } }), 'not found');
      // PREDICTED_ARRIVAL before the upgrade is finished (a database the previous release may still share).
      setWritesCompact(f.app.services.database.db, false);
      try {
        const early = await call('POST', P, {
          body: {
            callbackUrl: CALLBACK,
            billOfLadingNumber: 'MAEU262150002',
            triggerTypes: ['PREDICTED_ARRIVAL'],
            predictedLatenessHours: 24,
          },
        });
        await op('POST', P, early, 'upgrade not finished');
      } finally {
        setWritesCompact(f.app.services.database.db, true);
      }
      await op('POST', P, await call('PUT', P, { body: {} }), 'method not allowed');
      await op('POST', P, await call('POST', P, { body: 'x'.repeat(17_000) }));
      await op('POST', P, await call('POST', P, { body: '{}', type: 'text/plain' }));
      await op('POST', P, await call('POST', P, { body: { callbackUrl: CALLBACK, billOfLadingNumber: 'MAEU262150002' }, app: broken }));
      await op(
        'POST',
        P,
        await call('POST', P, { body: { callbackUrl: CALLBACK, billOfLadingNumber: 'MAEU262150002' }, bearer: faultyToken, app: faulty }),
      );
    });

    it('GET list: 200, 401, 403, 405, 500, 503', async () => {
      const P = '/v2/subscriptions';
      await op('GET', P, await call('GET', P), 'your subscriptions');
      await op('GET', P, await call('GET', P, { bearer: null }));
      await op('GET', P, await call('GET', P, { bearer: f.token }));
      await op('GET', P, await call('PATCH', P));
      await op('GET', P, await call('GET', P, { app: broken }));
      await op('GET', P, await call('GET', P, { bearer: faultyToken, app: faulty }));
    });

    it('GET, DELETE one and the deliveries: 200, 204, 400, 401, 403, 404, 405, 500, 503', async () => {
      const one = `/v2/subscriptions/${subscriptionID}`;
      const T = '/v2/subscriptions/{subscriptionID}';
      const D = '/v2/subscriptions/{subscriptionID}/deliveries';
      await enqueuePushTriggers(
        f.t.database.db,
        new Map([
          [
            (
              await f.t.database.db
                .selectFrom('shipment')
                .select('id')
                .where('bill_of_lading_number', '=', 'MAEU262150002')
                .executeTakeFirstOrThrow()
            ).id,
            [{ triggerType: 'EVENT_TRIGGER' as const, eventID: '3cecb101-7a1a-43a4-9d62-e88a131651e2', exceptionID: null }],
          ],
        ]),
        SANDBOX_SEEDED_AT,
      );
      await op('GET', T, await call('GET', one), 'subscription');
      await op('GET', D, await call('GET', `${one}/deliveries`), 'delivery log');
      await op('GET', D, await call('GET', `${one}/deliveries?colour=red`), 'unknown parameter');
      for (const [method, template, path] of [
        ['GET', T, one],
        ['GET', D, `${one}/deliveries`],
        ['DELETE', T, one],
      ] as const) {
        await op(method, template, await call(method, path, { bearer: null }));
        await op(method, template, await call(method, path, { bearer: f.token }));
        await op(method, template, await call(method, path.replace(subscriptionID, '00000000-0000-4000-8000-000000000000')));
        await op(method, template, await call(method, path, { app: broken }));
        await op(method, template, await call(method, path, { bearer: faultyToken, app: faulty }));
      }
      await op('GET', T, await call('PUT', one));
      await op('DELETE', T, await call('PATCH', one));
      await op('GET', D, await call('POST', `${one}/deliveries`));
    });

    it('POST rotate-secret: 200, 400, 401, 403, 404, 405, 413, 415, 500, 503', async () => {
      const R = '/v2/subscriptions/{subscriptionID}/rotate-secret';
      const path = `/v2/subscriptions/${subscriptionID}/rotate-secret`;
      await op('POST', R, await call('POST', path, { body: { overlapSeconds: 3600 } }), 'rotated');
      await op('POST', R, await call('POST', path, { body: { overlapSeconds: -1 } }));
      await op('POST', R, await call('POST', path, { bearer: null, body: {} }));
      await op('POST', R, await call('POST', path, { bearer: f.token, body: {} }));
      await op('POST', R, await call('POST', path.replace(subscriptionID, '00000000-0000-4000-8000-000000000000'), { body: {} }));
      await op('POST', R, await call('GET', path));
      await op('POST', R, await call('POST', path, { body: 'x'.repeat(17_000) }));
      await op('POST', R, await call('POST', path, { body: '{"overlapSeconds":1}', type: 'text/plain' }));
      await op('POST', R, await call('POST', path, { body: {}, app: broken }));
      await op('POST', R, await call('POST', path, { body: {}, bearer: faultyToken, app: faulty }));
      const deleted = await call('DELETE', `/v2/subscriptions/${subscriptionID}`);
      expect(deleted.status).toBe(204);
      await op('DELETE', '/v2/subscriptions/{subscriptionID}', deleted);
    });

    it('429 over the quota of subscription requests, on every operation', async () => {
      const app = overQuota;
      expect((await call('GET', '/v2/subscriptions', { app })).status).toBe(200);
      const one = `/v2/subscriptions/${subscriptionID}`;
      await op(
        'POST',
        '/v2/subscriptions',
        await call('POST', '/v2/subscriptions', { body: { callbackUrl: CALLBACK, billOfLadingNumber: 'MAEU262150002' }, app }),
      );
      await op('GET', '/v2/subscriptions', await call('GET', '/v2/subscriptions', { app }));
      await op('GET', '/v2/subscriptions/{subscriptionID}', await call('GET', one, { app }));
      await op('DELETE', '/v2/subscriptions/{subscriptionID}', await call('DELETE', one, { app }));
      await op('POST', '/v2/subscriptions/{subscriptionID}/rotate-secret', await call('POST', `${one}/rotate-secret`, { body: {}, app }));
      await op('GET', '/v2/subscriptions/{subscriptionID}/deliveries', await call('GET', `${one}/deliveries`, { app }));
    });
  });

  describe.skipIf(!enabled)('/v2/tracking-requests', () => {
    let tracker: string;
    let trackingRequestID: string;
    const call = (method: string, path: string, options: { bearer?: string | null; body?: unknown; type?: string; app?: App } = {}) => {
      const bearer = options.bearer === undefined ? tracker : options.bearer;
      return (options.app ?? f.app).fetch(`${BASE}${path}`, {
        method,
        headers: {
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
          ...(options.body !== undefined ? { 'Content-Type': options.type ?? 'application/json' } : {}),
        },
        ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
      });
    };
    const op = (method: string, template: string, response: Response, example?: string) =>
      documented(method, template, response, example ?? (response.status === 204 ? undefined : `status ${response.status}`));
    const P = '/v2/tracking-requests';
    const T = '/v2/tracking-requests/{trackingRequestID}';
    const UNKNOWN = '00000000-0000-4000-8000-000000000000';

    beforeAll(async () => {
      await ensureSandboxCarrier(f.app.services.carriers);
      await f.app.clients.setScope(f.demo.client_id, TRACK_SCOPE, true);
      tracker = (await f.app.tokens.issueToken({ clientId: f.demo.client_id, scope: `track-and-trace.read ${TRACK_SCOPE}` })).access_token;
    });

    it('POST: 201, 200, 400, 401, 403, 405, 413, 415, 500, 503', async () => {
      const created = await call('POST', P, { body: { transportDocumentReference: 'SBOX00000001' } });
      expect(created.status).toBe(201);
      trackingRequestID = ((await created.clone().json()) as { trackingRequestID: string }).trackingRequestID;
      MASKED_VALUES.set(trackingRequestID, MASKED.trackingRequestID as string);
      await op('POST', P, created, 'tracking');
      await op('POST', P, await call('POST', P, { body: { transportDocumentReference: 'SBOX00000001' } }), 'already tracked');
      await op('POST', P, await call('POST', P, { body: { transportDocumentReference: 'XXXX00000001' } }), 'carrier not recognised');
      await op('POST', P, await call('POST', P, { body: { carrierBookingReference: 'SB00000001' } }), 'booking without carrierCode');
      await op('POST', P, await call('POST', P, { bearer: null, body: {} }), 'no token');
      await op(
        'POST',
        P,
        await call('POST', P, { bearer: f.token, body: { transportDocumentReference: 'SBOX00000001' } }),
        'insufficient scope',
      );
      await op('POST', P, await call('PUT', P, { body: {} }), 'method not allowed');
      await op('POST', P, await call('POST', P, { body: 'x'.repeat(5000) }));
      await op('POST', P, await call('POST', P, { body: '{}', type: 'text/plain' }));
      await op('POST', P, await call('POST', P, { body: { transportDocumentReference: 'SBOX00000001' }, app: broken }));
      await op(
        'POST',
        P,
        await call('POST', P, { body: { transportDocumentReference: 'SBOX00000001' }, app: faulty, bearer: faultyTracker }),
        'internal error',
      );
    });

    it('GET list and one, DELETE: 200, 204, 400, 401, 403, 404, 405, 500, 503', async () => {
      const one = `${P}/${trackingRequestID}`;
      await op('GET', P, await call('GET', P), 'your tracking requests');
      await op('GET', P, await call('GET', `${P}?limit=0`), 'bad limit');
      await op('GET', T, await call('GET', one), 'tracking request');
      for (const [method, template, path] of [
        ['GET', P, P],
        ['GET', T, one],
        ['DELETE', T, one],
      ] as const) {
        await op(method, template, await call(method, path, { bearer: null }));
        await op(method, template, await call(method, path, { bearer: f.token }));
        if (template === T) await op(method, template, await call(method, path.replace(trackingRequestID, UNKNOWN)));
        await op(method, template, await call(method, path, { app: broken }));
        await op(method, template, await call(method, path, { app: faulty, bearer: faultyTracker }), 'internal error');
      }
      await op('GET', P, await call('PATCH', P));
      await op('GET', T, await call('PUT', one));
      await op('DELETE', T, await call('PATCH', one));
      const stopped = await call('DELETE', one);
      expect(stopped.status).toBe(204);
      await op('DELETE', T, stopped);
    });

    it('429 over the quota of subscription requests, on every operation', async () => {
      const app = overQuota;
      const one = `${P}/${trackingRequestID}`;
      // The subscription routes' test used the client's one request of the window.
      await op('POST', P, await call('POST', P, { body: { transportDocumentReference: 'SBOX00000001' }, app }));
      await op('GET', P, await call('GET', P, { app }));
      await op('GET', T, await call('GET', one, { app }));
      await op('DELETE', T, await call('DELETE', one, { app }));
    });
  });

  describe.skipIf(!enabled)('carrier ingest routes', () => {
    // A carrier of no sandbox shipment: its events are stored unlinked and change no recorded lookup.
    const CODE = 'ZIMU';
    const N = '/v2/carrier-notifications/{carrierCode}';
    const O = '/v2/operator/ingest';
    let key: Buffer;
    let faultyKey: Buffer;
    let operator: string;
    const events = (n: number) => [
      rawTransportEvent(n, { documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'ZIM-1' }] }),
    ];
    const notify = (body: string, options: { signature?: string | null; code?: string; type?: string; method?: string; app?: App } = {}) =>
      (options.app ?? f.app).fetch(`${BASE}/v2/carrier-notifications/${options.code ?? CODE}`, {
        method: options.method ?? 'POST',
        headers: {
          'Content-Type': options.type ?? 'application/json',
          ...(options.signature === null ? {} : { 'Notification-Signature': options.signature ?? signNotification(body, key) }),
        },
        ...(options.method === 'GET' || options.method === 'HEAD' ? {} : { body }),
      });
    const ingest = (body: string, options: { bearer?: string | null; type?: string; method?: string; app?: App; query?: string } = {}) => {
      const bearer = options.bearer === undefined ? operator : options.bearer;
      return (options.app ?? f.app).fetch(`${BASE}${O}${options.query ?? ''}`, {
        method: options.method ?? 'POST',
        headers: { 'Content-Type': options.type ?? 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
        ...(options.method === 'GET' ? {} : { body }),
      });
    };

    /** A 315 of one good and one bad transaction (an unknown status code) of a booking of no sandbox shipment. */
    const ediFile = (booking: string, control: string) =>
      x12Interchange({
        sender: 'ZIMU',
        control,
        issued: '2026-11-20T10:00:00.000Z',
        messages: [
          {
            control: '0001',
            status: 'VD',
            at: '2026-11-20T08:00:00.000Z',
            locode: 'ILHFA',
            booking,
            vessel: { name: 'ZIM ALPHA', imo: '9321483' },
            voyage: '1W',
          },
          { control: '0002', status: 'ZZ', at: '2026-11-20T09:00:00.000Z', container: 'MSKU1234565', booking },
        ],
      });

    // Every JSON status gets an example: the first response of that status, unless one is named.
    const documented = (method: string, template: string, response: Response, example?: string) =>
      documentedResponse(
        method,
        template,
        response,
        example ?? (response.status === 204 || method === 'HEAD' ? undefined : `status ${response.status}`),
      );

    beforeAll(async () => {
      const { secret } = await f.app.services.carriers.addCarrier({ carrierCode: CODE, name: 'ZIM' });
      const k = notificationKey(secret);
      if (!k.ok) throw new Error(k.message);
      key = k.key;
      await f.app.services.carriers.setEdiFormats(CODE, ['x12-315', 'iftsta']);
      // The faulty app's database loses its event table: a notification or a bundle then fails unexpectedly (500).
      const faultySecret = (await faulty.services.carriers.addCarrier({ carrierCode: CODE, name: 'ZIM' })).secret;
      const fk = notificationKey(faultySecret);
      if (!fk.ok) throw new Error(fk.message);
      faultyKey = fk.key;
      await sql`alter table event rename to event_gone`.execute(faultyDatabase.database.db);
      await f.app.clients.setScope(f.demo.client_id, OPERATOR_INGEST_SCOPE, true);
      operator = (await f.app.tokens.issueToken({ clientId: f.demo.client_id, scope: OPERATOR_INGEST_SCOPE })).access_token;
    });

    it('POST notification: 204, 400, 401, 404, 405, 413, 415, 500, 503; HEAD: 204, 404, 500, 503', async () => {
      const body = JSON.stringify(events(901));
      await documented('POST', N, await notify(body));
      await documented(
        'POST',
        N,
        await notify(JSON.stringify([{ ...events(902)[0], eventDateTime: '2026-11-20T10:00:00' }])),
        'invalid event',
      );
      await documented('POST', N, await notify(body, { signature: signNotification(body, Buffer.alloc(32)) }), 'wrong signature');
      await documented('POST', N, await notify(body, { code: 'ZZZZ' }), 'unknown carrier');
      await documented('POST', N, await notify(body, { method: 'GET' }), 'method not allowed');
      await documented(
        'POST',
        N,
        await notify(JSON.stringify(Array.from({ length: 10 }, (_, i) => events(910 + i)[0])), { app: smallBodies }),
      );
      await documented('POST', N, await notify(body, { type: 'text/plain' }));
      // EDI (docs/carriers.md "EDI"): a 315 signed like a notification; its summary names what was rejected.
      await documented('POST', N, await notify(ediFile('ZIM-1', '5501'), { type: 'application/edi-x12' }), 'X12 315 taken');
      // An unreachable database is a 503 with Retry-After (the carrier retries); an unexpected failure a 500.
      const unavailable = await notify(body, { app: broken });
      expect(unavailable.status).toBe(503);
      expect(unavailable.headers.get('retry-after')).toMatch(/^\d+$/);
      await documented('POST', N, unavailable, 'database unavailable');
      const failing = await notify(body, { app: faulty, signature: signNotification(body, faultyKey) });
      expect(failing.status).toBe(500);
      await documented('POST', N, failing, 'internal error');
      await documented('HEAD', N, await notify('', { method: 'HEAD' }));
      await documented('HEAD', N, await notify('', { method: 'HEAD', code: 'ZZZZ' }));
      const headUnavailable = await notify('', { method: 'HEAD', app: broken });
      expect(headUnavailable.status).toBe(503);
      await documented('HEAD', N, headUnavailable);
      await sql`alter table carrier_source rename to carrier_source_gone`.execute(faultyDatabase.database.db);
      await documented('HEAD', N, await notify('', { method: 'HEAD', app: faulty }));
    });

    it('POST operator ingest: 200, 400, 401, 403, 405, 413, 415, 500, 503', async () => {
      const bundle = JSON.stringify({ carrierCode: CODE, events: events(903) });
      await documented('POST', O, await ingest(bundle), 'ingested');
      await documented(
        'POST',
        O,
        await ingest(JSON.stringify({ carrierCode: CODE, events: [{ ...events(904)[0], eventID: 'nope' }] })),
        'invalid bundle',
      );
      await documented('POST', O, await ingest(bundle, { bearer: null }), 'no token');
      await documented('POST', O, await ingest(bundle, { bearer: f.token }), 'insufficient scope');
      await documented('POST', O, await ingest(bundle, { method: 'GET' }));
      await documented(
        'POST',
        O,
        await ingest(JSON.stringify({ carrierCode: CODE, events: Array.from({ length: 10 }, (_, i) => events(920 + i)[0]) }), {
          app: smallBodies,
        }),
      );
      await documented('POST', O, await ingest(bundle, { type: 'text/plain' }));
      await documented(
        'POST',
        O,
        await ingest(ediFile('ZIM-1', '5502'), { type: 'application/edi-x12', query: `?carrierCode=${CODE}` }),
        'X12 315 taken',
      );
      await documented(
        'POST',
        O,
        await ingest(ediFile('ZIM-1', '5503'), { type: 'application/edi-x12', query: '?carrierCode=ZZZZ' }),
        'unknown carrier',
      );
      const unavailable = await ingest(bundle, { app: broken });
      expect(unavailable.status).toBe(503);
      expect(unavailable.headers.get('retry-after')).toMatch(/^\d+$/);
      await documented('POST', O, unavailable, 'database unavailable');
      const failing = await ingest(bundle, { app: faulty, bearer: faultyOperator });
      expect(failing.status).toBe(500);
      await documented('POST', O, failing, 'internal error');
    });
  });

  describe.skipIf(!enabled)('keys, health and readiness', () => {
    it('GET /.well-known/jwks.json', async () => {
      await documented('GET', '/.well-known/jwks.json', await f.app.fetch(`${BASE}/.well-known/jwks.json`), 'signing keys');
    });

    it('GET /health', async () => {
      await documented('GET', '/health', await f.app.fetch(`${BASE}/health`));
      await documented('GET', '/health', await broken.fetch(`${BASE}/health`));
    });

    it('GET /ready: 200, and 503 when the database fails', async () => {
      await documented('GET', '/ready', await f.app.fetch(`${BASE}/ready`), 'ready');
      await documented('GET', '/ready', await broken.fetch(`${BASE}/ready`), 'unavailable');
    });
  });

  it.skipIf(!enabled)('every documented response was provoked, and the recorded examples are current', async () => {
    // The DCSA routes' responses are provoked and recorded by test/dcsa-openapi-responses.test.ts.
    expect(validator.unseen().filter((key) => !/ \/v2\/event(s|-subscriptions)\b/.test(key) && !ACCOUNT_FEED_OPERATION.test(key))).toEqual(
      [],
    );
    await expect(`${JSON.stringify(recorded, null, 2)}\n`).toMatchFileSnapshot('../src/openapi/examples/sandbox-responses.json');
  });
});
