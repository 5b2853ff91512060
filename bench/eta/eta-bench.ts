import { performance } from 'node:perf_hooks';
import type { VoyageFacts } from '../../src/domain/eta/predictor.js';
import { HISTORY_START, loadArrivedVoyages, loadVoyagesOf } from '../../src/store/eta/eta-history.js';
import { createBenchDatabase } from '../databases.js';
import { BUCKETS, evaluate, figures, median, type Evaluation, type Point } from './evaluate.js';
import { ingestWorld } from './ingest-world.js';
import { DEFAULT_WORLD, simulateWorld } from './world.js';

/**
 * `npm run bench -- --eta [--seeds 1,2,3] [--mysql]`: the predicted arrival's evaluation (bench/README.md,
 * Predicted arrival). Per seed: simulate a world (bench/eta/world.ts), ingest it through the real ingest paths
 * into a fresh database (SQLite unless --mysql), read the histories back through src/store/eta/eta-history.ts,
 * walk forward (bench/eta/evaluate.ts) and print the table; then every target's median over the seeds.
 */

const print = (line = '') => process.stdout.write(`${line}\n`);
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '-');

interface SeedTargets {
  seed: number;
  skill7to14: number;
  skill1to3: number;
  coverageMin: number;
  coverageMax: number;
  leadMedian: number;
  confidentLeadMedian: number;
  falseAlarms: number;
}

function table(title: string, points: readonly Point[]): void {
  print(`  ${title} (${points.length} predictions)`);
  print('    bucket     n      MAE ours  MAE carrier  P90 ours  P90 carrier  skill    coverage  width');
  figures(points).forEach((b, i) => {
    print(
      `    ${BUCKETS[i]!.name.padEnd(8)} ${String(b.n).padStart(6)}  ${f1(b.maeOurs).padStart(8)}  ${f1(b.maeCarrier).padStart(11)}  ` +
        `${f1(b.p90Ours).padStart(8)}  ${f1(b.p90Carrier).padStart(11)}  ${pct(b.skill).padStart(7)}  ${pct(b.coverage).padStart(8)}  ${f1(b.width).padStart(6)}`,
    );
  });
}

function report(evaluation: Evaluation): Omit<SeedTargets, 'seed'> {
  const { points } = evaluation;
  const withHistory = points.filter((p) => !p.thin);
  print('  errors in hours; skill = 1 - MAE(ours)/MAE(carrier); coverage of the 80 % interval; width its mean, hours');
  table('lanes with history', withHistory);
  table(
    'lanes with history, before the regime change',
    withHistory.filter((p) => !p.after),
  );
  table(
    'lanes with history, after the regime change',
    withHistory.filter((p) => p.after),
  );
  table(
    'thin lanes',
    points.filter((p) => p.thin),
  );
  const bases = new Map<string, number>();
  for (const p of points) bases.set(p.basis, (bases.get(p.basis) ?? 0) + 1);
  print(`  basis: ${[...bases].map(([b, n]) => `${b} ${pct(n / points.length)}`).join(', ')}`);
  const leadMedian = median(evaluation.leads);
  print(
    `  early warning (a day late or more against the first plan, before the carrier's ETA said so): over ${evaluation.leads.length} voyages that were, ` +
      `median lead ${f1(leadMedian)} h (P25 ${f1(quantileOf(evaluation.leads, 0.25))}, P75 ${f1(quantileOf(evaluation.leads, 0.75))}); ` +
      `by the interval's earliest time ${f1(median(evaluation.confidentLeads))} h`,
  );
  print(
    `  false alarms (said a day late or more, a day ahead, of ${evaluation.falseAlarms.voyages} voyages that arrived < 12 h late): ` +
      `estimate ${pct(evaluation.falseAlarms.ours)}, earliest time ${pct(evaluation.falseAlarms.confident)}, carrier ${pct(evaluation.falseAlarms.carrier)}`,
  );
  const segments = [withHistory, withHistory.filter((p) => !p.after), withHistory.filter((p) => p.after), points.filter((p) => p.thin)];
  const coverages = segments.flatMap((s) => figures(s).map((b) => b.coverage)).filter(Number.isFinite);
  const all = figures(withHistory);
  return {
    skill7to14: all[1]!.skill,
    skill1to3: all[3]!.skill,
    coverageMin: Math.min(...coverages),
    coverageMax: Math.max(...coverages),
    leadMedian,
    confidentLeadMedian: median(evaluation.confidentLeads),
    falseAlarms: evaluation.falseAlarms.ours,
  };
}

function quantileOf(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function loadHistories(database: Parameters<typeof ingestWorld>[0], shipmentIds: readonly number[]) {
  const training: VoyageFacts[] = [];
  let cursor = HISTORY_START;
  for (;;) {
    const batch = await loadArrivedVoyages(database.db, cursor);
    training.push(...batch.voyages);
    cursor = batch.cursor;
    if (!batch.more) break;
  }
  return { training, facts: await loadVoyagesOf(database.db, shipmentIds) };
}

export async function runEtaBench(argv: readonly string[]): Promise<void> {
  const seedsAt = argv.indexOf('--seeds');
  const seeds = seedsAt >= 0 ? argv[seedsAt + 1]!.split(',').map(Number) : [1, 2, 3];
  const dialect = argv.includes('--mysql') ? 'mysql' : 'sqlite';
  print(`predicted arrival: ${seeds.length} simulated worlds (seeds ${seeds.join(', ')}), ${dialect}`);
  const results: SeedTargets[] = [];
  for (const seed of seeds) {
    const t0 = performance.now();
    const world = simulateWorld({ ...DEFAULT_WORLD, seed });
    const bench = await createBenchDatabase(dialect, 'tt_bench_eta');
    try {
      const ingested = await ingestWorld(bench.database, world);
      const t1 = performance.now();
      const { training, facts } = await loadHistories(bench.database, ingested.shipmentIds);
      const evaluation = evaluate(world, world.shipments, facts, training);
      const t2 = performance.now();
      print();
      print(
        `seed ${seed}: ${world.shipments.length} shipments on ${world.lanes.length} carrier lanes (${world.lanes.filter((l) => l.thin).length} thin), ` +
          `${ingested.eventsStored} events stored (${ingested.bundles} DCSA bundles, ${ingested.interchanges} X12 315 interchanges) in ${f1((t1 - t0) / 1000)} s; ` +
          `${evaluation.trainedVoyages} arrived voyages read back, ${evaluation.models} daily models, evaluated in ${f1((t2 - t1) / 1000)} s; ` +
          `canal closed on day ${world.options.regimeChangeDay}`,
      );
      results.push({ seed, ...report(evaluation) });
    } finally {
      await bench.destroy();
    }
  }
  print();
  print('targets (median of the seeds; each seed in brackets):');
  const line = (name: string, pick: (r: SeedTargets) => number, format: (x: number) => string, target: string) =>
    print(
      `  ${name.padEnd(48)} ${format(median(results.map(pick))).padStart(9)}  [${results.map((r) => format(pick(r))).join(', ')}]  target ${target}`,
    );
  line('skill at 7-14 d, lanes with history', (r) => r.skill7to14, pct, '>= 25 %');
  line('skill at 1-3 d, lanes with history', (r) => r.skill1to3, pct, '>= -5 %');
  line('lowest coverage of any bucket and segment', (r) => r.coverageMin, pct, '>= 77 %');
  line('highest coverage of any bucket and segment', (r) => r.coverageMax, pct, '<= 83 %');
  line('early warning, median lead (hours)', (r) => r.leadMedian, f1, '>= 24');
  line('  the same by the earliest time (hours)', (r) => r.confidentLeadMedian, f1, '(no target)');
  line('  false alarms of the estimate', (r) => r.falseAlarms, pct, '(no target)');
}

if (process.argv[1]?.endsWith('eta-bench.js'))
  runEtaBench(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
