import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app/create-app.js';
import { connectDatabase } from '../src/db/connect.js';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { createLogger } from '../src/observability/logger.js';
import { enqueueDcsaNotifications, linkedEventSeqs } from '../src/store/push/dcsa-outbox.js';
import { BASE } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { DcsaValidator } from './support/dcsa-validator.js';
import { OpenApiResponseValidator } from './support/openapi-validator.js';
import { createSandboxApp, SANDBOX_SEEDED_AT, type SandboxApp } from './support/sandbox-app.js';

type Recorded = Record<string, Record<string, Record<string, unknown>>>;

/** Per-request values of a recorded example, replaced so that the examples are the same on every run and store. */
const MASKED: Record<string, string> = {
  providerCorrelationReference: '0d5b8f5e-6c1a-4c3e-9b7a-2f4e8d1c6a90',
  subscriptionID: '6f1c2b7e-8d4a-4f0e-9c3b-1a2d3e4f5a6b',
  deliveryID: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
};
const SUBSCRIPTION_IDS = new Set<string>();

function mask(body: unknown): unknown {
  let text = JSON.stringify(body);
  for (const id of SUBSCRIPTION_IDS) text = text.replaceAll(id, MASKED.subscriptionID as string);
  return JSON.parse(text, (key, value: unknown) => (key in MASKED ? MASKED[key] : value));
}

const SECRET = Buffer.alloc(32, 7).toString('base64');
const S = '/v2/event-subscriptions';
const ONE = `${S}/{subscriptionID}`;
const E = '/v2/events';
const DELIVERIES = `${ONE}/deliveries`;

/**
 * Real responses of every status the DCSA routes answer, on both stores, checked against /openapi.json and
 * against the DCSA 2.2 standard itself; the first response of each status is recorded as the document's
 * example (src/openapi/examples/dcsa-responses.json; `-u` rewrites it). The sandbox, with its clock stopped,
 * makes the examples the same on every run.
 */
describe.each(dialects)('DCSA routes against the OpenAPI document and the standard on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  let openapi: OpenApiResponseValidator;
  const standard = new DcsaValidator();
  let broken: App;
  let faulty: App;
  let faultyDatabase: TestDatabase;
  let faultyToken: string;
  let overQuota: App;
  let subscriber: string;
  let subscriptionID: string;
  const recorded: Recorded = {};

  beforeAll(async () => {
    if (!enabled) return;
    f = await createSandboxApp(name);
    openapi = new OpenApiResponseValidator(buildOpenApiDocument(f.config));
    const common = { config: f.config, now: () => SANDBOX_SEEDED_AT, logger: createLogger('silent'), clientCacheTtlMs: 0 };
    const connection = connectDatabase(f.t.url, { poolSize: 1 });
    broken = await createApp({ ...common, database: connection });
    await connection.close();
    const one = { perMinute: 1, burst: 0 };
    overQuota = await createApp({
      ...common,
      config: { ...f.config, quotas: { ...f.config.quotas, lookups: one, subscriptions: one } },
      database: f.t.database,
    });
    faultyDatabase = await createTestDatabase(name);
    faulty = await createApp({ ...common, database: faultyDatabase.database });
    const client = await faulty.clients.createClient({ name: 'faulty', account: 'demo-account' });
    await faulty.clients.setScope(client.client_id, 'track-and-trace.subscribe', true);
    faultyToken = (await faulty.tokens.issueToken({ clientId: client.client_id, scope: 'track-and-trace.read track-and-trace.subscribe' }))
      .access_token;
    await sql`alter table api_client rename to api_client_gone`.execute(faultyDatabase.database.db);
    await f.app.clients.setScope(f.demo.client_id, 'track-and-trace.subscribe', true);
    subscriber = (await f.app.tokens.issueToken({ clientId: f.demo.client_id, scope: 'track-and-trace.read track-and-trace.subscribe' }))
      .access_token;
  });
  afterAll(async () => {
    await faultyDatabase?.destroy();
    await f?.destroy();
  });

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

  /** Checks a response against both documents; records its body as an example (the first of its status, unless named). */
  async function op(method: string, template: string, response: Response, example?: string): Promise<unknown> {
    const copy = response.clone();
    const { problems, body } = await openapi.check(method, template, response);
    expect(problems, `${method} ${template} ${response.status}`).toEqual([]);
    const text = await copy.text();
    const json = text === '' ? null : (JSON.parse(text) as unknown);
    // The standard has no 405 of its own: it is checked as the resource's error (`default`).
    const standardMethod = response.status === 405 ? (template === `${ONE}/secret` ? 'PUT' : 'GET') : method;
    // The delivery log is not in the standard: its answers carry the standard's API-Version and error body.
    if (template === DELIVERIES) expect(copy.headers.get('api-version')).toBe('2.2.0');
    else
      expect(
        standard.answer(standardMethod, template, response.status, copy.headers, json),
        `${method} ${template} ${response.status}`,
      ).toEqual([]);
    const name = example ?? (response.status === 204 ? undefined : `status ${response.status}`);
    if (name) ((recorded[`${method} ${template}`] ??= {})[String(response.status)] ??= {})[name] ??= mask(body);
    return body;
  }

  it.skipIf(!enabled)('GET /v2/events: 200, 400, 401, 403, 405, 429, 500, 503', async () => {
    await op('GET', E, await call('GET', `${E}?carrierBookingReference=262150002&limit=3`), 'a page of events');
    await op('GET', E, await call('GET', `${E}?eventType=VESSEL`), 'bad filter value');
    await op('GET', E, await call('GET', E, { bearer: null }), 'no token');
    const client = await f.app.clients.createClient({ name: 'subscriber only', account: 'demo-account' });
    await f.app.clients.setScope(client.client_id, 'track-and-trace.subscribe', true);
    const { access_token } = await f.app.tokens.issueToken({ clientId: client.client_id, scope: 'track-and-trace.subscribe' });
    await op('GET', E, await call('GET', E, { bearer: access_token }), 'insufficient scope');
    await op('GET', E, await call('POST', E, { body: {} }), 'method not allowed');
    expect((await call('GET', E, { app: overQuota })).status).toBe(200);
    await op('GET', E, await call('GET', E, { app: overQuota }), 'quota used up');
    await op('GET', E, await call('GET', E, { bearer: faultyToken, app: faulty }), 'internal error');
    await op('GET', E, await call('GET', E, { app: broken }), 'service unavailable');
  });

  it.skipIf(!enabled)('POST and GET /v2/event-subscriptions: 200, 201, 400, 401, 403, 405, 413, 415, 500, 503', async () => {
    const created = await call('POST', S, { body: { callbackUrl: 'http://127.0.0.1:9/dcsa', secret: SECRET, eventType: ['TRANSPORT'] } });
    expect(created.status).toBe(201);
    subscriptionID = ((await created.clone().json()) as { subscriptionID: string }).subscriptionID;
    SUBSCRIPTION_IDS.add(subscriptionID);
    await op('POST', S, created, 'subscribed');
    await op(
      'POST',
      S,
      await call('POST', S, { body: { callbackUrl: 'http://10.0.0.8/hook', secret: SECRET } }),
      'private callback address',
    );
    await op('POST', S, await call('POST', S, { bearer: null, body: {} }), 'no token');
    await op(
      'POST',
      S,
      await call('POST', S, { bearer: f.token, body: { callbackUrl: 'http://127.0.0.1:9/dcsa', secret: SECRET } }),
      'insufficient scope',
    );
    await op('POST', S, await call('PATCH', S, { body: {} }), 'method not allowed');
    await op('POST', S, await call('POST', S, { body: 'x'.repeat(17_000) }), 'body too large');
    await op('POST', S, await call('POST', S, { body: '{}', type: 'text/plain' }), 'not JSON');
    const body = { callbackUrl: 'http://127.0.0.1:9/dcsa', secret: SECRET };
    await op('POST', S, await call('POST', S, { body, bearer: faultyToken, app: faulty }), 'internal error');
    await op('POST', S, await call('POST', S, { body, app: broken }), 'service unavailable');

    await op('GET', S, await call('GET', S), 'your subscriptions');
    await op('GET', S, await call('GET', `${S}?page=2`), 'unknown parameter');
    await op('GET', S, await call('GET', S, { bearer: null }), 'no token');
    await op('GET', S, await call('GET', S, { bearer: f.token }), 'insufficient scope');
    await op('GET', S, await call('DELETE', S), 'method not allowed');
    await op('GET', S, await call('GET', S, { bearer: faultyToken, app: faulty }), 'internal error');
    await op('GET', S, await call('GET', S, { app: broken }), 'service unavailable');
  });

  it.skipIf(!enabled)('GET the delivery log of one: 200, 400, 401, 403, 404, 405, 500, 503', async () => {
    const path = `${S}/${subscriptionID}/deliveries`;
    // A notification of the demo shipment's transport events, as an ingest enqueues it (the worker is not run: PENDING).
    const { db } = f.t.database;
    const shipment = await db
      .selectFrom('shipment')
      .select('id')
      .where('bill_of_lading_number', '=', 'MAEU262150002')
      .executeTakeFirstOrThrow();
    const seqs = await linkedEventSeqs(db, [Number(shipment.id)]);
    expect(await enqueueDcsaNotifications(db, f.t.database.dialect, seqs, SANDBOX_SEEDED_AT)).toBe(1);
    await op('GET', DELIVERIES, await call('GET', `${path}?status=PENDING&limit=10`), 'deliveries');
    await op('GET', DELIVERIES, await call('GET', `${path}?status=LOST`), 'bad status');
    await op('GET', DELIVERIES, await call('GET', `${S}/00000000-0000-4000-8000-000000000000/deliveries`), 'not found');
    await op('GET', DELIVERIES, await call('GET', path, { bearer: null }), 'no token');
    await op('GET', DELIVERIES, await call('GET', path, { bearer: f.token }), 'insufficient scope');
    await op('GET', DELIVERIES, await call('DELETE', path), 'method not allowed');
    await op('GET', DELIVERIES, await call('GET', path, { bearer: faultyToken, app: faulty }), 'internal error');
    await op('GET', DELIVERIES, await call('GET', path, { app: broken }), 'service unavailable');
  });

  it.skipIf(!enabled)('GET, PUT, DELETE one and PUT its secret: 200, 204, 400, 401, 403, 404, 405, 413, 415, 500, 503', async () => {
    const path = `${S}/${subscriptionID}`;
    const unknown = `${S}/00000000-0000-4000-8000-000000000000`;
    const body = { callbackUrl: 'http://127.0.0.1:9/dcsa', eventType: ['TRANSPORT', 'EQUIPMENT'] };
    for (const [method, template, target, payload] of [
      ['GET', ONE, path, undefined],
      ['PUT', ONE, path, body],
      ['PUT', `${ONE}/secret`, `${path}/secret`, { secret: SECRET }],
      ['DELETE', ONE, path, undefined],
    ] as const) {
      const at = (p: string) => (template.endsWith('/secret') ? `${p}/secret` : p);
      await op(
        method,
        template,
        await call(method, target, { body: payload }),
        method === 'GET' ? 'a subscription' : method === 'PUT' && !template.endsWith('/secret') ? 'updated' : undefined,
      );
      await op(method, template, await call(method, at(`${S}/not-a-uuid`), { body: payload }), 'not a UUID');
      await op(method, template, await call(method, at(unknown), { body: payload }), 'not found');
      await op(method, template, await call(method, target, { bearer: null, body: payload }), 'no token');
      await op(method, template, await call(method, target, { bearer: f.token, body: payload }), 'insufficient scope');
      await op(method, template, await call('POST', target, { body: payload }), 'method not allowed');
      await op(method, template, await call(method, target, { bearer: faultyToken, app: faulty, body: payload }), 'internal error');
      await op(method, template, await call(method, target, { app: broken, body: payload }), 'service unavailable');
      if (method === 'PUT') {
        await op(method, template, await call(method, target, { body: 'x'.repeat(17_000) }), 'body too large');
        await op(method, template, await call(method, target, { body: '{}', type: 'text/plain' }), 'not JSON');
      }
    }
  });

  it.skipIf(!enabled)('429 over the quota of subscription requests, on every operation', async () => {
    const app = overQuota;
    expect((await call('GET', S, { app })).status).toBe(200);
    const path = `${S}/${subscriptionID}`;
    await op('POST', S, await call('POST', S, { body: { callbackUrl: 'http://127.0.0.1:9/dcsa', secret: SECRET }, app }), 'quota used up');
    await op('GET', S, await call('GET', S, { app }), 'quota used up');
    await op('GET', ONE, await call('GET', path, { app }), 'quota used up');
    await op('PUT', ONE, await call('PUT', path, { body: { callbackUrl: 'http://127.0.0.1:9/dcsa' }, app }), 'quota used up');
    await op('DELETE', ONE, await call('DELETE', path, { app }), 'quota used up');
    await op('PUT', `${ONE}/secret`, await call('PUT', `${path}/secret`, { body: { secret: SECRET }, app }), 'quota used up');
    await op('GET', DELIVERIES, await call('GET', `${path}/deliveries`, { app }), 'quota used up');
  });

  it.skipIf(!enabled)('every documented response was provoked, and the recorded examples are current', async () => {
    expect(openapi.unseen().filter((key) => / \/v2\/event(s|-subscriptions)\b/.test(key))).toEqual([]);
    await expect(`${JSON.stringify(recorded, null, 2)}\n`).toMatchFileSnapshot('../src/openapi/examples/dcsa-responses.json');
  });
});
