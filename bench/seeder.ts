import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { GenerateOptions } from './generate.js';
import type { SeedReply, SeedRequest, SeedWorkerData } from './seed-worker.js';

/**
 * Seeding with several workers (bench/seed-worker.ts), each a worker thread that generates bundles and loads
 * them through parseBundle and ingestBundle on its own connections. Shipments go out in consecutive ranges of
 * three bundles (one per carrier), one range per worker at a time, in index order: when seeding stops early
 * (the disk guard), every range handed out is finished first, so the shipments seeded are always 0..n-1.
 */

export interface SeederOptions {
  /** DATABASE_URL of the bench database. */
  url: string;
  workers: number;
  /** Shipments per bundle. */
  perBundle: number;
  generate: GenerateOptions;
  /** The workers take turns for the ingest itself (SQLite's one writer); validation still overlaps. */
  serialIngest: boolean;
}

/** What one call of `seed` did; seconds of the workers are summed over them (so they exceed the wall time). */
export interface SeedRun {
  from: number;
  /** Shipments from..reached-1 are seeded: `to`, or less when the limit stopped the run early. */
  reached: number;
  events: number;
  shipments: number;
  wallSeconds: number;
  generateSeconds: number;
  parseSeconds: number;
  ingestSeconds: number;
  /** Time workers waited for their turn to ingest (serialIngest). */
  waitSeconds: number;
}

export interface SeedHooks {
  /** After each range: the shipments done so far in this run (not necessarily contiguous) and the run's figures. */
  progress?(run: SeedRun): void;
  /** Asked every `checkSeconds`: the index seeding must not go beyond (at most `to`); lower it to stop early. */
  limit?(run: SeedRun): Promise<number>;
  checkSeconds?: number;
}

export class Seeder {
  readonly #workers: Worker[];
  readonly #perBundle: number;

  private constructor(workers: Worker[], perBundle: number) {
    this.#workers = workers;
    this.#perBundle = perBundle;
  }

  static start(options: SeederOptions): Seeder {
    const data: SeedWorkerData = {
      url: options.url,
      generate: options.generate,
      perBundle: options.perBundle,
      turn: options.serialIngest ? new SharedArrayBuffer(4) : null,
    };
    const workers = Array.from(
      { length: Math.max(1, options.workers) },
      () => new Worker(new URL('./seed-worker.js', import.meta.url), { workerData: data }),
    );
    return new Seeder(workers, options.perBundle);
  }

  get workers(): number {
    return this.#workers.length;
  }

  /** Seeds shipments from..to-1 (fewer when `hooks.limit` lowers the end). */
  async seed(from: number, to: number, hooks: SeedHooks = {}): Promise<SeedRun> {
    const range = 3 * this.#perBundle;
    const started = performance.now();
    const run: SeedRun = {
      from,
      reached: from,
      events: 0,
      shipments: 0,
      wallSeconds: 0,
      generateSeconds: 0,
      parseSeconds: 0,
      ingestSeconds: 0,
      waitSeconds: 0,
    };
    let next = from;
    let end = to;
    let failed = false;
    let lastCheck = performance.now();
    // In an object: the lanes and the check assign it from closures.
    const pending: { check: Promise<void> | null } = { check: null };
    const check = () => {
      if (!hooks.limit || pending.check || performance.now() - lastCheck < (hooks.checkSeconds ?? 5) * 1000) return;
      pending.check = hooks.limit({ ...run }).then((limit) => {
        // Ranges already handed out finish: the end never goes below them.
        end = Math.min(end, Math.max(next, limit));
        lastCheck = performance.now();
        pending.check = null;
      });
    };
    const lane = async (worker: Worker) => {
      while (!failed && next < end) {
        const request = { from: next, to: Math.min(next + range, end) };
        next = request.to;
        const reply = await call(worker, request).catch((err: unknown) => {
          failed = true;
          throw err;
        });
        run.events += reply.timing.events;
        run.shipments += reply.timing.shipments;
        run.generateSeconds += reply.generateSeconds;
        run.parseSeconds += reply.timing.parseSeconds;
        run.ingestSeconds += reply.timing.ingestSeconds;
        run.waitSeconds += reply.waitSeconds;
        run.wallSeconds = (performance.now() - started) / 1000;
        hooks.progress?.(run);
        check();
      }
    };
    await Promise.all(this.#workers.map(lane));
    await pending.check;
    run.reached = next;
    run.wallSeconds = (performance.now() - started) / 1000;
    return run;
  }

  async close(): Promise<void> {
    await Promise.all(
      this.#workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => void worker.terminate(), 10_000);
            worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            worker.postMessage('close');
          }),
      ),
    );
  }
}

/** One range on one worker; rejects with the worker's error. */
function call(worker: Worker, request: SeedRequest): Promise<Extract<SeedReply, { ok: true }>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (reply: SeedReply) => {
      done();
      if (reply.ok) resolve(reply);
      else reject(new Error(`seed worker: ${reply.message}`));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`seed worker exited with ${code}`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(request);
  });
}

/** Events and shipments per second of a run, by wall time. */
export function seedRates(run: SeedRun): { eventsPerSecond: number; shipmentsPerSecond: number } {
  const seconds = Math.max(run.wallSeconds, 1e-9);
  return { eventsPerSecond: run.events / seconds, shipmentsPerSecond: run.shipments / seconds };
}
