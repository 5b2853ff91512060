import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
/**
 * Throughput of the two carrier paths in (docs/carriers.md "Carrier onboarding"):
 *
 *   notifications: a `tracking serve` child process (sandbox, no seed, SQLite
 *     or DATABASE_URL) gets BUNDLES signed DCSA notifications of EVENTS
 *     events each, CONCURRENCY at a time, over loopback HTTP;
 *   poller: the carrier poller (in this process) reads POLL_EVENTS events
 *     from a fake DCSA publisher on loopback, pages of TT_CARRIER_POLL_PAGE_SIZE.
 *
 * Events are spread over SHIPMENTS shipments known beforehand, ten
 * consecutive events per shipment, so every notification or page links
 * events, refreshes ten snapshots and runs the exception rules, as real
 * traffic does.
 *
 *   npm run build && npx tsx scripts/carrier-throughput.ts [--bundles 100] [--events 100] [--concurrency 4] [--poll-events 10000] [--mysql mysql://root@127.0.0.1:3306/test]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { CarrierStore } from '../src/carriers/carrier-store.js';
import { notificationKey, signNotification } from '../src/carriers/notification-signature.js';
import { CarrierPoller } from '../src/carriers/poller.js';
import { loadConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { FakeDcsaPublisher } from '../test/support/fake-dcsa-publisher.js';

const { values } = parseArgs({
  options: {
    bundles: { type: 'string', default: '100' },
    events: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '4' },
    'poll-events': { type: 'string', default: '10000' },
    shipments: { type: 'string', default: '100' },
    mysql: { type: 'string' },
  },
});
const BUNDLES = Number(values.bundles);
const EVENTS = Number(values.events);
const CONCURRENCY = Number(values.concurrency);
const POLL_EVENTS = Number(values['poll-events']);
const SHIPMENTS = Number(values.shipments);
const CLI = join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js');
const CARRIER = 'MAEU';
const VESSEL = { vesselIMONumber: '9321483', vesselName: 'MAERSK ESSEN' };

function shipment(i: number) {
  return {
    carrierBookingReference: `BENCH${i}`,
    carrierCode: CARRIER,
    billOfLadingNumber: `MAEUBENCH${i}`,
    portOfLoading: { unLocationCode: 'NLRTM' },
    portOfDischarge: { unLocationCode: 'SGSIN' },
    accounts: ['bench'],
  };
}

/** Event n: an estimate of the arrival of shipment (n / 10) % SHIPMENTS (ten events each: a notification of 100 touches 10 shipments), created n seconds after the start, local time. */
function event(n: number) {
  const created = new Date(Date.UTC(2026, 0, 1) + n * 1000);
  const local = new Date(created.getTime() + 8 * 3_600_000).toISOString().slice(0, 19) + '+08:00';
  return {
    eventID: `5e51e72c-d872-41ea-811c-${n.toString(16).padStart(12, '0')}`,
    eventType: 'TRANSPORT',
    eventClassifierCode: 'EST',
    eventCreatedDateTime: local,
    eventDateTime: new Date(Date.UTC(2026, 1, 1) + (n % 97) * 3_600_000).toISOString(),
    transportEventTypeCode: 'ARRI',
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: `BENCH${shipmentOf(n)}` }],
    transportCall: {
      transportCallID: `TC-SGSIN-${shipmentOf(n)}`,
      modeOfTransport: 'VESSEL',
      UNLocationCode: 'SGSIN',
      facilityTypeCode: 'POTE',
      vessel: VESSEL,
    },
  };
}

const shipmentOf = (n: number) => Math.floor(n / 10) % SHIPMENTS;

/** A new SQLite file, or a new database on the --mysql server (dropped afterwards). */
async function freshDatabaseUrl(): Promise<{ url: string; cleanup: () => Promise<void> | void }> {
  if (values.mysql) {
    const name = `tt_carrier_bench_${Date.now()}`;
    const admin = await createConnection(values.mysql);
    await admin.query(`CREATE DATABASE \`${name}\``);
    await admin.end();
    const url = new URL(values.mysql);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      cleanup: async () => {
        const conn = await createConnection(values.mysql as string);
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'tt-carrier-bench-'));
  return { url: `sqlite:${join(dir, 'bench.sqlite')}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function notifications(): Promise<void> {
  const { url, cleanup } = await freshDatabaseUrl();
  const port = 4600 + Math.floor(Math.random() * 300);
  const env = {
    ...process.env,
    DATABASE_URL: url,
    PORT: String(port),
    HOST: '127.0.0.1',
    TT_SEED_SANDBOX: 'false',
    TT_CARRIER_POLLER: 'false',
    TT_DELIVERY_WORKER: 'false',
    TT_LOG_LEVEL: 'warn',
    TT_EVALUATE_INTERVAL_SECONDS: '0',
  };
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], {
      env,
      encoding: 'utf8',
      input: args.includes('-')
        ? JSON.stringify({ carrierCode: CARRIER, shipments: Array.from({ length: SHIPMENTS }, (_, i) => shipment(i)) })
        : undefined,
    });
    if (r.status !== 0) throw new Error(`tracking ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  cli('ingest', '-');
  const { notificationSecret } = JSON.parse(cli('carrier', 'add', CARRIER, '--json')) as { notificationSecret: string };
  const key = notificationKey(notificationSecret);
  if (!key.ok) throw new Error(key.message);
  const server = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      server.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
      server.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const bodies = Array.from({ length: BUNDLES }, (_, b) =>
      JSON.stringify(Array.from({ length: EVENTS }, (_, i) => event(b * EVENTS + i))),
    );
    let next = 0;
    const started = performance.now();
    const latencies: number[] = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++] as string;
          const t0 = performance.now();
          const response = await fetch(`http://127.0.0.1:${port}/v2/carrier-notifications/${CARRIER}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Notification-Signature': signNotification(body, key.key) },
            body,
          });
          if (response.status !== 204) throw new Error(`notification answered ${response.status}: ${await response.text()}`);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(0);
    console.log(
      `notifications: ${BUNDLES} x ${EVENTS} events, ${CONCURRENCY} at a time, ${url.startsWith('sqlite') ? 'SQLite' : 'MySQL'}: ` +
        `${seconds.toFixed(1)} s, ${((BUNDLES * EVENTS) / seconds).toFixed(0)} events/s, ${(BUNDLES / seconds).toFixed(1)} notifications/s, ` +
        `latency p50 ${p(0.5)} ms p95 ${p(0.95)} ms`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await cleanup();
  }
}

async function poller(): Promise<void> {
  const { url, cleanup } = await freshDatabaseUrl();
  const config = loadConfig({ DATABASE_URL: url });
  const database = connectDatabase(url);
  const publisher = await FakeDcsaPublisher.start();
  try {
    await migrateToLatest(database);
    const master = parseBundle({ carrierCode: CARRIER, shipments: Array.from({ length: SHIPMENTS }, (_, i) => shipment(i)) });
    if (!master.ok) throw new Error('bundle');
    await ingestBundle(database, master.bundle, { now: () => new Date() });
    publisher.events = Array.from({ length: POLL_EVENTS }, (_, n) => event(1_000_000 + n));
    const carriers = new CarrierStore(database.db, 'p'.repeat(32), config);
    await carriers.addCarrier({ carrierCode: CARRIER, eventsUrl: publisher.eventsUrl, pollSince: '2025-12-01T00:00:00Z' });
    const started = performance.now();
    const [result] = await new CarrierPoller({ database, carriers, config, log: () => undefined }).runOnce({ force: true });
    const seconds = (performance.now() - started) / 1000;
    if (!result || result.error || result.eventsStored !== POLL_EVENTS) throw new Error(`poll: ${JSON.stringify(result)}`);
    console.log(
      `poller: ${POLL_EVENTS} events in ${result.pages} pages of ${config.carriers.pollPageSize}, ${database.dialect === 'sqlite' ? 'SQLite' : 'MySQL'}: ` +
        `${seconds.toFixed(1)} s, ${(POLL_EVENTS / seconds).toFixed(0)} events/s`,
    );
  } finally {
    await publisher.close();
    await database.close();
    await cleanup();
  }
}

/** The same bundles written by ingestBundle in this process, without HTTP: what the pipeline itself costs. */
async function direct(): Promise<void> {
  const { url, cleanup } = await freshDatabaseUrl();
  const database = connectDatabase(url);
  try {
    await migrateToLatest(database);
    const master = parseBundle({ carrierCode: CARRIER, shipments: Array.from({ length: SHIPMENTS }, (_, i) => shipment(i)) });
    if (!master.ok) throw new Error('bundle');
    await ingestBundle(database, master.bundle, { now: () => new Date() });
    const started = performance.now();
    for (let b = 0; b < BUNDLES; b++) {
      const parsed = parseBundle({ carrierCode: CARRIER, events: Array.from({ length: EVENTS }, (_, i) => event(b * EVENTS + i)) });
      if (!parsed.ok) throw new Error('events');
      await ingestBundle(database, parsed.bundle, { now: () => new Date() });
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `ingestBundle alone (same bundles, one after the other): ${seconds.toFixed(1)} s, ${((BUNDLES * EVENTS) / seconds).toFixed(0)} events/s`,
    );
  } finally {
    await database.close();
    await cleanup();
  }
}

await notifications();
await poller();
await direct();
