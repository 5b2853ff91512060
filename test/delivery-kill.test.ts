import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerServices } from '../src/app/workers.js';
import { connectDatabase } from '../src/db/connect.js';
import { createLogger } from '../src/observability/logger.js';
import { createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { milestoneMaker, subscribedShipments } from './support/webhook-shipments.js';

/**
 * A worker killed (SIGKILL) at each step of a send (issue 50): a delivery the receiver refused twice is being
 * tried a third time when its worker dies right after the claim, the read back, the lease renewal, the
 * receiver's answer, or the recorded outcome. What the dead worker left says the delivery is due again within
 * TT_DELIVERY_LEASE_SECONDS plus its backoff from the kill (docs/push.md, Guarantees), not before its lease or
 * backoff ran out, and a restarted worker sends it again in its rounds once that time has come. The restarted
 * worker's clock is set, not waited for: the test asserts order and "sent again", never speed.
 */
const ACTOR = new URL('./support/delivery-actor.ts', import.meta.url).pathname;
const ACCOUNT = 'acct-kill';
const BOOKING = 'KILL-1';
const LEASE_SECONDS = 2;
/** A quick backoff (100 ms doubled per attempt, at most 400 ms), for the killed worker and the restarted one. */
const RETRY = { baseDelayMs: 100, maxDelayMs: 400, retryPeriodMs: 3_600_000 };
const MAX_BACKOFF_MS = RETRY.maxDelayMs;
const STEPS = ['claimed', 'read back', 'confirmed', 'answered', 'recorded'] as const;

/** A new estimated arrival of the shipment: one EVENT_TRIGGER delivery. */
const milestone = milestoneMaker('4b111000');
const newMilestone = () => milestone(BOOKING);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(dialects)('a delivery worker killed at each step of a send, on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name);
    await subscribedShipments(f, ACCOUNT, [BOOKING], receiver.url);
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  /** The worker process, stopped dead right after `step` of the third attempt, then killed. */
  async function killAt(step: string): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', ACTOR], {
      env: {
        ...process.env,
        DATABASE_URL: f.t.url,
        TT_LOG_LEVEL: 'warn',
        TT_DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
        TT_DELIVERY_POLL_MS: '50',
        STOP_AT: step,
        STOP_ATTEMPT: '3',
        RETRY_BASE_MS: String(RETRY.baseDelayMs),
        RETRY_MAX_MS: String(RETRY.maxDelayMs),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const budget = setTimeout(() => reject(new Error(`the worker never reached "${step}": ${out} ${err}`)), 90_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes(`stopped ${step}\n`)) {
          clearTimeout(budget);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before "${step}": ${out} ${err}`)));
    });
    child.kill('SIGKILL');
    await exited;
  }

  async function deliveryRow(eventId: string) {
    return f.t.database.db
      .selectFrom('webhook_delivery')
      .select(['delivery_id', 'status', 'attempts', 'next_attempt_at', 'lease_owner', 'lease_until'])
      .where('triggered_by_event', '=', eventId)
      .executeTakeFirstOrThrow();
  }

  it.skipIf(!enabled).each(STEPS)(
    'killed right after "%s" of its third attempt: due again within the lease plus its backoff, and sent again then',
    async (step) => {
      const event = newMilestone();
      await f.ingest({ carrierCode: 'EGLV', events: [event] });
      const requests = () => receiver.received.filter((r) => r.json?.transmissionHeader?.triggeredByEvent === event.eventID);
      // The receiver refuses every attempt until the worker is killed (two before the step's attempt, and that
      // one when it is sent), then accepts.
      let killed = false;
      receiver.answer = () => (killed ? 200 : 503);
      await killAt(step);
      killed = true;
      const killedAt = Date.now();

      // What the dead worker left: the delivery pending, held by its lease or waiting for its backoff.
      const left = await deliveryRow(event.eventID);
      expect(left.status).toBe('PENDING');
      const sentBeforeKill = requests().length;
      expect(sentBeforeKill).toBe(step === 'answered' || step === 'recorded' ? 3 : 2);
      const dueAt = Math.max(Date.parse(left.next_attempt_at), left.lease_until ? Date.parse(left.lease_until) + 1 : 0);
      // The promise: due again within the lease plus its backoff from the kill.
      expect(dueAt).toBeLessThanOrEqual(killedAt + LEASE_SECONDS * 1000 + MAX_BACKOFF_MS);

      // A restarted worker (its own connection, as a new process has), on a clock the test sets.
      let clock = dueAt - 1;
      const database = connectDatabase(f.t.url, { poolSize: 2 });
      const restarted = await createWorkerServices({
        config: testConfig({ TT_DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS), TT_DELIVERY_POLL_MS: '50' }),
        database,
        logger: createLogger('silent'),
        now: () => new Date(clock),
        webhooks: { retry: RETRY },
      });
      try {
        // Not before its lease and backoff ran out: another worker may still be sending it.
        expect((await restarted.deliveries.runOnce()).claimed).toBe(0);
        expect(requests()).toHaveLength(sentBeforeKill);
        // Once they have, the restarted worker's own rounds send it (nothing wakes it: it looks by itself).
        clock = killedAt + LEASE_SECONDS * 1000 + MAX_BACKOFF_MS;
        restarted.deliveries.start();
        const deadline = Date.now() + 30_000;
        while ((await deliveryRow(event.eventID)).status === 'PENDING' && Date.now() < deadline) await sleep(50);
      } finally {
        await restarted.close();
        await database.close();
      }
      const after = requests().slice(sentBeforeKill);
      expect(after.length, 'sent again after the restart').toBeGreaterThan(0);
      // The same delivery (receivers de-duplicate on its id), accepted.
      expect(after.map((r) => r.headers['tracking-delivery-id'])).toEqual(after.map(() => left.delivery_id));
      expect(after.at(-1)?.status).toBe(200);
      expect((await deliveryRow(event.eventID)).status).toBe('DELIVERED');
    },
    150_000,
  );
});
