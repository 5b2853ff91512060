import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { CLI_BIN, ingestInProcess, until } from './support/ingest-process.js';

/**
 * Push delivery across real processes (issue 11): deliveries committed by
 * `tracking ingest` while no server runs go out when one starts (the outbox
 * survives a crash between commit and send), and two `serve` processes on
 * one database deliver every transition exactly once, in order per
 * subscription.
 */
const ACCOUNT = 'acct-procs';
const SHIPMENTS = 12;

const booking = (i: number) => `PROC-${i}`;
let n = 0;
/** A new milestone for shipment i: an estimated arrival at a new call (one EVENT_TRIGGER delivery). */
const newMilestone = (i: number) => ({
  eventID: `9f0c0000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  eventType: 'TRANSPORT',
  eventClassifierCode: 'EST',
  eventDateTime: '2026-10-21T20:00:00Z',
  eventCreatedDateTime: '2026-10-10T00:00:00Z',
  transportEventTypeCode: 'ARRI',
  documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: booking(i) }],
  transportCall: {
    transportCallID: `TC-${n}`,
    modeOfTransport: 'VESSEL',
    UNLocationCode: 'SGSIN',
    vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
  },
});

function startServe(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI_BIN, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TT_LOG_LEVEL: 'warn',
      TT_DELIVERY_POLL_MS: '100',
      TT_EVALUATE_INTERVAL_SECONDS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

describe.each(dialects)('push delivery across processes on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let f: TestApp;
  let receiver: WebhookReceiver;
  let dir: string;

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    t = await createTestDatabase(name);
    f = await createTestApp(name, { testDatabase: t });
    const { token } = await f.tokenFor(ACCOUNT, { subscribe: true });
    await f.ingest({
      carrierCode: 'EGLV',
      shipments: Array.from({ length: SHIPMENTS }, (_, i) => ({
        carrierBookingReference: booking(i),
        carrierCode: 'EGLV',
        portOfLoading: { unLocationCode: 'CNSHA' },
        portOfDischarge: { unLocationCode: 'NLRTM' },
        accounts: [ACCOUNT],
      })),
    });
    for (let i = 0; i < SHIPMENTS; i++) {
      const response = await f.send('POST', '/v2/subscriptions', token, {
        callbackUrl: receiver.url,
        carrierCode: 'EGLV',
        carrierBookingReference: booking(i),
        triggerTypes: ['EVENT_TRIGGER'],
      });
      expect(response.status).toBe(201);
    }
    dir = mkdtempSync(join(tmpdir(), 'tt-procs-'));
  });
  afterAll(async () => {
    await f?.destroy();
    await t?.destroy();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** `tracking ingest` in its own process (asynchronously: the receiver lives in this process). */
  async function ingest(events: object[]) {
    const { status, stderr } = await ingestInProcess(dir, `bundle-${n}.json`, { carrierCode: 'EGLV', events }, { DATABASE_URL: t.url });
    expect(status, stderr).toBe(0);
  }

  it.skipIf(!enabled)(
    'delivers what was committed while no server ran, once a server starts',
    async () => {
      const start = receiver.received.length;
      await ingest(Array.from({ length: SHIPMENTS }, (_, i) => newMilestone(i)));
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received.length).toBe(start);
      const server = await startServe(t.url);
      try {
        await until(() => receiver.received.length >= start + SHIPMENTS, 20_000, 'the deliveries');
      } finally {
        await stop(server);
      }
      expect(receiver.received.slice(start).every((r) => r.json.transmissionHeader.triggerType === 'EVENT_TRIGGER')).toBe(true);
    },
    60_000,
  );

  it.skipIf(!enabled)(
    'two serve processes deliver every transition once, in order per subscription',
    async () => {
      const servers = await Promise.all([startServe(t.url), startServe(t.url)]);
      const start = receiver.received.length;
      try {
        // Three ingests, each one new milestone per shipment: 3 deliveries per subscription, in this order.
        const rounds = [0, 1, 2].map(() => Array.from({ length: SHIPMENTS }, (_, i) => newMilestone(i)));
        for (const events of rounds) await ingest(events);
        await until(() => receiver.received.length >= start + 3 * SHIPMENTS, 30_000, 'every delivery');
        await new Promise((r) => setTimeout(r, 500)); // a second sending would arrive by now
      } finally {
        await Promise.all(servers.map(stop));
      }
      const got = receiver.received.slice(start);
      const ids = got.map((r) => r.headers['tracking-delivery-id']);
      expect(new Set(ids).size).toBe(ids.length);
      expect(got).toHaveLength(3 * SHIPMENTS);
      // Per subscription (one per shipment), the triggering events arrive in commit order.
      const bySubscription = new Map<string, string[]>();
      for (const r of got) {
        const key = r.json.shipmentTracking.carrierBookingReference as string;
        bySubscription.set(key, [...(bySubscription.get(key) ?? []), r.json.transmissionHeader.triggeredByEvent]);
      }
      for (const [key, events] of bySubscription) expect(events, key).toEqual([...events].sort());
    },
    90_000,
  );
});
