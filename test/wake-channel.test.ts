import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWakeChannel } from '../src/app/wake-channel.js';
import { createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { TEST_REDIS_URL, uniquePrefix } from './support/rate-limit-stores.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { ingestInProcess, until } from './support/ingest-process.js';

/**
 * Wake-ups between processes (docs/architecture.md, Scale-out; docs/push.md "How soon"): with Redis, a
 * commit in one process wakes the delivery workers of the others at once instead of at their next poll.
 * The worker here polls once a minute, so only the wake-up can explain a delivery within seconds.
 */
const ACCOUNT = 'acct-wake';
const BOOKING = 'WAKE-1';
let n = 0;

/** A new estimated arrival at a new call: one EVENT_TRIGGER delivery. */
const newMilestone = () => ({
  eventID: `9f0d0000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  eventType: 'TRANSPORT',
  eventClassifierCode: 'EST',
  eventDateTime: '2026-10-21T20:00:00Z',
  eventCreatedDateTime: '2026-10-10T00:00:00Z',
  transportEventTypeCode: 'ARRI',
  documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: BOOKING }],
  transportCall: {
    transportCallID: `TC-WAKE-${n}`,
    modeOfTransport: 'VESSEL',
    UNLocationCode: 'SGSIN',
    vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
  },
});

describe('the wake channel', () => {
  it('reaches no one without Redis, and never fails', async () => {
    const channel = await openWakeChannel({ redisUrl: undefined, keyPrefix: 'unused', log: () => {} });
    let heard = 0;
    channel.subscribe(() => heard++);
    channel.publish();
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toBe(0);
    await channel.close();
  });

  it.skipIf(!TEST_REDIS_URL)('carries a publish to every subscriber of the same prefix, and to no other', async () => {
    const prefix = uniquePrefix();
    const open = (keyPrefix: string) => openWakeChannel({ redisUrl: TEST_REDIS_URL, keyPrefix, log: () => {} });
    const [a, b, other] = await Promise.all([open(prefix), open(prefix), open(uniquePrefix())]);
    try {
      let heardByB = 0;
      let heardByOther = 0;
      const subscribed = new Promise<void>((resolve) => {
        b.subscribe(() => heardByB++);
        other.subscribe(() => heardByOther++);
        // Subscribing completes asynchronously: publish until the first message is heard.
        resolve();
      });
      await subscribed;
      await until(
        () => {
          a.publish();
          return heardByB > 0;
        },
        5_000,
        'the wake-up',
      );
      expect(heardByOther).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
  });
});

describe.each(dialects)('a commit by `tracking ingest` wakes the worker of a running instance on $name', ({ name, enabled }) => {
  const on = enabled && Boolean(TEST_REDIS_URL);
  const prefix = uniquePrefix();
  let t: TestDatabase;
  let f: TestApp;
  let receiver: WebhookReceiver;
  let dir: string;

  beforeAll(async () => {
    if (!on) return;
    receiver = await WebhookReceiver.start();
    t = await createTestDatabase(name);
    const config = testConfig({ REDIS_URL: TEST_REDIS_URL as string, TT_RATE_LIMIT_PREFIX: prefix, TT_DELIVERY_POLL_MS: '60000' });
    f = await createTestApp(name, { testDatabase: t, config });
    const { token } = await f.tokenFor(ACCOUNT, { subscribe: true });
    await f.ingest({
      carrierCode: 'EGLV',
      shipments: [
        {
          carrierBookingReference: BOOKING,
          carrierCode: 'EGLV',
          portOfLoading: { unLocationCode: 'CNSHA' },
          portOfDischarge: { unLocationCode: 'NLRTM' },
          accounts: [ACCOUNT],
        },
      ],
    });
    const response = await f.send('POST', '/v2/subscriptions', token, {
      callbackUrl: receiver.url,
      carrierCode: 'EGLV',
      carrierBookingReference: BOOKING,
      triggerTypes: ['EVENT_TRIGGER'],
    });
    expect(response.status).toBe(201);
    f.app.deliveries.start();
    dir = mkdtempSync(join(tmpdir(), 'tt-wake-'));
  });
  afterAll(async () => {
    await f?.destroy();
    await t?.destroy();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function ingest(env: Record<string, string>) {
    const bundle = { carrierCode: 'EGLV', events: [newMilestone()] };
    const { status, stderr } = await ingestInProcess(dir, `bundle-${n}.json`, bundle, { DATABASE_URL: t.url, REDIS_URL: '', ...env });
    expect(status, stderr).toBe(0);
  }

  it.skipIf(!on)(
    'waits for the poll without Redis, and delivers at once when the committing process has Redis',
    async () => {
      // The worker's first round has run and found nothing; its next look is a minute away.
      await new Promise((r) => setTimeout(r, 500));
      const start = receiver.received.length;
      await ingest({});
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.received.length).toBe(start);
      await ingest({ REDIS_URL: TEST_REDIS_URL as string, TT_RATE_LIMIT_PREFIX: prefix });
      // Both changes go out now: the wake-up makes the worker look, and it finds everything due.
      await until(() => receiver.received.length >= start + 2, 15_000, 'the deliveries after the wake-up');
      expect(receiver.received.slice(start).map((r) => r.json.transmissionHeader.triggerType)).toEqual(['EVENT_TRIGGER', 'EVENT_TRIGGER']);
    },
    60_000,
  );
});
