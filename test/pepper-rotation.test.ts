import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app/create-app.js';
import { SUBSCRIBE_SCOPE } from '../src/auth/scopes.js';
import { CarrierStore } from '../src/carriers/carrier-store.js';
import { notificationKey, signNotification } from '../src/carriers/notification-signature.js';
import { loadConfig } from '../src/config/config.js';
import { verifySignature } from '../src/domain/push/webhook-signature.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { createLogger } from '../src/observability/logger.js';
import { runCaptured } from './support/cli-run.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { FakeDcsaPublisher } from './support/fake-dcsa-publisher.js';
import { CARRIER, rawEquipmentEvent, rawShipment, rawTransportEvent } from './support/ingest-fixtures.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * docs/operating.md "Rotating TT_SECRET_PEPPER", step by step as written, on each
 * store: an API client, a carrier (notification secret and polling
 * credentials) and a webhook subscription made under the old pepper go on
 * working during the rotation and after it, with nothing handed out again
 * but the secret of a client that requested no token meanwhile.
 */

const BASE = 'http://tracking.test';
const OLD_PEPPER = 'old-pepper-0123456789-0123456789-0123456789';
const NOTIFICATION_SECRET = Buffer.alloc(32, 7).toString('base64');
const WEBHOOK_SECRET = 'whsec_the-receivers-own-secret-of-at-least-32-chars';

describe.each(dialects)('rotating TT_SECRET_PEPPER on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let publisher: FakeDcsaPublisher;
  let receiver: WebhookReceiver;
  const apps: App[] = [];
  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    publisher = await FakeDcsaPublisher.start({ apiKey: { header: 'X-API-Key', value: 'carrier-key' } });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await publisher?.close();
    await receiver?.close();
    await t?.destroy();
  });

  const envOf = (peppers: Record<string, string>) => ({
    DATABASE_URL: t.url,
    TT_BASE_URL: BASE,
    TT_LOG_LEVEL: 'silent',
    TT_EVALUATE_INTERVAL_SECONDS: '0',
    ...peppers,
  });
  const tracking = (env: Record<string, string>, ...args: string[]) => runCaptured(args, { env, database: t.database });
  async function appWith(env: Record<string, string>): Promise<App> {
    const app = await createApp({
      config: loadConfig(env),
      database: t.database,
      logger: createLogger('silent'),
      clientCacheTtlMs: 0,
      webhooks: { checkHost: async () => null },
    });
    apps.push(app);
    return app;
  }
  const token = (app: App, clientId: string, clientSecret: string, scope?: string) =>
    app.fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        ...(scope ? { scope } : {}),
      }).toString(),
    });
  function notify(app: App, events: unknown[]) {
    const body = JSON.stringify(events);
    const key = notificationKey(NOTIFICATION_SECRET);
    if (!key.ok) throw new Error(key.message);
    return app.fetch(`${BASE}/v2/carrier-notifications/${CARRIER}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Notification-Signature': signNotification(body, key.key) },
      body,
    });
  }
  /** A new milestone ingested and delivered by this app's worker: the receiver checks the signature with its own secret. */
  async function deliveredAndVerified(app: App, n: number, milestone: 'LOAD' | 'DISC' | 'GTOT'): Promise<boolean> {
    const parsed = parseBundle({ carrierCode: CARRIER, events: [rawEquipmentEvent(n, { equipmentEventTypeCode: milestone })] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    await ingestBundle(t.database, parsed.bundle, { now: () => new Date() });
    const before = receiver.received.length;
    await app.deliveries.runOnce();
    const got = receiver.received.slice(before);
    return (
      got.length > 0 &&
      got.every((r) => verifySignature(String(r.headers['tracking-signature']), WEBHOOK_SECRET, r.body, Math.floor(Date.now() / 1000)))
    );
  }
  const poll = async (env: Record<string, string>) =>
    JSON.parse((await tracking(env, 'poll', '--once')).stdout.split('\n')[0]!) as { error: string | null };

  it.skipIf(!enabled)('the README procedure: nothing breaks during or after it', async () => {
    // Before: everything made under the old pepper.
    const before = envOf({ TT_SECRET_PEPPER: OLD_PEPPER });
    const creds = async (account: string) =>
      JSON.parse((await tracking(before, 'client', 'create', '--name', account, '--account', account, '--json')).stdout) as {
        client_id: string;
        client_secret: string;
      };
    const active = await creds('acme');
    const idle = await creds('globex');
    expect((await tracking(before, 'client', 'grant', active.client_id, SUBSCRIBE_SCOPE)).code).toBe(0);
    const added = await tracking(
      before,
      'carrier',
      'add',
      CARRIER,
      '--secret',
      NOTIFICATION_SECRET,
      '--events-url',
      publisher.eventsUrl,
      '--api-key',
      'carrier-key',
      '--poll-since',
      '2024-01-01T00:00:00Z',
    );
    expect(added.code).toBe(0);
    const parsed = parseBundle({ carrierCode: CARRIER, shipments: [rawShipment()] });
    if (!parsed.ok) throw new Error('bad fixture');
    await ingestBundle(t.database, parsed.bundle, { now: () => new Date() });
    const old = await appWith(before);
    const grant = await token(old, active.client_id, active.client_secret, `track-and-trace.read ${SUBSCRIBE_SCOPE}`);
    const { access_token } = (await grant.json()) as { access_token: string };
    const subscribed = await old.fetch(`${BASE}/v2/subscriptions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ callbackUrl: receiver.url, billOfLadingNumber: 'MAEUBL100', secret: WEBHOOK_SECRET }),
    });
    expect(subscribed.status).toBe(201);
    expect(await deliveredAndVerified(old, 1, 'LOAD')).toBe(true);

    // 1. A new pepper.
    const generated = await tracking({}, 'keys', 'generate', '--json');
    const NEW_PEPPER = (JSON.parse(generated.stdout) as { TT_SECRET_PEPPER: string }).TT_SECRET_PEPPER;
    // Alone, it would open nothing the old one sealed (what the procedure avoids).
    await expect(new CarrierStore(t.database.db, NEW_PEPPER, { environment: 'sandbox' }).notificationKeys(CARRIER)).rejects.toThrow();

    // 2. Every process with the new pepper and the old one as the previous: everything keeps working.
    const during = envOf({ TT_SECRET_PEPPER: NEW_PEPPER, TT_PREVIOUS_SECRET_PEPPER: OLD_PEPPER });
    const rotating = await appWith(during);
    expect((await token(rotating, active.client_id, active.client_secret)).status).toBe(200);
    expect((await notify(rotating, [rawTransportEvent(2)])).status).toBe(204);
    publisher.events = [rawTransportEvent(3)];
    expect(await poll(during)).toMatchObject({ error: null });
    expect(await deliveredAndVerified(rotating, 4, 'DISC')).toBe(true);

    // 3. keys rewrap: the sealed secrets move; the client that requested no token is listed.
    const first = await tracking(during, 'keys', 'rewrap', '--json');
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toEqual({
      carrierSecrets: { resealed: 2, current: 0, unreadable: [] },
      webhookSecrets: { resealed: 1, current: 0, unreadable: [] },
      clientsNotYetMoved: [idle.client_id],
      done: false,
    });
    expect((await tracking(during, 'client', 'list')).stdout).toMatch(new RegExp(`${idle.client_id} .* other\\n`));

    // 4. It gets a new secret; rewrap again says nothing depends on the old pepper.
    const rotated = JSON.parse((await tracking(during, 'client', 'rotate-secret', idle.client_id, '--json')).stdout) as {
      client_secret: string;
    };
    const second = await tracking(during, 'keys', 'rewrap');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('0 re-sealed under the new pepper, 2 already under it');
    expect(second.stdout).toContain('Nothing depends on the old pepper any more: remove TT_PREVIOUS_SECRET_PEPPER.');

    // 5. Without the previous pepper: the same secrets as before work, the carrier and the subscriber notice nothing.
    const after = envOf({ TT_SECRET_PEPPER: NEW_PEPPER });
    const done = await appWith(after);
    expect((await token(done, active.client_id, active.client_secret)).status).toBe(200);
    expect((await token(done, idle.client_id, rotated.client_secret)).status).toBe(200);
    expect((await token(done, idle.client_id, idle.client_secret)).status).toBe(401);
    expect((await notify(done, [rawTransportEvent(5)])).status).toBe(204);
    publisher.events.push(rawTransportEvent(6));
    expect(await poll(after)).toMatchObject({ error: null });
    expect(await deliveredAndVerified(done, 7, 'GTOT')).toBe(true);
    // rewrap needs the previous pepper to be named.
    expect((await tracking(after, 'keys', 'rewrap')).code).toBe(2);
  });

  it.skipIf(!enabled)('TT_PREVIOUS_SECRET_PEPPER is checked at start-up', () => {
    expect(() => loadConfig({ TT_PREVIOUS_SECRET_PEPPER: OLD_PEPPER })).toThrow(/needs TT_SECRET_PEPPER/);
    expect(() => loadConfig({ TT_SECRET_PEPPER: OLD_PEPPER, TT_PREVIOUS_SECRET_PEPPER: OLD_PEPPER })).toThrow(/must differ/);
    expect(() => loadConfig({ TT_SECRET_PEPPER: OLD_PEPPER, TT_PREVIOUS_SECRET_PEPPER: 'short' })).toThrow(/at least 32/);
  });
});
