import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { runCaptured } from './support/cli-run.js';
import { dialects } from './support/databases.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * Errors name the real problem and the allowed values (issue: "misleading errors"): a carrier notification with
 * a bad signature is about the signature, not an access token; subscribing to a shipment that does not exist
 * says the shipment was not found; a bad delivery-log filter is a 400 listing the states; the CLI refuses an
 * unknown exception type with exit 2 and the types it knows.
 */
describe.each(dialects)('error messages on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;
  let token: string;

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    receiver = await WebhookReceiver.start();
    ({ token } = await f.tokenFor('acme', { subscribe: true }));
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  it.skipIf(!enabled)('a badly signed carrier notification is refused for its signature, not for a token', async () => {
    await f.app.services.carriers.addCarrier({ carrierCode: 'MAEU', name: 'Maersk' });
    for (const signature of [undefined, 'sha256=zz', `sha256=${'0'.repeat(64)}`]) {
      const response = await f.app.fetch(`${BASE}/v2/carrier-notifications/MAEU`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(signature ? { 'Notification-Signature': signature } : {}) },
        body: '[]',
      });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { statusCodeMessage: string; errors: { property: string; errorCodeMessage: string }[] };
      expect(body.statusCodeMessage).toBe("The notification is not signed with this carrier's notification secret.");
      expect(body.statusCodeMessage).not.toMatch(/access token/);
      expect(body.errors[0]?.property).toBe('Notification-Signature');
    }
  });

  it.skipIf(!enabled)('subscribing to a shipment that does not exist says the shipment was not found', async () => {
    const response = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, billOfLadingNumber: 'NOSUCHBL0001' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { statusCodeMessage: string };
    expect(body.statusCodeMessage).toBe('The requested shipment was not found.');
    // An unknown subscription is still a subscription not found.
    const missing = await f.send('GET', '/v2/subscriptions/00000000-0000-4000-8000-000000000000', token);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { statusCodeMessage: string }).statusCodeMessage).toBe('The requested subscription was not found.');
  });

  it.skipIf(!enabled)('a bad delivery-log status is a 400 naming the allowed states, not GraphQL internals', async () => {
    const response = await f.send('GET', '/v2/subscriptions/00000000-0000-4000-8000-000000000000/deliveries?status=BOGUS', token);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { property: string; errorCodeMessage: string }[] };
    expect(body.errors[0]).toMatchObject({
      property: 'status',
      errorCodeMessage: 'status must be one of PENDING, DELIVERED, FAILED; got "BOGUS"',
    });
    expect(JSON.stringify(body)).not.toMatch(/Variable|\$status/);
  });

  it.skipIf(!enabled)('tracking exception list --type BOGUS exits 2 naming the exception types', async () => {
    const env = { DATABASE_URL: f.t.url, TT_LOG_LEVEL: 'silent' };
    const refused = await runCaptured(['exception', 'list', '--type', 'BOGUS'], { env, database: f.t.database });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/ETA_DELAY, ROLLOVER, MISSED_CONNECTION, DEMURRAGE_RISK, DETENTION_RISK/);
    const accepted = await runCaptured(['exception', 'list', '--type', 'eta_delay'], { env, database: f.t.database });
    expect(accepted.code, accepted.stderr).toBe(0);
    const deliveries = await runCaptured(['delivery', 'list', '--status', 'BOGUS'], { env, database: f.t.database });
    expect(deliveries.code).toBe(2);
    expect(deliveries.stderr).toMatch(/PENDING, DELIVERED, FAILED/);
  });
});
