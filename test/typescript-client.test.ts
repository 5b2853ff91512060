import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackingApiError, TrackingClient, verifyTrackingSignature } from '../clients/typescript/src/index.js';
import { SUBSCRIBE_SCOPE } from '../src/auth/scopes.js';
import { signatureHeader } from '../src/domain/push/webhook-signature.js';
import { clientTypes } from '../scripts/generate-client-types.js';
import { BASE } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { createSandboxApp, type SandboxApp } from './support/sandbox-app.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * The typed client of clients/typescript (docs/typescript-client.md) against the sandbox: tokens fetched once and
 * renewed before they expire, lookups polled with their ETag (304 while unchanged), webhook subscriptions
 * created, listed and deleted, and signatures verified as the service makes them. Its types are generated from
 * /openapi.json and must not be stale.
 */
describe('clients/typescript/src/openapi.ts', () => {
  it('is what openapi-typescript generates from the served /openapi.json (npm run -s client:types)', async () => {
    expect(readFileSync(new URL('../clients/typescript/src/openapi.ts', import.meta.url), 'utf8')).toBe(await clientTypes());
  });
});

describe.each(dialects)('the typed TypeScript client on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  let receiver: WebhookReceiver;
  let clock = Date.parse('2026-11-20T12:00:00.000Z');
  const tokenRequests: string[] = [];
  const client = (options: { scope?: string; clientId?: string; clientSecret?: string } = {}) =>
    new TrackingClient({
      baseUrl: BASE,
      clientId: options.clientId ?? f.demo.client_id,
      clientSecret: options.clientSecret ?? f.demo.client_secret,
      ...(options.scope ? { scope: options.scope } : {}),
      now: () => clock,
      fetch: (input, init) => {
        const request = new Request(input, init);
        if (new URL(request.url).pathname === '/oauth/token') tokenRequests.push(request.url);
        return f.app.fetch(request);
      },
    });

  beforeAll(async () => {
    if (!enabled) return;
    f = await createSandboxApp(name);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  it.skipIf(!enabled)('fetches a token once, reuses it, and renews it shortly before it expires', async () => {
    tokenRequests.length = 0;
    const c = client();
    const [a, b] = await Promise.all([c.token(), c.token()]);
    expect(a).toBe(b);
    expect(tokenRequests).toHaveLength(1);
    clock += 3000 * 1000; // 50 minutes: still more than a minute left
    expect(await c.token()).toBe(a);
    expect(tokenRequests).toHaveLength(1);
    clock += 9.5 * 60 * 1000; // 59.5 minutes: within the renewal margin
    await c.token();
    expect(tokenRequests).toHaveLength(2);
  });

  it.skipIf(!enabled)('looks up a sandbox shipment and polls it with its ETag: 304 while unchanged', async () => {
    const c = client();
    const first = await c.lookup({ billOfLadingNumber: 'MAEU262150002' });
    if (first.notModified) throw new Error('expected a 200');
    expect(first.transmission.shipmentTracking.billOfLadingNumber).toBe('MAEU262150002');
    expect(first.etag).toMatch(/^W\/"/);
    expect(await c.lookup({ billOfLadingNumber: 'MAEU262150002' }, first.etag)).toEqual({ notModified: true, etag: first.etag });

    const poller = c.poller({ carrierCode: 'MAEU', carrierBookingReference: '262150001' });
    const changed = await poller.poll();
    expect(changed?.shipmentTracking.carrierBookingReference).toBe('262150001');
    expect(await poller.poll()).toBeUndefined();
    expect(poller.etag).toMatch(/^W\/"/);
  });

  it.skipIf(!enabled)('turns an error answer into a TrackingApiError with the status and the DCSA body', async () => {
    const c = client();
    const error = await c.lookup({ billOfLadingNumber: 'NOSUCHBL' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackingApiError);
    expect((error as TrackingApiError).status).toBe(404);
    expect((error as TrackingApiError).message).toMatch(/No shipment matches/);
    const refused = await client({ clientSecret: 'wrong' })
      .token()
      .catch((e: unknown) => e);
    expect((refused as TrackingApiError).status).toBe(401);
  });

  it.skipIf(!enabled)('creates, lists and deletes webhook subscriptions, and verifies what the service signs', async () => {
    await f.app.clients.setScope(f.demo.client_id, SUBSCRIBE_SCOPE, true);
    const c = client({ scope: `track-and-trace.read ${SUBSCRIBE_SCOPE}` });
    const created = await c.subscriptions.create({ callbackUrl: receiver.url, billOfLadingNumber: 'MAEU262150002' });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await c.subscriptions.list()).map((s) => s.subscriptionID)).toContain(created.subscriptionID);
    expect((await c.subscriptions.get(created.subscriptionID)).status).toBe('ACTIVE');

    const body = '{"transmissionHeader":{}}';
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader([created.secret], now, body);
    expect(verifyTrackingSignature(header, body, created.secret)).toBe(true);
    expect(verifyTrackingSignature(header, `${body} `, created.secret)).toBe(false);
    expect(verifyTrackingSignature(header, body, 'whsec_other')).toBe(false);
    expect(verifyTrackingSignature(signatureHeader([created.secret], now - 600, body), body, created.secret)).toBe(false);
    expect(verifyTrackingSignature(signatureHeader(['whsec_old', created.secret], now, body), body, created.secret)).toBe(true);

    await c.subscriptions.delete(created.subscriptionID);
    expect((await c.subscriptions.list()).map((s) => s.subscriptionID)).not.toContain(created.subscriptionID);
    await expect(c.subscriptions.get(created.subscriptionID)).rejects.toMatchObject({ status: 404 });
  });
});
