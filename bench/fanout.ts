import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientStore } from '../src/auth/client-store.js';
import { loadConfig } from '../src/config/config.js';
import type { BenchDatabase } from './databases.js';
import { bundleIndexes, carrierOf, generateShipment, shipmentKey } from './generate.js';
import { runLoad, type LoadResult } from './load.js';
import { send } from './measure.js';
import { clientToken } from './setup.js';
import type { Arrival } from './fanout-receiver.js';
import { BENCH_DIST, CLI, type ServerProcess } from './processes.js';
import { restPath } from './scenarios.js';
import { pushLatency, type PushLatency } from './push-latency.js';

/** Single changes measured one at a time before the fan-out, per way of committing. */
const SINGLE_CHANGES = 20;

/**
 * Push fan-out (`--fanout`): `subscriptions` webhook subscriptions spread over
 * `shipments` shipments, then one ingest that flips a milestone of each of
 * those shipments to ACT (one EVENT_TRIGGER per subscription, plus the
 * exception transitions the new facts cause). A receiver on loopback, in a
 * process of its own (fanout-receiver.ts) answers 204 and notes when each
 * delivery arrives. `tracking ingest`
 * loads one bundle per carrier and prints a line per bundle as it commits:
 * that line's arrival is the start of the latency of the bundle's deliveries
 * (it errs high by the time the line takes to come through the pipe). REST lookups run
 * at a fixed rate for 8 s from the first commit on (the later bundles still
 * ingest during the first seconds of it) and, before the ingest, for the same
 * time without it, so their p99 can be compared.
 */

export interface FanoutOptions {
  subscriptions: number;
  shipments: number;
  /** Lookups per second during both lookup runs. */
  lookupRate: number;
  lookupConnections: number;
  /**
   * Who sends: the service's own worker, or a `tracking deliver` process at nice 10 (the service's worker off; the
   * fan-out's bulk `tracking ingest` then runs at nice 10 too).
   */
  worker: 'serve' | 'dedicated';
  /** --cpu-prof: the dedicated worker writes its profile here too. */
  cpuProf?: string;
}

export interface FanoutResult {
  subscriptions: number;
  deliveries: number;
  byTrigger: Record<string, number>;
  /** From the first commit to the last delivery. */
  seconds: number;
  deliveriesPerSecond: number;
  /** Deliveries per second from the ingest's start to the last delivery (the ingest included). */
  endToEndPerSecond: number;
  /** Seconds from the ingest's start to each bundle's commit. */
  commitsAfter: number[];
  latencyMs: { p50: number; p99: number; max: number };
  /** A single change with nothing queued, committed through the API and by the CLI (push-latency.ts). */
  single: PushLatency;
  ingestSeconds: number;
  lookupsQuiet: LoadResult;
  lookupsDuringFanout: LoadResult;
}

/** The receiver process (fanout-receiver.ts): its URL, and its arrivals on request. */
interface Receiver {
  url: string;
  count(): Promise<number>;
  report(): Promise<Arrival[]>;
  stop(): void;
}

/** `nice -n 10 tracking deliver`: a dedicated delivery worker the scheduler puts behind the API process. */
function startDedicatedWorker(databaseUrl: string, cpuProf: string | undefined): { stop(): Promise<void> } {
  const profile = cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [];
  const child = spawn('nice', ['-n', '10', process.execPath, ...profile, CLI, 'deliver'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, TT_ENVIRONMENT: 'sandbox', TT_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function startReceiver(): Promise<Receiver> {
  const child = fork(join(BENCH_DIST, 'bench', 'fanout-receiver.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ask = <T>(question: string, key: string): Promise<T> =>
    new Promise((resolve) => {
      const listener = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        child.off('message', listener);
        resolve(message[key] as T);
      };
      child.on('message', listener);
      child.send(question);
    });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { url?: string }) => (message.url ? resolve(message.url) : reject(new Error('no receiver URL'))));
    child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}`)));
  });
  return {
    url,
    count: () => ask<number>('count', 'count'),
    report: () => ask<Arrival[]>('report', 'arrivals'),
    stop: () => child.kill(),
  };
}

/** A token of a client allowed to subscribe (the scope an operator grants with `tracking client grant`). */
async function subscriberToken(bench: BenchDatabase, service: ServerProcess): Promise<string> {
  const config = loadConfig({ TT_ENVIRONMENT: 'sandbox', DATABASE_URL: bench.url });
  const clients = await ClientStore.open(bench.database.db, config);
  const client = await clients.createClient({ name: 'bench-fanout', account: 'bench' });
  await clients.setScope(client.client_id, 'track-and-trace.subscribe', true);
  return clientToken(service, client, 'track-and-trace.read track-and-trace.subscribe');
}

/** Creates the subscriptions over the public API, `parallel` requests at a time. */
async function subscribe(service: ServerProcess, token: string, callbackUrl: string, options: FanoutOptions): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < options.subscriptions) {
      const n = next++;
      const { carrierCode, carrierBookingReference } = shipmentKey(n % options.shipments);
      const response = await send(service, {
        method: 'POST',
        path: '/v2/subscriptions',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ callbackUrl, carrierCode, carrierBookingReference }),
      });
      if (response.status !== 201) throw new Error(`subscription ${n}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** Shipment `index`'s first container discharged (its DISC milestone flips from EST to ACT), known now. */
function dischargeEvent(index: number, at: Date): Record<string, unknown> {
  const { events } = generateShipment(index);
  const estimate = events.find((e) => e.equipmentEventTypeCode === 'DISC' && e.eventClassifierCode === 'EST');
  if (!estimate) throw new Error(`shipment ${index} has no DISC estimate`);
  const hex = (v: number, width: number) => v.toString(16).padStart(width, '0');
  return {
    ...estimate,
    eventID: `${hex(index, 8)}-00f0-4000-8000-${hex(index, 12)}`,
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: at.toISOString(),
  };
}

/**
 * `tracking …` from the build (`nice`: at nice 10, as a bulk job beside API instances); throws unless it exits 0.
 * Returns when each line of its output arrived (ms).
 */
async function runCli(args: string[], env: Record<string, string>, onLine?: () => void, nice = false): Promise<number[]> {
  const node = [process.execPath, ...(process.env.BENCH_CLI_NODE_ARGS?.split(' ') ?? []), CLI, ...args];
  const child = spawn(nice ? 'nice' : node[0]!, nice ? ['-n', '10', ...node] : node.slice(1), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  const lines: number[] = [];
  child.stdout.on('data', (c: Buffer) => {
    for (const ch of c.toString()) {
      if (ch !== '\n') continue;
      lines.push(Date.now());
      onLine?.();
    }
  });
  child.stderr.on('data', (c: Buffer) => (errors += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`tracking ${args[0]} exited with ${code}: ${errors}`);
  return lines;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export async function fanout(
  bench: BenchDatabase,
  service: ServerProcess,
  lookupToken: string,
  options: FanoutOptions,
): Promise<FanoutResult> {
  const receiver = await startReceiver();
  let worker: { stop(): Promise<void> } | undefined;
  try {
    // With a dedicated worker, a commit in the service does not wake it: the single changes wait for its poll.
    if (options.worker === 'dedicated') worker = startDedicatedWorker(bench.url, options.cpuProf);
    const single = await pushLatency(bench, service, receiver, runCli, SINGLE_CHANGES);
    // The single changes' arrivals are not the fan-out's.
    const earlier = await receiver.count();
    const token = await subscriberToken(bench, service);
    await subscribe(service, token, receiver.url, options);

    const lookup = () => {
      const { billOfLadingNumber } = shipmentKey(Math.floor(Math.random() * options.shipments));
      return { method: 'GET' as const, path: restPath(billOfLadingNumber), headers: { Authorization: `Bearer ${lookupToken}` } };
    };
    const lookupRun = (seconds: number) =>
      runLoad(service.url, lookup, { connections: options.lookupConnections, seconds, rate: options.lookupRate });
    await lookupRun(2);
    const lookupsQuiet = await lookupRun(8);

    // The ingest, as an operator runs it: `tracking ingest` in its own process, one bundle per
    // carrier (a bundle names one carrier), while lookups run.
    const dir = mkdtempSync(join(tmpdir(), 'tt-fanout-'));
    const now = new Date();
    const bundles = bundleIndexes(options.shipments, options.shipments);
    const carriers = bundles.map((indexes) => carrierOf(indexes[0] ?? 0).code);
    const files = bundles.map((indexes, n) => {
      const file = join(dir, `bundle-${n}.json`);
      writeFileSync(file, JSON.stringify({ carrierCode: carriers[n], events: indexes.map((i) => dischargeEvent(i, now)) }));
      return file;
    });
    // Lookups during the fan-out: from the first commit (deliveries can start) on, for as long as without it.
    let during: Promise<LoadResult> | undefined;
    const t0 = Date.now();
    // One line per bundle, printed after its commit, in the order of the files.
    // With the dedicated worker, the bulk ingest runs as docs/push.md advises beside API instances: at nice 10 too.
    const commits = await runCli(
      ['ingest', ...files],
      { DATABASE_URL: bench.url, TT_ENVIRONMENT: 'sandbox', TT_LOG_LEVEL: 'warn' },
      () => {
        during ??= lookupRun(8);
      },
      options.worker === 'dedicated',
    );
    if (commits.length !== files.length) throw new Error(`tracking ingest printed ${commits.length} lines for ${files.length} bundles`);
    const commitOf = new Map<string, number>(carriers.map((code, n) => [code, commits[n] ?? t0]));
    rmSync(dir, { recursive: true, force: true });
    const ingestSeconds = (Date.now() - t0) / 1000;

    // Wait until every subscription has its EVENT_TRIGGER and the stream has been quiet for a second.
    const deadline = Date.now() + 120_000;
    let seen = -1;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const count = await receiver.count();
      if (count !== seen) {
        seen = count;
        quietSince = Date.now();
      }
      if (count - earlier >= options.subscriptions && Date.now() - quietSince > 1_000) break;
    }
    if (!during) throw new Error('the ingest printed nothing');
    const lookupsDuringFanout = await during;
    const arrivals = (await receiver.report()).slice(earlier);

    // From the commit of the bundle that caused the delivery to its arrival here.
    const firstCommit = Math.min(...commits);
    const latencies = arrivals.map((a) => a.at - (commitOf.get(a.carrierCode) ?? firstCommit)).sort((a, b) => a - b);
    const last = arrivals.reduce((max, a) => Math.max(max, a.at), t0);
    const byTrigger: Record<string, number> = {};
    for (const a of arrivals) byTrigger[a.triggerType] = (byTrigger[a.triggerType] ?? 0) + 1;
    const seconds = (last - firstCommit) / 1000;
    return {
      subscriptions: options.subscriptions,
      deliveries: arrivals.length,
      byTrigger,
      seconds,
      deliveriesPerSecond: arrivals.length / seconds,
      endToEndPerSecond: arrivals.length / ((last - t0) / 1000),
      commitsAfter: commits.map((c) => (c - t0) / 1000),
      latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? NaN },
      single,
      ingestSeconds,
      lookupsQuiet,
      lookupsDuringFanout,
    };
  } finally {
    await worker?.stop();
    receiver.stop();
  }
}
