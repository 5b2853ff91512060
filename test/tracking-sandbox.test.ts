import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_SCOPE, SUBSCRIBE_SCOPE, TRACK_SCOPE } from '../src/auth/scopes.js';
import { ensureSandboxCarrier, sandboxCarrierFetch, sandboxReferences } from '../src/carriers/sandbox-carrier.js';
import { TrackingFetcher } from '../src/carriers/tracking-fetcher.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * The sandbox's simulated carrier (docs/tracking-requests.md, Sandbox), offline: a tracking request for a sandbox
 * bill of lading goes PENDING, then TRACKING, and the scripted delay reaches a webhook as EXCEPTION_DETECTED
 * (ETA_DELAY), then the rollover. Any network call would fail: the fetcher's only way out is the simulated
 * carrier, whose other answers are refused here.
 */

type Json = Record<string, any>;

describe.each(dialects)('the sandbox simulated carrier on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;
  let fetcher: TrackingFetcher;
  let ahead = 0;
  const clock = () => new Date(Date.now() + ahead);
  let clientId: string;
  const token = async () =>
    (await f.app.tokens.issueToken({ clientId, scope: `${READ_SCOPE} ${SUBSCRIBE_SCOPE} ${TRACK_SCOPE}` })).access_token;

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name, { now: clock });
    expect(f.config.environment).toBe('sandbox');
    await ensureSandboxCarrier(f.app.services.carriers);
    // Twice, as two instances starting at once would: one carrier.
    await ensureSandboxCarrier(f.app.services.carriers);
    const offline = () => Promise.reject(new Error('the sandbox must not reach the network'));
    fetcher = new TrackingFetcher({
      database: f.t.database,
      carriers: f.app.services.carriers,
      config: f.config,
      now: clock,
      fetch: sandboxCarrierFetch(clock, offline),
      log: () => undefined,
    });
    const creds = await f.app.clients.createClient({ name: 'sandbox user', account: 'demo-account' });
    clientId = creds.client_id;
    await f.app.clients.setScope(clientId, TRACK_SCOPE, true);
    await f.app.clients.setScope(clientId, SUBSCRIBE_SCOPE, true);
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  it.skipIf(!enabled)('goes PENDING, TRACKING, then pushes the scripted ETA_DELAY and ROLLOVER to a webhook', async () => {
    const refs = sandboxReferences('00000001');
    expect(refs.billOfLading).toBe('SBOX00000001');
    const created = await f.send('POST', '/v2/tracking-requests', await token(), { transportDocumentReference: refs.billOfLading });
    expect(created.status).toBe(201);
    const request = (await created.json()) as Json;
    expect(request).toMatchObject({ status: 'PENDING', carrierCode: 'SBOX' });
    const read = async () => (await (await f.get(`/v2/tracking-requests/${request.trackingRequestID}`, await token())).json()) as Json;

    await fetcher.runOnce();
    expect(await read()).toMatchObject({
      status: 'TRACKING',
      shipment: { carrierCode: 'SBOX', carrierBookingReference: refs.booking, billOfLadingNumber: refs.billOfLading },
    });
    const subscribed = await f.send('POST', '/v2/subscriptions', await token(), {
      callbackUrl: receiver.url,
      billOfLadingNumber: refs.billOfLading,
      triggerTypes: ['EXCEPTION_DETECTED'],
    });
    expect(subscribed.status).toBe(201);

    // Three minutes on: the carrier has published the late arrival; the fetch is due (a milestone is near).
    ahead += 3 * 60_000;
    await fetcher.runOnce();
    await f.app.deliveries.runOnce();
    const detected = receiver.received.map((r) => r.json as Json);
    expect(detected).toHaveLength(1);
    expect(detected[0]).toMatchObject({ transmissionHeader: { triggerType: 'EXCEPTION_DETECTED' } });
    const exceptions = detected[0]?.shipmentTracking.exceptions as Json[];
    expect(exceptions.map((e) => e.exceptionType)).toEqual(['ETA_DELAY']);

    // The vessel leaves without the container: a rollover.
    ahead += 2 * 60_000;
    await fetcher.runOnce();
    await f.app.deliveries.runOnce();
    const types = receiver.received.flatMap((r) => ((r.json as Json).shipmentTracking.exceptions as Json[]).map((e) => e.exceptionType));
    expect(types).toContain('ROLLOVER');
  });

  it.skipIf(!enabled)('does not know sandbox references starting with 9: AWAITING_CARRIER_DATA', async () => {
    const created = await f.send('POST', '/v2/tracking-requests', await token(), { transportDocumentReference: 'SBOX90000001' });
    const request = (await created.json()) as Json;
    await fetcher.runOnce();
    const read = (await (await f.get(`/v2/tracking-requests/${request.trackingRequestID}`, await token())).json()) as Json;
    expect(read).toMatchObject({ status: 'AWAITING_CARRIER_DATA' });
  });
});
