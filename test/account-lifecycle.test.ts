import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { runCaptured, type CliRun } from './support/cli-run.js';
import { dialects } from './support/databases.js';
import { CARRIER, rawShipment, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * The life of clients and accounts as an operator runs it (README
 * "Operating"): a disabled client enabled again, an account's access to a
 * shipment revoked (its clients' lookups 404, their subscriptions on it
 * disabled with the reason, no ingest granting it back) and granted again.
 */
describe.each(dialects)('clients and accounts over their life on $name', ({ name, enabled }) => {
  let f: TestApp;
  const env = () => ({ DATABASE_URL: f.t.url, TT_BASE_URL: BASE, TT_LOG_LEVEL: 'silent' });
  const run = (...args: string[]): Promise<CliRun> => runCaptured(args, { env: env(), database: f.t.database });

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name, { webhooks: { checkHost: async () => null } });
    await f.ingest({ carrierCode: CARRIER, shipments: [rawShipment({ accounts: ['acme', 'globex'] })], events: [rawTransportEvent(1)] });
  });
  afterAll(async () => f?.destroy());

  const tokenOf = (clientId: string, clientSecret: string) =>
    f.app.fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
    });

  it.skipIf(!enabled)('client enable: a disabled client gets tokens again with its secret', async () => {
    const created = JSON.parse((await run('client', 'create', '--name', 'ERP', '--account', 'acme', '--json')).stdout) as {
      client_id: string;
      client_secret: string;
    };
    expect((await run('client', 'disable', created.client_id)).code).toBe(0);
    expect((await tokenOf(created.client_id, created.client_secret)).status).toBe(401);
    const enabledAgain = await run('client', 'enable', created.client_id);
    expect(enabledAgain).toMatchObject({ code: 0, stderr: '' });
    expect(enabledAgain.stdout).toContain('stay disabled');
    expect((await tokenOf(created.client_id, created.client_secret)).status).toBe(200);
    const listed = JSON.parse((await run('client', 'list', '--json')).stdout) as { client_id: string; disabled_at: string | null }[];
    expect(listed.find((c) => c.client_id === created.client_id)?.disabled_at).toBeNull();
    const missing = await run('client', 'enable', 'tt_nobody');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no client with id "tt_nobody"');
  });

  it.skipIf(!enabled)(
    "shipment revoke: the account's lookups 404, its subscriptions on it disabled; no ingest grants it back; grant does",
    async () => {
      const acme = await f.tokenFor('acme', { subscribe: true });
      const globex = await f.tokenFor('globex');
      const lookup = (token: string) => f.get('/v2/shipments?carrierCode=MAEU&carrierBookingReference=BKG100', token);
      const created = await f.send('POST', '/v2/subscriptions', acme.token, {
        callbackUrl: 'http://127.0.0.1:9/hook',
        billOfLadingNumber: 'MAEUBL100',
      });
      expect(created.status).toBe(201);
      const { subscriptionID } = (await created.json()) as { subscriptionID: string };
      // A change that reached the outbox and is not sent yet.
      await f.ingest({ carrierCode: CARRIER, events: [rawTransportEvent(2, { eventClassifierCode: 'ACT' })] });
      const pending = await f.t.database.db
        .selectFrom('webhook_delivery')
        .select('status')
        .where('subscription_id', '=', subscriptionID)
        .execute();
      expect(pending.map((d) => d.status)).toContain('PENDING');

      expect(JSON.parse((await run('shipment', 'accounts', CARRIER, 'BKG100', '--json')).stdout)).toEqual({
        accounts: ['acme', 'globex'],
        revoked: [],
      });
      const revoked = await run('shipment', 'revoke', CARRIER, 'BKG100', '--account', 'acme', '--reason', 'customer changed forwarder');
      expect(revoked).toMatchObject({ code: 0, stderr: '' });
      expect(revoked.stdout).toContain(`1 webhook subscription(s) of its clients on the shipment disabled: ${subscriptionID}`);

      expect((await lookup(acme.token)).status).toBe(404);
      expect((await lookup(globex.token)).status).toBe(200);
      const subscriptions = JSON.parse((await run('subscription', 'list', '--json')).stdout) as Record<string, unknown>[];
      expect(subscriptions.find((s) => s.subscriptionID === subscriptionID)).toMatchObject({
        status: 'DISABLED',
        disabledReason: 'access of account acme to the shipment was revoked: customer changed forwarder',
      });
      const after = await f.t.database.db
        .selectFrom('webhook_delivery')
        .select('status')
        .where('subscription_id', '=', subscriptionID)
        .execute();
      expect(after.map((d) => d.status)).not.toContain('PENDING');

      // The feed still names the account, the old bundle is replayed: the revocation holds.
      await f.ingest({ carrierCode: CARRIER, shipments: [rawShipment({ accounts: ['acme', 'globex'] })] });
      await f.ingest({
        carrierCode: CARRIER,
        generatedDateTime: new Date().toISOString(),
        shipments: [rawShipment({ accounts: ['acme'], vesselName: 'MAERSK KIEL' })],
      });
      expect((await lookup(acme.token)).status).toBe(404);
      const access = JSON.parse((await run('shipment', 'accounts', CARRIER, 'BKG100', '--json')).stdout) as {
        accounts: string[];
        revoked: { accountId: string; reason: string }[];
      };
      expect(access).toMatchObject({ accounts: ['globex'], revoked: [{ accountId: 'acme', reason: 'customer changed forwarder' }] });
      expect((await run('shipment', 'accounts', CARRIER, 'BKG100')).stdout).toContain('revoked:  acme at');

      const granted = await run('shipment', 'grant', CARRIER, 'BKG100', '--account', 'acme');
      expect(granted).toMatchObject({ code: 0, stdout: 'Account acme may see MAEU BKG100 again (its revocation is lifted).\n' });
      expect((await lookup(acme.token)).status).toBe(200);
    },
  );

  it.skipIf(!enabled)('shipment commands: an unknown shipment exits 1; --reason is required; every command has --help', async () => {
    const missing = await run('shipment', 'revoke', CARRIER, 'NOPE', '--account', 'acme', '--reason', 'x');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('tracking shipment: no shipment MAEU NOPE\n');
    expect((await run('shipment', 'grant', CARRIER, 'NOPE', '--account', 'acme')).code).toBe(1);
    expect((await run('shipment', 'accounts', CARRIER, 'NOPE')).code).toBe(1);
    expect((await run('shipment', 'revoke', CARRIER, 'BKG100', '--account', 'acme')).code).toBe(2);
    expect((await run('shipment')).code).toBe(2);
    for (const command of [
      ['shipment'],
      ['shipment', 'accounts'],
      ['shipment', 'revoke'],
      ['shipment', 'grant'],
      ['client', 'enable'],
      ['keys', 'rewrap'],
    ]) {
      const help = await runCaptured([...command, '--help'], { env: { DATABASE_URL: 'mysql://nobody@127.0.0.1:1/none' } });
      expect(help.code, command.join(' ')).toBe(0);
      expect(help.stdout).toMatch(/^Usage: tracking /);
    }
  });
});
