import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientStore } from '../src/auth/client-store.js';
import { loadConfig } from '../src/config/config.js';
import type { BenchDatabase } from './databases.js';
import { carrierOf, generateShipment, shipmentKey } from './generate.js';
import { send } from './measure.js';
import type { ServerProcess } from './processes.js';
import { clientToken } from './setup.js';

/**
 * A single change, nothing queued (`--fanout`, before the fan-out): one webhook subscription on each of
 * `changes` shipments, then, one at a time, a change of one of them (its first container's gate-out flips to
 * ACT: one EVENT_TRIGGER) and the wait for its delivery at the receiver. Two ways to commit, as operators
 * do: `POST /v2/operator/ingest` on the service (the process that commits wakes its own delivery worker),
 * and `tracking ingest` in a process of its own (the service's worker finds the change by its poll,
 * TT_DELIVERY_POLL_MS). Latency runs from the commit (the API call's answer, the CLI's line, both after the
 * commit: they err high by their own transmission) to the arrival.
 */

export interface PushLatency {
  api: { p50: number; p99: number; max: number };
  cli: { p50: number; p99: number; max: number };
}

interface Receiver {
  url: string;
  count(): Promise<number>;
  report(): Promise<{ at: number; carrierCode: string }[]>;
}

/** The gate-out at destination of shipment `index`'s first container, known now (its plan flipped to ACT). */
function gateOutEvent(index: number, at: Date, tag: string): Record<string, unknown> {
  const { events } = generateShipment(index);
  const estimate = events.filter((e) => e.equipmentEventTypeCode === 'GTOT' && e.eventClassifierCode === 'PLN').at(-1);
  if (!estimate) throw new Error(`shipment ${index} has no planned gate-out`);
  const hex = (v: number, width: number) => v.toString(16).padStart(width, '0');
  return {
    ...estimate,
    eventID: `${hex(index, 8)}-${tag}-4000-8000-${hex(index, 12)}`,
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: at.toISOString(),
  };
}

async function operatorToken(bench: BenchDatabase, service: ServerProcess): Promise<{ subscriber: string; operator: string }> {
  const config = loadConfig({ TT_ENVIRONMENT: 'sandbox', DATABASE_URL: bench.url });
  const clients = await ClientStore.open(bench.database.db, config);
  const client = await clients.createClient({ name: 'bench-push-latency', account: 'bench' });
  await clients.setScope(client.client_id, 'track-and-trace.subscribe', true);
  await clients.setScope(client.client_id, 'tracking-operator.ingest', true);
  return {
    subscriber: await clientToken(service, client, 'track-and-trace.read track-and-trace.subscribe'),
    operator: await clientToken(service, client, 'tracking-operator.ingest'),
  };
}

function summary(latencies: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

export async function pushLatency(
  bench: BenchDatabase,
  service: ServerProcess,
  receiver: Receiver,
  runCli: (args: string[], env: Record<string, string>) => Promise<number[]>,
  changes: number,
): Promise<PushLatency> {
  const { subscriber, operator } = await operatorToken(bench, service);
  // Shipment 2*changes first, not counted: it waits until the sender is up (a dedicated worker is a process
  // starting next to the bench, up to a second and a half on a loaded machine: its start is not a change's
  // latency). Then shipments 0..2*changes-1: the first half changes through the API, the second through the CLI.
  const warmup = 2 * changes;
  const indexes = [warmup, ...Array.from({ length: 2 * changes }, (_, i) => i)];
  const subscriptionIds: string[] = [];
  for (const index of indexes) {
    const { carrierCode, carrierBookingReference } = shipmentKey(index);
    const response = await send(service, {
      method: 'POST',
      path: '/v2/subscriptions',
      headers: { Authorization: `Bearer ${subscriber}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ callbackUrl: receiver.url, carrierCode, carrierBookingReference, triggerTypes: ['EVENT_TRIGGER'] }),
    });
    if (response.status !== 201) throw new Error(`subscription on shipment ${index}: ${response.status} ${await response.text()}`);
    subscriptionIds.push(((await response.json()) as { subscriptionID: string }).subscriptionID);
  }
  const waitForArrival = async (count: number): Promise<number> => {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const arrivals = await receiver.report();
      if (arrivals.length > count) return (arrivals[count] as { at: number }).at;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('a single change was not delivered within 30 s');
  };

  const api: number[] = [];
  const cli: number[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'tt-push-latency-'));
  try {
    for (const [n, index] of indexes.entries()) {
      const before = await receiver.count();
      const bundle = { carrierCode: carrierOf(index).code, events: [gateOutEvent(index, new Date(), '00a1')] };
      let committedAt: number;
      if (index === warmup || n <= changes) {
        const response = await send(service, {
          method: 'POST',
          path: '/v2/operator/ingest',
          headers: { Authorization: `Bearer ${operator}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(bundle),
        });
        committedAt = Date.now();
        if (response.status !== 200) throw new Error(`operator ingest: ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      } else {
        const file = join(dir, `change-${index}.json`);
        writeFileSync(file, JSON.stringify(bundle));
        const lines = await runCli(['ingest', file], { DATABASE_URL: bench.url, TT_ENVIRONMENT: 'sandbox', TT_LOG_LEVEL: 'warn' });
        committedAt = lines[0] ?? Date.now();
      }
      const arrivedAt = await waitForArrival(before);
      if (index !== warmup) (n <= changes ? api : cli).push(arrivedAt - committedAt);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    for (const id of subscriptionIds) {
      await send(service, { method: 'DELETE', path: `/v2/subscriptions/${id}`, headers: { Authorization: `Bearer ${subscriber}` } });
    }
  }
  return { api: summary(api), cli: summary(cli) };
}
