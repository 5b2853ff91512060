import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app/create-app.js';
import { connectDatabase } from '../src/db/connect.js';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { createLogger } from '../src/observability/logger.js';
import { cursorNow, pruneChanges } from '../src/store/changes/change-log.js';
import { enqueuePushTriggers } from '../src/store/push/push-outbox.js';
import { grantAccountAccess, revokeAccountAccess } from '../src/store/access/shipment-access.js';
import { BASE } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { OpenApiResponseValidator } from './support/openapi-validator.js';
import { createSandboxApp, SANDBOX_SEEDED_AT, type SandboxApp } from './support/sandbox-app.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

type Recorded = Record<string, Record<string, Record<string, unknown>>>;

/** Per-request values of a recorded example, replaced so that the examples are the same on every run and store. */
const MASKED: Record<string, string> = {
  providerCorrelationReference: '0d5b8f5e-6c1a-4c3e-9b7a-2f4e8d1c6a90',
  deliveryID: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  transmissionID: 'TXN-000000004097',
  latencyMs: 12 as unknown as string,
  next: 'ZjEuQy4xMi4w',
};
const MASKED_VALUES = new Map<string, string>();

function mask(body: unknown): unknown {
  let text = JSON.stringify(body);
  for (const [value, masked] of MASKED_VALUES) text = text.replaceAll(value, masked);
  return JSON.parse(text, (key, value: unknown) => (key in MASKED ? MASKED[key] : value));
}

const C = '/v2/changes';
const T = '/v2/subscriptions/{subscriptionID}/test';
const R = '/v2/subscriptions/{subscriptionID}/deliveries/{deliveryID}/redeliver';

/**
 * Real responses of every status GET /v2/changes and the webhook trials answer (issue 21), on both stores,
 * checked against /openapi.json; the first response of each status is recorded as the document's example
 * (src/openapi/examples/account-feed-responses.json; `-u` rewrites it). The sandbox, its clock stopped, makes
 * the examples the same on every run.
 */
describe.each(dialects)('account feed and webhook trials against the OpenAPI document on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  let openapi: OpenApiResponseValidator;
  let broken: App;
  let faulty: App;
  let faultyDatabase: TestDatabase;
  let faultyToken: string;
  let overQuota: App;
  let subscriber: string;
  let receiver: WebhookReceiver;
  const recorded: Recorded = {};

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
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
    await receiver?.close();
  });

  const call = (method: string, path: string, options: { bearer?: string | null; app?: App } = {}) => {
    const bearer = options.bearer === undefined ? subscriber : options.bearer;
    return (options.app ?? f.app).fetch(`${BASE}${path}`, { method, headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });
  };

  async function op(method: string, template: string, response: Response, example?: string): Promise<unknown> {
    const { problems, body } = await openapi.check(method, template, response);
    expect(problems, `${method} ${template} ${response.status}`).toEqual([]);
    const named = example ?? `status ${response.status}`;
    ((recorded[`${method} ${template}`] ??= {})[String(response.status)] ??= {})[named] ??= mask(body);
    return body;
  }

  it.skipIf(!enabled)('GET /v2/changes: 200, 400, 401, 403, 405, 410, 429, 500, 503', async () => {
    const first = (await op('GET', C, await call('GET', `${C}?limit=2`), 'first page of the listing')) as { next: string };
    await op('GET', C, await call('GET', `${C}?limit=1&include=snapshot`), 'with snapshots');
    await op('GET', C, await call('GET', `${C}?after=${first.next}&limit=2`));
    // An account given a shipment, then losing it (docs/account-feed.md): GRANTED, REVOKED, identifiers only.
    const feedco = await f.app.clients.createClient({ name: 'feedco', account: 'feedco-account' });
    const feedToken = (await f.app.tokens.issueToken({ clientId: feedco.client_id, scope: 'track-and-trace.read' })).access_token;
    const listing = (await (await call('GET', C, { bearer: feedToken })).json()) as { next: string };
    const key = { carrierCode: 'MAEU', carrierBookingReference: '262150001' };
    const { db, dialect } = f.t.database;
    await grantAccountAccess(db, dialect, key, 'feedco-account', SANDBOX_SEEDED_AT);
    await revokeAccountAccess(db, dialect, key, 'feedco-account', 'example', SANDBOX_SEEDED_AT);
    const access = await call('GET', `${C}?after=${listing.next}&include=snapshot`, { bearer: feedToken });
    await op('GET', C, access, 'an account given a shipment, then losing it');
    await op('GET', C, await call('GET', `${C}?after=not-a-cursor`), 'not a cursor');
    await op('GET', C, await call('GET', `${C}?colour=red`));
    await op('GET', C, await call('GET', C, { bearer: null }));
    await f.app.clients.setScope(f.demo.client_id, 'track-and-trace.subscribe', true);
    const subscribeOnly = (await f.app.tokens.issueToken({ clientId: f.demo.client_id, scope: 'track-and-trace.subscribe' })).access_token;
    await op('GET', C, await call('GET', C, { bearer: subscribeOnly }));
    await op('GET', C, await call('POST', C));
    await op('GET', C, await call('GET', C, { app: broken }));
    await op('GET', C, await call('GET', C, { bearer: faultyToken, app: faulty }));
    expect((await call('GET', C, { app: overQuota })).status).toBe(200);
    await op('GET', C, await call('GET', C, { app: overQuota }), 'quota used up');
    // A cursor from before changes that were pruned: 410.
    const listed = await call('GET', `${C}?limit=1000`);
    const { next } = (await listed.json()) as { next: string };
    const shipment = await f.t.database.db.selectFrom('shipment').select('id').orderBy('id').executeTakeFirstOrThrow();
    const change = { triggerType: 'EVENT_TRIGGER' as const, eventID: null, exceptionID: null };
    await enqueuePushTriggers(f.t.database.db, new Map([[shipment.id, [change]]]), SANDBOX_SEEDED_AT);
    // Numbered now, so the next change lands in a later batch and this one's batch can be pruned alone.
    await cursorNow(f.t.database.db);
    await enqueuePushTriggers(f.t.database.db, new Map([[shipment.id, [change]]]), new Date(Date.now() + 86_400_000));
    await pruneChanges(f.t.database.db, new Date(Date.now() + 3_600_000));
    await op('GET', C, await call('GET', `${C}?after=${next}`), 'cursor expired');
  });

  it.skipIf(!enabled)('POST test and redeliver: 200, 401, 403, 404, 405, 409, 429, 500, 503', async () => {
    const created = await f.app.fetch(`${BASE}/v2/subscriptions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${subscriber}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ callbackUrl: receiver.url, billOfLadingNumber: 'MAEU262150002' }),
    });
    expect(created.status).toBe(201);
    const { subscriptionID } = (await created.json()) as { subscriptionID: string };
    MASKED_VALUES.set(subscriptionID, '6f1c2b7e-8d4a-4f0e-9c3b-1a2d3e4f5a6b');
    const test = `/v2/subscriptions/${subscriptionID}/test`;
    await op('POST', T, await call('POST', test), 'receiver answered');
    await op('POST', T, await call('POST', test, { bearer: null }));
    await op('POST', T, await call('POST', test, { bearer: f.token }));
    await op('POST', T, await call('POST', test.replace(subscriptionID, '00000000-0000-4000-8000-000000000000')));
    await op('POST', T, await call('GET', test));
    await op('POST', T, await call('POST', test, { app: broken }));
    await op('POST', T, await call('POST', test, { bearer: faultyToken, app: faulty }));
    // An account-wide subscription of an account that sees no shipment yet: nothing to send.
    const empty = await f.app.clients.createClient({ name: 'empty', account: 'empty-account' });
    await f.app.clients.setScope(empty.client_id, 'track-and-trace.subscribe', true);
    const emptyToken = (
      await f.app.tokens.issueToken({ clientId: empty.client_id, scope: 'track-and-trace.read track-and-trace.subscribe' })
    ).access_token;
    const wide = await f.app.fetch(`${BASE}/v2/subscriptions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${emptyToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ callbackUrl: receiver.url }),
    });
    expect(wide.status).toBe(201);
    const wideID = ((await wide.json()) as { subscriptionID: string }).subscriptionID;
    MASKED_VALUES.set(wideID, '7e2d3c8f-9e5b-4a1f-8d4c-2b3e4f5a6b7c');
    await op('POST', T, await call('POST', `/v2/subscriptions/${wideID}/test`, { bearer: emptyToken }), 'nothing to send');

    const shipment = await f.t.database.db
      .selectFrom('shipment')
      .select('id')
      .where('bill_of_lading_number', '=', 'MAEU262150002')
      .executeTakeFirstOrThrow();
    const change = { triggerType: 'EVENT_TRIGGER' as const, eventID: '3cecb101-7a1a-43a4-9d62-e88a131651e2', exceptionID: null };
    await enqueuePushTriggers(f.t.database.db, new Map([[shipment.id, [change]]]), SANDBOX_SEEDED_AT);
    const delivery = await f.t.database.db
      .selectFrom('webhook_delivery')
      .select('delivery_id')
      .where('subscription_id', '=', subscriptionID)
      .executeTakeFirstOrThrow();
    MASKED_VALUES.set(delivery.delivery_id, MASKED.deliveryID as string);
    const redeliver = `/v2/subscriptions/${subscriptionID}/deliveries/${delivery.delivery_id}/redeliver`;
    await op('POST', R, await call('POST', redeliver), 'still pending');
    for (let i = 0; i < 20 && (await f.app.deliveries.runOnce()).claimed === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await op('POST', R, await call('POST', redeliver), 'sent again');
    await op('POST', R, await call('POST', redeliver, { bearer: null }));
    await op('POST', R, await call('POST', redeliver, { bearer: f.token }));
    await op('POST', R, await call('POST', redeliver.replace(delivery.delivery_id, '00000000-0000-4000-8000-000000000000')));
    await op('POST', R, await call('GET', redeliver));
    await op('POST', R, await call('POST', redeliver, { app: broken }));
    await op('POST', R, await call('POST', redeliver, { bearer: faultyToken, app: faulty }));
    expect((await call('GET', '/v2/subscriptions', { app: overQuota })).status).toBe(200);
    await op('POST', T, await call('POST', test, { app: overQuota }), 'quota used up');
    await op('POST', R, await call('POST', redeliver, { app: overQuota }), 'quota used up');
  });

  it.skipIf(!enabled)('every documented response was provoked, and the recorded examples are current', async () => {
    expect(
      openapi
        .unseen()
        .filter((key) => / \/v2\/(changes|subscriptions\/\{subscriptionID\}\/(test|deliveries\/\{deliveryID\}\/redeliver))\b/.test(key)),
    ).toEqual([]);
    await expect(`${JSON.stringify(recorded, null, 2)}\n`).toMatchFileSnapshot('../src/openapi/examples/account-feed-responses.json');
  });
});
