import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { connectDatabase } from '../src/db/connect.js';
import { bundleIndexes, bundleOf, type GenerateOptions } from './generate.js';
import { emptyTiming, ingestRaw, type IngestTiming } from './seed.js';

/**
 * One seed worker (a worker thread of bench/seeder.ts): it generates the bundles of the shipment ranges it is
 * sent and loads each through the real ingest path, parseBundle then ingestBundle, on its own connections.
 * Several run at once on disjoint shipments, so one validates and generates while another's transaction
 * commits. On SQLite, which has one writer, they take turns for the ingest (`turn`, a lock shared by all
 * workers) and overlap only the generation and validation; on MariaDB their transactions run side by side.
 */

export interface SeedWorkerData {
  url: string;
  generate: GenerateOptions;
  /** Shipments per bundle (one carrier each). */
  perBundle: number;
  /** An Int32Array's memory shared by all workers: 0 free, 1 taken. Null: ingests run side by side. */
  turn: SharedArrayBuffer | null;
}

/** Seed shipments from..to-1. */
export interface SeedRequest {
  from: number;
  to: number;
}

export type SeedReply =
  | { ok: true; from: number; to: number; timing: IngestTiming; generateSeconds: number; waitSeconds: number }
  | { ok: false; message: string };

const data = workerData as SeedWorkerData;
const port = parentPort;
if (!port) throw new Error('seed-worker.ts runs as a worker thread of bench/seeder.ts');
const database = connectDatabase(data.url, { poolSize: 2 });
const lock = data.turn ? new Int32Array(data.turn) : null;

/** Runs `ingest` while holding the shared lock (waiting for it blocks this thread only: it has nothing else to do). */
async function inTurn<T>(ingest: () => Promise<T>, waited: { seconds: number }): Promise<T> {
  if (!lock) return ingest();
  const t0 = performance.now();
  while (Atomics.compareExchange(lock, 0, 0, 1) !== 0) Atomics.wait(lock, 0, 1, 100);
  waited.seconds += (performance.now() - t0) / 1000;
  try {
    return await ingest();
  } finally {
    Atomics.store(lock, 0, 0);
    Atomics.notify(lock, 0, 1);
  }
}

async function seedRange({ from, to }: SeedRequest): Promise<SeedReply> {
  const timing = emptyTiming();
  const waited = { seconds: 0 };
  let generateSeconds = 0;
  for (const indexes of bundleIndexes(to - from, data.perBundle, from)) {
    const t0 = performance.now();
    const raw = bundleOf(indexes, data.generate);
    generateSeconds += (performance.now() - t0) / 1000;
    await ingestRaw(database, raw, timing, (ingest) => inTurn(ingest, waited));
  }
  return { ok: true, from, to, timing, generateSeconds, waitSeconds: waited.seconds };
}

port.on('message', (message: SeedRequest | 'close') => {
  if (message === 'close') {
    void database.close().finally(() => port.close());
    return;
  }
  seedRange(message).then(
    (reply) => port.postMessage(reply),
    (err: unknown) =>
      port.postMessage({ ok: false, message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies SeedReply),
  );
});
