import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationKey, signNotification } from '../src/carriers/notification-signature.js';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { runCaptured, type CliRun } from './support/cli-run.js';
import { dialects } from './support/databases.js';
import { FakeDcsaPublisher } from './support/fake-dcsa-publisher.js';
import { rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * A carrier's whole life as an operator runs it (README "Carrier
 * onboarding"): add, update (events URL, credentials with an overlap, poll
 * interval), rotate the notification secret with an overlap (both verify
 * until it ends), disable, enable, remove (its events stay) and add again.
 * Commands run in-process against each store; notifications go through the
 * app, on a clock the test moves.
 */
describe.each(dialects)('carrier lifecycle on $name', ({ name, enabled }) => {
  let f: TestApp;
  let clock = Date.parse('2026-05-01T08:00:00Z');
  const now = () => new Date(clock);
  const env = () => ({ DATABASE_URL: f.t.url, TT_BASE_URL: BASE, TT_LOG_LEVEL: 'silent' });
  const run = (...args: string[]): Promise<CliRun> => runCaptured(args, { env: env(), database: f.t.database, now });
  /** A poll a second later than the last one (a poller's lease is free once its time has passed). */
  const poll = async (code: string) => {
    clock += 1000;
    return run('poll', '--once', '--carrier', code);
  };

  beforeAll(async () => {
    if (enabled) f = await createTestApp(name, { now });
  });
  afterAll(async () => f?.destroy());

  const keyOf = (secret: string) => {
    const key = notificationKey(secret);
    if (!key.ok) throw new Error(key.message);
    return key.key;
  };
  const notify = (code: string, events: unknown[], secret: string) => {
    const body = JSON.stringify(events);
    return f.app.fetch(`${BASE}/v2/carrier-notifications/${code}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Notification-Signature': signNotification(body, keyOf(secret)) },
      body,
    });
  };
  const carrier = async (code: string) =>
    ((JSON.parse((await run('carrier', 'list', '--json')).stdout) as { carrierCode: string }[]).find((c) => c.carrierCode === code) ??
      null) as Record<string, unknown> | null;

  it.skipIf(!enabled)('rotate-secret --overlap: both secrets verify until the overlap ends, then only the new one', async () => {
    const added = await run('carrier', 'add', 'MAEU', '--json');
    const old = (JSON.parse(added.stdout) as { notificationSecret: string }).notificationSecret;
    const rotated = await run('carrier', 'rotate-secret', 'MAEU', '--overlap', '3600', '--json');
    expect(rotated.code).toBe(0);
    const next = (JSON.parse(rotated.stdout) as { notificationSecret: string }).notificationSecret;
    expect((await carrier('MAEU'))?.previousSecretExpiresAt).toBe(new Date(clock + 3_600_000).toISOString());

    expect((await notify('MAEU', [rawTransportEvent(1)], old)).status).toBe(204);
    expect((await notify('MAEU', [rawTransportEvent(2)], next)).status).toBe(204);
    clock += 3_600_000 + 1000;
    expect((await notify('MAEU', [rawTransportEvent(3)], old)).status).toBe(401);
    expect((await notify('MAEU', [rawTransportEvent(3)], next)).status).toBe(204);

    // Without an overlap the old secret stops at once; the text says until when otherwise.
    const again = await run('carrier', 'rotate-secret', 'MAEU', '--overlap', '0', '--json');
    const third = (JSON.parse(again.stdout) as { notificationSecret: string }).notificationSecret;
    expect((await notify('MAEU', [rawTransportEvent(4)], next)).status).toBe(401);
    expect((await notify('MAEU', [rawTransportEvent(4)], third)).status).toBe(204);
    const human = await run('carrier', 'rotate-secret', 'MAEU');
    expect(human.stdout).toContain(`accepted until ${new Date(clock + 86_400_000).toISOString()}`);
    expect((await run('carrier', 'rotate-secret', 'MAEU', '--overlap', '604801')).code).toBe(2);
  });

  it.skipIf(!enabled)(
    'disable refuses notifications (404), enable accepts them again; remove keeps the events and frees the code',
    async () => {
      const added = await run('carrier', 'add', 'CMDU', '--json');
      const secret = (JSON.parse(added.stdout) as { notificationSecret: string }).notificationSecret;
      expect((await notify('CMDU', [rawTransportEvent(10, { documentReferences: [] })], secret)).status).toBe(204);

      expect((await run('carrier', 'disable', 'CMDU')).code).toBe(0);
      expect((await notify('CMDU', [rawTransportEvent(11)], secret)).status).toBe(404);
      const enabledAgain = await run('carrier', 'enable', 'CMDU');
      expect(enabledAgain).toMatchObject({ code: 0, stderr: '' });
      expect((await carrier('CMDU'))?.status).toBe('ACTIVE');
      expect((await notify('CMDU', [rawTransportEvent(11)], secret)).status).toBe(204);

      const removed = await run('carrier', 'remove', 'CMDU');
      expect(removed.code).toBe(0);
      expect(removed.stdout).toContain('The events it sent stay');
      expect(await carrier('CMDU')).toBeNull();
      expect((await notify('CMDU', [rawTransportEvent(12)], secret)).status).toBe(404);
      const events = await f.t.database.db.selectFrom('event').select('event_id').where('carrier_code', '=', 'CMDU').execute();
      expect(events).toHaveLength(2);
      // The code is free again: add works (it refused "already configured" before), with a new secret.
      expect((await run('carrier', 'add', 'CMDU')).code).toBe(0);
      for (const args of [
        ['enable', 'ZZZ'],
        ['remove', 'ZZZ'],
        ['update', 'ZZZ', '--name', 'x'],
      ]) {
        const missing = await run('carrier', ...args);
        expect(missing.code, args.join(' ')).toBe(1);
        expect(missing.stderr).toContain('no carrier "ZZZ"');
      }
    },
  );

  it.skipIf(!enabled)(
    'update: an events URL for a push-only carrier, a new API key with an overlap, the poll interval, push only again',
    async () => {
      const publisher = await FakeDcsaPublisher.start({ apiKey: { header: 'X-API-Key', value: 'old-key' } });
      try {
        publisher.events = [rawTransportEvent(20)];
        expect((await run('carrier', 'add', 'EGLV')).code).toBe(0);
        expect((await carrier('EGLV'))?.eventsUrl).toBeNull();

        const withUrl = await run(
          'carrier',
          'update',
          'EGLV',
          '--events-url',
          publisher.eventsUrl,
          '--api-key',
          'old-key',
          '--poll-since',
          '2024-01-01T00:00:00Z',
          '--poll-interval',
          '60',
          '--name',
          'Evergreen',
        );
        expect(withUrl).toMatchObject({ code: 0, stderr: '' });
        expect(await carrier('EGLV')).toMatchObject({ name: 'Evergreen', eventsAuth: 'api-key', pollIntervalSeconds: 60 });
        expect(JSON.parse((await poll('EGLV')).stdout.split('\n')[0]!)).toMatchObject({ eventsStored: 1, error: null });

        // The carrier issues a new key; the operator stores it before the carrier switches, with a day of overlap.
        const newKey = await run('carrier', 'update', 'EGLV', '--api-key', 'new-key', '--overlap', '86400', '--json');
        expect(newKey.code).toBe(0);
        expect(JSON.parse(newKey.stdout)).toMatchObject({ previousCredentialsExpireAt: new Date(clock + 86_400_000).toISOString() });
        publisher.events.push(rawTransportEvent(21));
        expect(JSON.parse((await poll('EGLV')).stdout.split('\n')[0]!)).toMatchObject({ eventsStored: 1, error: null });
        publisher.acceptApiKey({ header: 'X-API-Key', value: 'new-key' });
        publisher.events.push(rawTransportEvent(22));
        expect(JSON.parse((await poll('EGLV')).stdout.split('\n')[0]!)).toMatchObject({ eventsStored: 1, error: null });
        // After the overlap only the new key is used: the carrier taking the new one back fails the poll.
        clock += 86_400_000 + 1000;
        publisher.acceptApiKey({ header: 'X-API-Key', value: 'old-key' });
        expect(JSON.parse((await poll('EGLV')).stdout.split('\n')[0]!)).toMatchObject({ error: expect.stringContaining('401') });

        expect(await run('carrier', 'update', 'EGLV', '--no-events-url')).toMatchObject({ code: 0 });
        expect(await carrier('EGLV')).toMatchObject({ eventsUrl: null, eventsAuth: 'none' });
        expect((await poll('EGLV')).stderr).toContain('no carrier was polled');
      } finally {
        await publisher.close();
      }
    },
  );

  it.skipIf(!enabled)('update refuses what cannot be: nothing to change, credentials without an events URL, --overlap alone', async () => {
    expect((await run('carrier', 'add', 'ONEY')).code).toBe(0);
    for (const args of [
      ['update', 'ONEY'],
      ['update', 'ONEY', '--api-key', 'k'],
      ['update', 'ONEY', '--overlap', '60'],
      ['update', 'ONEY', '--poll-interval', '60'],
      ['update', 'ONEY', '--events-url', 'ftp://x'],
      ['update', 'ONEY', '--events-url', 'https://a.example/v2/events', '--no-credentials', '--api-key', 'k'],
    ]) {
      const r = await run('carrier', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^tracking carrier update: /);
    }
  });

  it.skipIf(!enabled)('every carrier command has --help, which touches nothing', async () => {
    for (const command of ['update', 'enable', 'remove', 'rotate-secret', 'unlinked', 'rejected', 'rejected list', 'rejected replay']) {
      const r = await runCaptured(['carrier', ...command.split(' '), '--help'], {
        env: { DATABASE_URL: 'mysql://nobody@127.0.0.1:1/none' },
      });
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toMatch(/^Usage: tracking carrier /);
    }
  });
});
