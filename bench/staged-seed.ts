import type { BenchDatabase } from './databases.js';
import { DiskGuard, freeBytes, sizeReport, storeSize } from './disk.js';
import type { GenerateOptions } from './generate.js';
import type { BenchOptions } from './options.js';
import { fixed, thousands } from './report.js';
import { Seeder, seedRates, type SeedRun } from './seeder.js';

/**
 * The main data set, seeded in stages (options.stages) through the real ingest path by parallel workers
 * (bench/seeder.ts). After each stage: its seed rate, and the database's size on disk, per table and per
 * shipment and event (bench/disk.ts). `atStage` runs after a stage is measured (the scale run measures its
 * lookups at --scale-from there). The disk guard watches the free space throughout and stops the seed, cleanly
 * and at a whole range of shipments, when the rest would not fit.
 */

export interface StagedSeed {
  /** Shipments 0..shipments-1 are seeded (fewer than asked when the disk guard stopped the seed). */
  shipments: number;
  events: number;
  /** Wall time of the seeding alone (not of the size measurements or of what `atStage` did). */
  seedSeconds: number;
  /** Why the seed stopped before options.shipments; null when it did not. */
  stopped: string | null;
}

const print = (line = '') => process.stdout.write(`${line}\n`);

export async function seedInStages(
  bench: BenchDatabase,
  options: BenchOptions,
  generate: GenerateOptions,
  atStage: (shipments: number) => Promise<void>,
): Promise<StagedSeed> {
  const guard = await DiskGuard.open(bench);
  if (guard) {
    const { free } = await freeBytes(guard.directory);
    print(
      `disk guard: ${fixed(free / 2 ** 30, 1)} GiB free on ${guard.directory}; the seed keeps ${fixed((await guard.reserve()) / 2 ** 30, 1)} GiB ` +
        'of it free and stops when the rest would not fit (bytes per event so far, +25 %)',
    );
  } else {
    print("disk guard: off (the database's files are not on this machine)");
  }
  const seeder = Seeder.start({
    url: bench.url,
    workers: options.seedWorkers,
    perBundle: options.seedBundle,
    generate,
    serialIngest: options.dialect === 'sqlite',
  });
  const result: StagedSeed = { shipments: 0, events: 0, seedSeconds: 0, stopped: null };
  const every = options.shipments > 100_000 ? 50_000 : 10_000;
  let reported = 0;
  let lastNote: string | null = null;
  /** The guard's end for the whole seed, at most `stageEnd`, from the figures of the run in progress. */
  const limit = async (stageEnd: number, run?: SeedRun): Promise<number> => {
    if (!guard) return stageEnd;
    const seeded = result.shipments + (run?.shipments ?? 0);
    const events = result.events + (run?.events ?? 0);
    const perShipment = seeded > 0 ? events / seeded : 20;
    const end = await guard.limit(seeded, events, options.shipments, perShipment);
    if (guard.note && guard.note !== lastNote) {
      lastNote = guard.note;
      print(`  ${guard.note}`);
    }
    return Math.min(stageEnd, end);
  };
  try {
    for (const [i, stageEnd] of options.stages.entries()) {
      const from = result.shipments;
      const end = await limit(stageEnd);
      if (end <= from) {
        result.stopped = `the disk guard stopped the seed at ${thousands(from)} shipments: ${lastNote ?? 'no room'}`;
        break;
      }
      const run = await seeder.seed(from, end, {
        progress: (r) => {
          const done = from + r.shipments;
          if (done - reported < every) return;
          reported = done - (done % every);
          print(`  seeded ${thousands(done)} shipments (${thousands(seedRates(r).eventsPerSecond)} events/s in this stage)`);
        },
        limit: (r) => limit(stageEnd, r),
        checkSeconds: 5,
      });
      result.shipments = run.reached;
      result.events += run.events;
      result.seedSeconds += run.wallSeconds;
      print(stageLine(i + 1, options.stages.length, run, result, seeder.workers, options.seedBundle));
      print(sizeReport(await storeSize(bench), result.shipments, result.events));
      if (run.reached < stageEnd) {
        result.stopped = `the disk guard stopped the seed at ${thousands(run.reached)} shipments: ${lastNote ?? ''}`;
      }
      await atStage(result.shipments);
      if (result.stopped) break;
    }
  } finally {
    await seeder.close();
  }
  const seconds = Math.max(result.seedSeconds, 1e-9);
  print(
    `seed: ${thousands(result.shipments)} shipments, ${thousands(result.events)} events in ${fixed(result.seedSeconds / 60, 1)} min ` +
      `(the seeding alone): ${thousands(result.events / seconds)} events/s, ${thousands(result.shipments / seconds)} shipments/s ` +
      `(${options.profile} profile, ${seeder.workers} workers, bundles of ${options.seedBundle} shipments)`,
  );
  if (result.stopped)
    print(`SEED STOPPED EARLY: ${result.stopped}; everything after is measured at ${thousands(result.shipments)} shipments`);
  return result;
}

function stageLine(stage: number, stages: number, run: SeedRun, total: StagedSeed, workers: number, perBundle: number): string {
  const rates = seedRates(run);
  const s = (seconds: number) => fixed(seconds, 1);
  return (
    `seed stage ${stage}/${stages}: shipments ${thousands(run.from)} to ${thousands(run.reached)}, ${thousands(run.events)} events in ` +
    `${s(run.wallSeconds)} s: ${thousands(rates.eventsPerSecond)} events/s, ${thousands(rates.shipmentsPerSecond)} shipments/s ` +
    `(elapsed ${fixed(total.seedSeconds / 60, 1)} min; ${workers} workers, ${perBundle} shipments per bundle, their seconds: ` +
    `generation ${s(run.generateSeconds)}, validation ${s(run.parseSeconds)}, storage ${s(run.ingestSeconds)}` +
    `${run.waitSeconds > 0 ? `, waiting for the writer ${s(run.waitSeconds)}` : ''})`
  );
}
