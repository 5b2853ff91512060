import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierStore } from '../src/carriers/carrier-store.js';
import { notificationKey, signNotification, verifyNotification } from '../src/carriers/notification-signature.js';
import { loadConfig, type Config } from '../src/config/config.js';
import { SERVED_BASE_URL } from '../src/cli/carrier-commands.js';
import { recordServiceValue } from '../src/store/housekeeping/service-secrets.js';
import { runCaptured, type CliRun } from './support/cli-run.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { FakeDcsaPublisher } from './support/fake-dcsa-publisher.js';
import { rawTransportEvent } from './support/ingest-fixtures.js';
import { requestTracking } from '../src/carriers/tracking-request-service.js';
import { getTrackingRequest } from '../src/store/carriers/tracking-requests.js';

/** `tracking carrier …` and `tracking poll --once` as an operator runs them. */
describe.each(dialects)('tracking carrier commands on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let config: Config;
  const env = () => ({ DATABASE_URL: t.url, TT_BASE_URL: 'https://tracking.example.com', TT_LOG_LEVEL: 'silent' });
  const run = (...args: string[]): Promise<CliRun> => runCaptured(args, { env: env(), database: t.database });
  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    config = loadConfig(env());
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('add --json prints the callback URL and a secret that verifies notifications', async () => {
    const r = await run('carrier', 'add', 'MAEU', '--name', 'Maersk', '--json');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const out = JSON.parse(r.stdout) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual(['carrierCode', 'notificationSecret', 'notificationUrl']);
    expect(out.notificationUrl).toBe('https://tracking.example.com/v2/carrier-notifications/MAEU');
    const key = notificationKey(out.notificationSecret ?? '');
    if (!key.ok) throw new Error(key.message);
    expect(key.key).toHaveLength(32);
    const store = await CarrierStore.open(t.database.db, config);
    const stored = await store.notificationKey('MAEU');
    expect(stored?.equals(key.key)).toBe(true);
    expect(verifyNotification(signNotification('[]', key.key), Buffer.from('[]'), stored!)).toBe('valid');
    // Stored sealed, never in plain text.
    const row = await t.database.db.selectFrom('carrier_source').selectAll().where('carrier_code', '=', 'MAEU').executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(out.notificationSecret);
  });

  it.skipIf(!enabled)('prints the address the server answers at, never a guessed localhost:4000', async () => {
    // A shell without TT_BASE_URL (nor PORT), before any server ran on this database: refused, nothing written.
    const bare = { DATABASE_URL: t.url, TT_LOG_LEVEL: 'silent' };
    const refused = await runCaptured(['carrier', 'add', 'OOLU', '--json'], { env: bare, database: t.database });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/TT_BASE_URL is not set/);
    expect(
      await t.database.db.selectFrom('carrier_source').select('carrier_code').where('carrier_code', '=', 'OOLU').executeTakeFirst(),
    ).toBeUndefined();
    // `tracking serve` records where it answers (here on port 4123): the CLI in another shell prints that.
    await recordServiceValue(t.database.db, SERVED_BASE_URL, 'http://localhost:4123');
    const added = await runCaptured(['carrier', 'add', 'OOLU', '--json'], { env: bare, database: t.database });
    expect(added.code, added.stderr).toBe(0);
    expect((JSON.parse(added.stdout) as { notificationUrl: string }).notificationUrl).toBe(
      'http://localhost:4123/v2/carrier-notifications/OOLU',
    );
    // TT_BASE_URL, when set, is what the server reads too: it wins.
    const rotated = await run('carrier', 'rotate-secret', 'OOLU', '--json');
    expect((JSON.parse(rotated.stdout) as { notificationUrl: string }).notificationUrl).toBe(
      'https://tracking.example.com/v2/carrier-notifications/OOLU',
    );
    await run('carrier', 'remove', 'OOLU');
  });

  it.skipIf(!enabled)('refuses bad input as usage errors (exit 2) and a repeated code', async () => {
    for (const args of [
      ['carrier', 'add', 'maeu'],
      ['carrier', 'add', 'CMDU', '--secret', 'c2hvcnQ='],
      ['carrier', 'add', 'CMDU', '--events-url', 'ftp://x'],
      ['carrier', 'add', 'CMDU', '--api-key', 'k'],
      ['carrier', 'add', 'CMDU', '--events-url', 'https://a.example/v2/events', '--api-key', 'k', '--oauth-client-id', 'x'],
      ['carrier', 'add', 'CMDU', '--events-url', 'https://a.example/v2/events', '--poll-interval', '1'],
      ['carrier', 'add', 'MAEU'],
    ]) {
      const r = await run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^tracking carrier add: /);
    }
  });

  it.skipIf(!enabled)('prefixes sets how tracking requests recognise the carrier (docs/tracking-requests.md)', async () => {
    await run('carrier', 'add', 'HLCU', '--json');
    const set = await run('carrier', 'prefixes', 'HLCU', 'HLCU,HLXU');
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/HLCU, HLXU/);
    const listed = JSON.parse((await run('carrier', 'list', '--json')).stdout) as { carrierCode: string; referencePrefixes: string[] }[];
    expect(listed.find((c) => c.carrierCode === 'HLCU')?.referencePrefixes).toEqual(['HLCU', 'HLXU']);
    expect((await run('carrier', 'prefixes', 'HLCU', 'hl cu')).code).toBe(2);
    expect((await run('carrier', 'prefixes', 'ZZZZ', 'ZZ')).code).not.toBe(0);
    expect((await run('carrier', 'prefixes', 'HLCU', '-')).stdout).toMatch(/by the prefixes HLCU\./);
    expect((await run('carrier', 'remove', 'HLCU')).code).toBe(0);
  });

  it.skipIf(!enabled)('list, rotate-secret and disable', async () => {
    const secret = Buffer.alloc(48, 9).toString('base64');
    expect(
      (
        await run(
          'carrier',
          'add',
          'ONEY',
          '--events-url',
          'https://api.one.example/v2/events',
          '--oauth-token-url',
          'https://auth.one.example/token',
          '--oauth-client-id',
          'tt',
          '--oauth-client-secret',
          'very-secret',
          '--secret',
          secret,
        )
      ).code,
    ).toBe(0);
    const list = await run('carrier', 'list', '--json');
    const carriers = JSON.parse(list.stdout) as { carrierCode: string; eventsAuth: string; status: string; poll: unknown }[];
    expect(carriers.map((c) => [c.carrierCode, c.eventsAuth, c.status])).toEqual([
      ['MAEU', 'none', 'ACTIVE'],
      ['ONEY', 'oauth2', 'ACTIVE'],
    ]);
    expect(carriers[1]?.poll).toMatchObject({ consecutiveFailures: 0, lastError: null });
    expect(list.stdout).not.toContain('very-secret');
    expect(list.stdout).not.toContain(secret);
    expect((await run('carrier', 'list')).stdout).toMatch(/^CARRIER\s+NAME\s+STATUS\s+EVENTS_URL/);

    const rotated = await run('carrier', 'rotate-secret', 'ONEY', '--json');
    const next = (JSON.parse(rotated.stdout) as { notificationSecret: string }).notificationSecret;
    expect(next).not.toBe(secret);
    const store = await CarrierStore.open(t.database.db, config);
    expect((await store.notificationKey('ONEY'))?.toString('base64')).toBe(next);

    expect((await run('carrier', 'disable', 'ONEY')).code).toBe(0);
    expect(await store.notificationKey('ONEY')).toBeNull();
    expect(await store.pollTargets()).toEqual([]);
    const missing = await run('carrier', 'disable', 'ZZZ');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no carrier "ZZZ"');
  });

  it.skipIf(!enabled)('poll --once polls the carriers with an events URL and prints a summary per carrier', async () => {
    const publisher = await FakeDcsaPublisher.start();
    try {
      publisher.events = [rawTransportEvent(1), rawTransportEvent(2)];
      expect((await run('carrier', 'add', 'EGLV', '--events-url', publisher.eventsUrl, '--poll-since', '2024-01-01T00:00:00Z')).code).toBe(
        0,
      );
      const r = await run('poll', '--once');
      expect(r.code).toBe(0);
      const [polled, round] = r.stdout.trim().split('\n');
      expect(JSON.parse(polled ?? '')).toMatchObject({ carrierCode: 'EGLV', pages: 1, events: 2, eventsStored: 2, error: null });
      // Then the tracking fetcher's round, in one line (no tracking request here).
      expect(JSON.parse(round ?? '')).toEqual({
        trackingFetches: 0,
        found: 0,
        unchanged: 0,
        empty: 0,
        refused: 0,
        deferred: 0,
        statuses: {},
        errors: [],
      });
      publisher.script = { 1: { status: 400 } };
      // At info, the poller logs what it does: on stderr, so stdout stays the one JSON result per carrier.
      const failed = await runCaptured(['poll', '--once', '--carrier', 'EGLV'], {
        env: { ...env(), TT_LOG_LEVEL: 'info' },
        database: t.database,
      });
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.stdout.split('\n')[0] ?? '')).toMatchObject({ error: expect.stringContaining('400') });
      const logged = failed.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: string; message: string });
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.every((line) => typeof line.level === 'string' && typeof line.message === 'string')).toBe(true);
    } finally {
      await publisher.close();
    }
  });

  it.skipIf(!enabled)('poll --once runs one round of the tracking fetcher: a PENDING request becomes TRACKING, exit 0', async () => {
    const publisher = await FakeDcsaPublisher.start();
    try {
      const bl = { documentReferenceType: 'TRD', documentReferenceValue: 'HLCUBL7' };
      publisher.events = [
        rawTransportEvent(71, { documentReferences: [bl, { documentReferenceType: 'BKG', documentReferenceValue: 'HLCUBK7' }] }),
      ];
      const added = await run('carrier', 'add', 'HLCU', '--events-url', publisher.eventsUrl);
      expect(added.code, added.stderr).toBe(0);
      const principal = { clientId: 'cron-client', accountIds: ['acme'], scopes: [] };
      const { trackingRequest } = await requestTracking(
        t.database,
        config,
        principal,
        { transportDocumentReference: 'HLCUBL7' },
        new Date(),
      );
      expect(trackingRequest.status).toBe('PENDING');

      const r = await run('poll', '--once', '--carrier', 'HLCU');
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(JSON.parse(lines[1] ?? '')).toMatchObject({ trackingFetches: 1, found: 1, refused: 0, statuses: { TRACKING: 1 }, errors: [] });
      expect(publisher.requests.some((q) => q.includes('transportDocumentReference=HLCUBL7'))).toBe(true);
      const after = await getTrackingRequest(t.database.db, 'cron-client', trackingRequest.trackingRequestID);
      expect(after).toMatchObject({ status: 'TRACKING', shipment: { carrierBookingReference: 'HLCUBK7' } });
    } finally {
      await publisher.close();
    }
  });
});
