import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app/create-app.js';
import { connectDatabase, type Database } from '../src/db/connect.js';
import { DeliveryWorker } from '../src/push/delivery-worker.js';
import type { WebhookRequest } from '../src/push/webhook-sender.js';
import { createLogger } from '../src/observability/logger.js';
import { createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { milestoneMaker, subscribedShipments } from './support/webhook-shipments.js';

/**
 * Claims of the outbox without engine-specific locking (issue 26): a conditional lease UPDATE and a read back
 * by the claim's token, never `SKIP LOCKED`. Two workers on one outbox, a worker killed mid-send, a worker
 * that outlasts its lease: every delivery is accepted by its receiver exactly once, in order per subscription.
 */

const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;
const ACCOUNT = 'acct-claims';
const SHIPMENTS = 10;
const booking = (i: number) => `CLAIM-${i}`;
/** A new milestone for shipment i: one EVENT_TRIGGER delivery per subscription of it. */
const milestone = milestoneMaker('7c1a0000');
const newMilestone = (i: number) => milestone(booking(i));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(dialects)('delivery claims on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;
  const statements: string[] = [];

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name);
    await subscribedShipments(
      f,
      ACCOUNT,
      Array.from({ length: SHIPMENTS }, (_, i) => booking(i)),
      receiver.url,
    );
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  /** `rounds` new milestones per shipment, committed before any worker runs. */
  async function enqueue(rounds: number): Promise<string[]> {
    const events = Array.from({ length: rounds }, () => Array.from({ length: SHIPMENTS }, (_, i) => newMilestone(i)));
    for (const round of events) await f.ingest({ carrierCode: 'EGLV', events: round });
    return events.flat().map((e) => e.eventID);
  }

  async function pendingCount(): Promise<number> {
    const rows = await f.t.database.db.selectFrom('webhook_delivery').select('id').where('status', '=', 'PENDING').execute();
    return rows.length;
  }

  /** The deliveries of `events`, as their receiver accepted them (2xx), in arrival order. */
  function acceptedFor(events: readonly string[]) {
    const wanted = new Set(events);
    return receiver.accepted.filter((r) => wanted.has(r.json.transmissionHeader.triggeredByEvent));
  }

  function expectOncePerDeliveryInOrder(events: readonly string[]) {
    const got = acceptedFor(events);
    const ids = got.map((r) => r.headers['tracking-delivery-id']);
    expect(new Set(ids).size, 'each delivery accepted once').toBe(ids.length);
    expect(got).toHaveLength(events.length);
    const bySubscription = new Map<string, string[]>();
    for (const r of got) {
      const key = r.json.shipmentTracking.carrierBookingReference as string;
      bySubscription.set(key, [...(bySubscription.get(key) ?? []), r.json.transmissionHeader.triggeredByEvent]);
    }
    // Event ids grow with the order they were committed in: per subscription they arrive in that order.
    for (const [key, seen] of bySubscription) expect(seen, key).toEqual([...seen].sort());
  }

  it.skipIf(!enabled)(
    'two workers on one outbox, claiming at the same moments, send every delivery once, in order, without SKIP LOCKED',
    async () => {
      const events = await enqueue(4);
      const second: Database = connectDatabase(f.t.url, {
        log: (event) => {
          if (event.level === 'query') statements.push(event.query.sql);
        },
      });
      const other: App = await createApp({ config: testConfig(), database: second, logger: createLogger('silent') });
      const workers = [f.app.deliveries, other.deliveries];
      try {
        // Rounds of both workers start together, so their claims race for the same heads of line.
        for (let i = 0; i < 60 && (await pendingCount()) > 0; i++) {
          await Promise.all(workers.map((w) => w.runOnce()));
        }
      } finally {
        await other.close();
        await second.close();
      }
      expectOncePerDeliveryInOrder(events);
      const claims = statements.filter((s) => /^update [`"]webhook_delivery[`"] set [`"]lease_owner[`"]/i.test(s));
      expect(claims.length).toBeGreaterThan(0);
      expect(statements.filter((s) => /skip\s+locked/i.test(s))).toEqual([]);
      expect(claims.filter((s) => /for\s+update/i.test(s))).toEqual([]);
    },
    90_000,
  );

  it.skipIf(!enabled)(
    'a worker killed mid-send leaves its deliveries to another once its lease runs out: each accepted once',
    async () => {
      const events = await enqueue(1);
      const firstAttempts = new Set<string>();
      // The killed worker's requests reach the receiver and are never answered: killed before the answer.
      receiver.answer = ({ body }) => {
        const transmission = (JSON.parse(body) as { transmissionHeader: { transmissionID: string } }).transmissionHeader.transmissionID;
        if (firstAttempts.has(transmission)) return 200;
        firstAttempts.add(transmission);
        return new Promise<never>(() => {});
      };
      try {
        const worker = spawn(process.execPath, [BIN, 'deliver'], {
          env: { ...process.env, DATABASE_URL: f.t.url, TT_LOG_LEVEL: 'warn', TT_DELIVERY_LEASE_SECONDS: '2', TT_DELIVERY_POLL_MS: '100' },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        const deadline = Date.now() + 30_000;
        while (firstAttempts.size < events.length && Date.now() < deadline) await sleep(50);
        expect(firstAttempts.size, 'every delivery in flight').toBe(events.length);
        worker.kill('SIGKILL');
        await new Promise((resolve) => worker.once('exit', resolve));
        expect(await pendingCount()).toBe(events.length);
        // Still leased: nobody sends them yet.
        expect((await f.app.deliveries.runOnce()).claimed).toBe(0);
        await sleep(2_200);
        for (let i = 0; i < 20 && (await pendingCount()) > 0; i++) await f.app.deliveries.runOnce();
      } finally {
        receiver.answer = () => 200;
      }
      expectOncePerDeliveryInOrder(events);
      expect(await pendingCount()).toBe(0);
    },
    90_000,
  );

  it.skipIf(!enabled)('a worker that outlasts its lease sends nothing another worker took over', async () => {
    const events = await enqueue(1);
    const sent: { worker: string; id: string }[] = [];
    let stalled!: () => void;
    const stalling = new Promise<void>((resolve) => (stalled = resolve));
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    const worker = (label: string, stall: boolean) =>
      new DeliveryWorker({
        database: f.t.database,
        secrets: f.app.services.push.secrets,
        async bodies(deliveries) {
          if (stall) {
            stalled();
            await resumed;
          }
          return new Map(deliveries.map((d) => [d.id, { ok: true as const, body: '{}' }]));
        },
        async send(request: WebhookRequest) {
          sent.push({ worker: label, id: request.headers['Tracking-Delivery-ID']! });
          return { status: 200, retryAfter: null, error: null };
        },
        log: () => {},
        leaseMs: 300,
      });
    const slow = worker('slow', true);
    const quick = worker('quick', false);
    const slowRound = slow.runOnce();
    await stalling;
    await sleep(400); // the slow worker's lease runs out
    const quickRound = await quick.runOnce();
    expect(quickRound.delivered).toBe(events.length);
    resume();
    expect((await slowRound).delivered).toBe(0);
    expect(sent.filter((s) => s.worker === 'slow')).toEqual([]);
    expect(new Set(sent.map((s) => s.id)).size).toBe(events.length);
    expect(await pendingCount()).toBe(0);
  });
});
