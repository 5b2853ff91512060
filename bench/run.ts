import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { SHIPMENT_DOCUMENT } from '../src/executor/shipment-document.js';
import { createConnection } from 'mysql2/promise';
import { benchMysqlUrl, createBenchDatabase, openKeptBenchDatabase, settle } from './databases.js';
import { eventsPerShipment, shipmentKey, type GenerateOptions } from './generate.js';
import { measureCeiling } from './ceiling.js';
import { fanout } from './fanout.js';
import { feedVersusLookups } from './feed.js';
import { ingestBenchmark } from './ingest-bench.js';
import { KeySpace } from './keys.js';
import { runLoad, type RequestSpec } from './load.js';
import { counts, databaseCpu, measure, type Measured } from './measure.js';
import { ingestDialects, parseOptions, type BenchOptions } from './options.js';
import type { ServerProcess } from './processes.js';
import { fixed, table, thousands } from './report.js';
import { graphqlRequest, restPath, scenarios, type Scenario } from './scenarios.js';
import { startPrivateMariadb } from './private-mariadb.js';
import { eventsPerSecond, type IngestTiming } from './seed.js';
import { firstScaleStage, reserveLargeStageKeys, scaleStage, warmStage, scaleTable, type ScaleStage } from './scale.js';
import { checkSameAnswers, seedSized, SIZES, startServers, type Seeded, type Servers } from './setup.js';
import { seedInStages } from './staged-seed.js';
import { runEtaBench } from './eta/eta-bench.js';
import { trainEta } from '../src/app/eta-training.js';
import { pairsTable, runPairs } from './paired.js';
import type { BenchDatabase } from './databases.js';
import { runUpgradeSteps } from './upgrade-steps.js';
import { runEtaCost } from './eta-cost.js';

/**
 * `npm run bench`: seeds a database through the real ingest path, starts the
 * service and the hand-written baseline as child processes, drives each
 * scenario with autocannon, and prints the results. See bench/README.md.
 */

const print = (line = '') => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  // --eta: the predicted arrival's evaluation alone (bench/eta/eta-bench.ts; bench/README.md, Predicted arrival).
  if (process.argv.includes('--eta')) return runEtaBench(process.argv.slice(2).filter((a) => a !== '--eta'));
  // --upgrade-steps: what each step of the 0.4.0 to 0.5.0 upgrade costs (bench/upgrade-steps.ts; bench/README.md, Upgrade steps).
  if (process.argv.includes('--upgrade-steps')) return runUpgradeSteps(process.argv.slice(2));
  // --eta-cost: what training the predicted arrival's model costs (bench/eta-cost.ts; bench/README.md, ETA training's cost).
  if (process.argv.includes('--eta-cost')) return runEtaCost(process.argv.slice(2));
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const store = options.dialect === 'mysql' ? 'MariaDB/MySQL' : 'SQLite';
  print(
    `track-and-trace bench: ${store}, ${thousands(options.shipments)} shipments, ${options.connections} connections, ` +
      `${options.seconds} s per scenario, pool ${options.pool}${options.quick ? ' (--quick)' : ''}`,
  );
  print(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${fixed(totalmem() / 2 ** 30, 0)} GiB, node ${process.version}`);

  // --private-mariadb: every MariaDB database of the run (the ingest benchmark's too) on the bench's own server.
  const server = options.privateMariadb
    ? await startPrivateMariadb({
        bufferPoolGiB: options.privateMariadb.bufferPoolGiB,
        ...(options.privateMariadb.reuse ? { reuse: options.privateMariadb.directory } : { parent: options.privateMariadb.directory }),
      })
    : null;
  if (server) {
    process.env.BENCH_MYSQL_URL = server.url;
    databaseCpu(server.pid);
    print(
      `MariaDB: the bench's own server (${server.url}, data in ${server.dataDirectory}` +
        `${options.privateMariadb?.reuse ? ', kept by an earlier run' : ''}, innodb_buffer_pool_size ${server.bufferPoolGiB} GiB, ` +
        'redo log 1 GiB), not BENCH_MYSQL_URL',
    );
  } else if (options.dialect === 'mysql') {
    print(`MariaDB: ${await serverSettings()}`);
  }
  let lastLine: string;
  try {
    lastLine = await benchmark(options);
  } finally {
    if (server) {
      const t0 = performance.now();
      await server.stop(options.keep);
      print(
        `the private MariaDB server stopped in ${fixed((performance.now() - t0) / 1000, 1)} s` +
          (options.keep
            ? ` (its data kept in ${server.dataDirectory}; measure it again without seeding: ` +
              `--private-mariadb --private-mariadb-dir ${server.root} --reuse-seed --shipments N)`
            : ''),
      );
    }
  }
  print();
  print(`bench done in ${fixed((performance.now() - started) / 1000, 0)} s`);
  // The last line, for a quick check of a run: exactly this format.
  print(lastLine);
}

/** The shared server's version and buffer pool, for reading its figures. */
async function serverSettings(): Promise<string> {
  const conn = await createConnection(benchMysqlUrl());
  try {
    const [rows] = await conn.query('select @@version as version, @@innodb_buffer_pool_size as pool');
    const row = (rows as { version: string; pool: number | string }[])[0];
    return `${new URL(benchMysqlUrl()).host}, ${row?.version ?? '?'}, innodb_buffer_pool_size ${fixed(Number(row?.pool ?? 0) / 2 ** 20, 0)} MiB`;
  } finally {
    await conn.end();
  }
}

/** Seeds, serves and measures; returns the run's last line. */
async function benchmark(requested: BenchOptions): Promise<string> {
  const reuse = requested.privateMariadb?.reuse === true;
  // A reused seed is checked first (bench/databases.ts), before anything is seeded or measured.
  const bench = reuse
    ? await openKeptBenchDatabase('tt_bench', requested.shipments)
    : await createBenchDatabase(requested.dialect, 'tt_bench');
  const running: ServerProcess[] = [];
  let ratios: Ratios;
  let ceilingShare: number;
  const ingestRates: Partial<Record<'mysql' | 'sqlite', number>> = {};
  const keys = new KeySpace(requested.shipments);
  const generate: GenerateOptions = { profile: requested.profile };
  try {
    // A scale run measures the lookups on the first options.scaleFrom shipments before seeding the rest.
    const scaleRun = requested.shipments > requested.scaleFrom;
    let small: ScaleStage | undefined;
    let seeded: { shipments: number; stopped: string | null };
    if (reuse) {
      print(`seed: none, the kept database's ${thousands(requested.shipments)} shipments (--reuse-seed)`);
      if (scaleRun) small = await smallStageOnItsOwn(requested, keys, generate);
      seeded = { shipments: requested.shipments, stopped: null };
    } else {
      seeded = await seedInStages(bench, requested, generate, async (shipments) => {
        if (!scaleRun || shipments !== requested.scaleFrom) return;
        await settle(bench);
        small = await firstScaleStage(bench, requested, keys, generate);
      });
    }
    if (seeded.shipments === 0) throw new Error(`nothing seeded, nothing to measure: ${seeded.stopped ?? 'no shipments'}`);
    // Everything after measures the shipments the seed reached (the disk guard may have stopped it early).
    const options: BenchOptions = { ...requested, shipments: seeded.shipments };
    // The large stage's first lookups: set aside now, so that no scenario before it asks for them.
    const largeStageKeys = small ? reserveLargeStageKeys(keys, options) : null;
    const sized = await seedSized(bench, options);
    print(`waited ${fixed(await settle(bench), 1)} s for the database to write back the seed (dirty pages at most 5 %)`);
    if (selects(options, PREDICTED_SCENARIO)) await trainModel(bench);
    const servers = await startServers(bench, options, (server) => running.push(server));
    await checkSameAnswers(
      servers,
      [0, 1, 10].filter((i) => i < options.shipments).map((i) => keys.touch(i)),
    );
    print(
      `${thousands(options.shipments + sized.sizedShipments)} shipments; the baseline's body equals the service's ` +
        `for sampled keys; service RSS ${fixed(servers.service.rssMiB())} MiB`,
    );

    ratios = await runScenarios(servers, options, keys);
    // The 304 scenario's share of what a bare node:http server with one statement on the same store reaches, in this run.
    const ceiling = await measureCeiling(options.dialect, {
      connections: options.connections,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
    });
    ceilingShare = ratios.conditionalRps / ceiling.requestsPerSecond;
    print(
      `ceiling (${ceiling.label}): ${fixed(ceiling.requestsPerSecond, 0)} req/s, p99 ${ceiling.p99} ms; ` +
        `the service's 304 reaches ${fixed(ceilingShare * 100, 0)} % of it`,
    );
    // The same share in server CPU per answer (bench/measure.ts: less moved than req/s by other work on the machine).
    print(
      `server CPU per answer: ceiling ${fixed(ceiling.cpuMicrosPerRequest, 0)} µs, the service's 304 ` +
        `${fixed(ratios.conditionalCpu, 0)} µs: ${fixed((ceiling.cpuMicrosPerRequest / ratios.conditionalCpu) * 100, 0)} % by CPU` +
        (Number.isNaN(ceiling.dbCpuMicrosPerRequest)
          ? ''
          : `; the database's CPU per answer: ceiling ${fixed(ceiling.dbCpuMicrosPerRequest, 0)} µs, the service's 304 ` +
            `${fixed(ratios.conditionalDbCpu, 0)} µs`),
    );
    if (!options.only) await costBySize(servers, sized, options);
    if (!options.only || options.only.some((prefix) => 'changes feed'.startsWith(prefix.toLowerCase()))) {
      const n = await printFeed(bench, servers, options);
      for (let i = 0; i < n; i++) keys.touch(i);
    }
    if (options.soak) await soak(servers, options, keys);
    if (options.fanout) {
      await printFanout(bench, servers, { ...options.fanout, cpuProf: options.cpuProf }, options.connections);
      for (let i = 0; i < options.fanout.shipments; i++) keys.touch(i);
    }
    if (small && largeStageKeys) {
      print();
      print(`lookups at ${thousands(options.shipments)} shipments:`);
      // Measured as the smaller size is (firstScaleStage): the pool warmed, then servers started for it, that have
      // served nothing else. The main table's scenarios above would otherwise have filled the service's snapshot
      // cache and heap first, which the smaller size's service never had, and the comparison would be of two
      // histories; and a service started before the warm-up would have idled through it (warmStage).
      for (const server of running.splice(0)) await server.stop();
      const warmed = await warmStage(bench, options, options.shipments);
      const fresh = await startServers(bench, options, (server) => running.push(server));
      const large = await scaleStage(bench, fresh, options, options.shipments, keys, largeStageKeys, generate, warmed);
      print();
      print(
        `lookups at ${thousands(options.scaleFrom)} and ${thousands(options.shipments)} shipments (${options.profile} profile; ` +
          `first lookups of shipments never asked for, the others at random over all of them; same run):`,
      );
      for (const note of [...small.notes, ...large.notes]) print(`  ${note}`);
      print(scaleTable(small, large));
      if (seeded.stopped) print(`(${options.shipments} shipments, not the ${thousands(requested.shipments)} asked: ${seeded.stopped})`);
    }
  } finally {
    for (const server of running) await server.stop();
    if (requested.keep) await bench.database.close();
    else await bench.destroy();
  }

  if (requested.ingest) {
    print();
    for (const dialect of ingestDialects(requested)) {
      const timing = await ingestBenchmark(dialect, requested.ingestEvents);
      ingestRates[dialect] = eventsPerSecond(timing).total;
      print(ingestLine(`ingest one bundle, ${dialect === 'mysql' ? 'MariaDB' : 'SQLite'}`, timing));
    }
  }

  return (
    `rest/baseline ${fixed(ratios.rest, 2)} first/baseline ${fixed(ratios.first, 2)} conditional/baseline ${fixed(ratios.conditional, 2)} ` +
    `graphql-full/baseline ${fixed(ratios.graphqlFull, 2)} graphql-partial/graphql-full ${fixed(ratios.partialToFull, 2)} ` +
    `ceiling ${fixed(ceilingShare * 100, 0)}% ingest-mariadb ${rate(ingestRates.mysql)} ingest-sqlite ${rate(ingestRates.sqlite)}`
  );
}

/** Events/s for the last line: a plain integer, or `-` when that ingest did not run. */
function rate(eventsPerSecond: number | undefined): string {
  return eventsPerSecond === undefined ? '-' : String(Math.round(eventsPerSecond));
}

/**
 * The smaller size of a scale run on a reused seed: the kept database holds the large size only, so the first
 * --scale-from shipments are seeded afresh (through the real ingest path, as the first stage of a full run) into
 * a database of their own on the same server, measured as a full run measures its first stage, and dropped
 * before the kept database is measured.
 */
async function smallStageOnItsOwn(options: BenchOptions, keys: KeySpace, generate: GenerateOptions): Promise<ScaleStage> {
  const small = await createBenchDatabase('mysql', 'tt_bench_small');
  try {
    const stage: BenchOptions = { ...options, shipments: options.scaleFrom, stages: [options.scaleFrom] };
    const seeded = await seedInStages(small, stage, generate, async () => {});
    if (seeded.stopped) throw new Error(`the ${thousands(options.scaleFrom)}-shipment database for the smaller size: ${seeded.stopped}`);
    await settle(small);
    return await firstScaleStage(small, options, keys, generate);
  } finally {
    await small.destroy();
  }
}

const PREDICTED_SCENARIO = 'GraphQL predicted arrival';

/** Whether `--only` (or its absence) selects the scenario named `name`. */
function selects(options: BenchOptions, name: string): boolean {
  return !options.only || options.only.some((prefix) => name.toLowerCase().startsWith(prefix.toLowerCase()));
}

/**
 * The predicted arrival's model learned from the seeded history before the service starts, as `tracking eta train`
 * learns it (src/app/eta-training.ts), so that the predicted-arrival scenario reads a model, not the carrier's ETA
 * alone, and the service's own background training finds nothing new to learn during the measured runs.
 */
async function trainModel(bench: BenchDatabase): Promise<void> {
  const result = await trainEta(bench.database, { now: () => new Date(), batchEvents: 5_000, pauseMs: 0, fromScratch: true });
  if (result.kind === 'busy') throw new Error('the bench database is being trained by another process');
  print(
    `ETA model: ${thousands(result.voyages)} voyages learned from, ${thousands(result.lanes)} lanes, ` +
      `${fixed(result.elapsedMs / 1000, 1)} s`,
  );
}

/** Each scenario at the configured connections; prints the table and returns the two headline ratios. */
interface Ratios {
  rest: number;
  first: number;
  conditional: number;
  graphqlFull: number;
  /** GraphQL partial req/s over GraphQL full req/s. */
  partialToFull: number;
  /** The 304 scenario's own req/s, for its share of the ceiling. */
  conditionalRps: number;
  /** The 304 scenario's server CPU per request (µs). */
  conditionalCpu: number;
  /** The same scenario's database CPU per request (µs; NaN unless the bench owns the server). */
  conditionalDbCpu: number;
}

async function runScenarios(servers: Servers, options: BenchOptions, keys: KeySpace): Promise<Ratios> {
  const selected = scenarios(servers.credentials, options.shipments, keys).filter((s) => selects(options, s.name));
  const rows: { scenario: Scenario; result: Measured }[] = [];
  for (const scenario of selected) {
    const server = scenario.target === 'service' ? servers.service : servers.baseline;
    const connections = options.connections;
    const expected = scenario.expected ? { expected: scenario.expected } : {};
    await scenario.prepare?.(server);
    const result = await measure(
      server,
      scenario.next,
      { connections, ...expected, ...(scenario.amount !== undefined ? { amount: scenario.amount } : { seconds: options.seconds }) },
      {
        next: scenario.warmup ?? scenario.next,
        ...(scenario.warmupAmount !== undefined ? { amount: scenario.warmupAmount } : { seconds: options.warmupSeconds }),
      },
    );
    rows.push({ scenario, result });
    const { load } = result;
    print(
      `  ${scenario.name}: ${fixed(load.requestsPerSecond, 0)} req/s, latency p50 ${load.p50} p90 ${load.p90} p99 ${load.p99} max ${load.max} ms (client loop late at most ${fixed(load.clientLoopMaxMs, 0)} ms), server CPU ${fixed(result.cpuMicrosPerRequest, 0)} µs/request${Number.isNaN(result.dbCpuMicrosPerRequest) ? '' : `, database CPU ${fixed(result.dbCpuMicrosPerRequest, 0)} µs/request`}`,
    );
  }

  print();
  print(
    table(
      ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'SQL/req', 'KB/body'],
      rows.map(({ scenario, result: { load, sqlPerRequest } }) => [
        scenario.name,
        fixed(load.requestsPerSecond, 0),
        load.p50,
        load.p99,
        load.errors,
        fixed(sqlPerRequest, 2),
        fixed(load.meanBytes / 1024, 1),
      ]),
    ),
  );
  const rps = (name: string) => rows.find((r) => r.scenario.name.startsWith(name))?.result.load.requestsPerSecond ?? NaN;
  const baseline = rps('baseline');
  const ratios: Ratios = {
    rest: rps('REST full snapshot') / baseline,
    first: rps('REST first') / baseline,
    conditional: rps('REST conditional') / baseline,
    graphqlFull: rps('GraphQL full') / baseline,
    partialToFull: rps('GraphQL partial') / rps('GraphQL full'),
    conditionalRps: rps('REST conditional'),
    conditionalCpu: rows.find((r) => r.scenario.name.startsWith('REST conditional'))?.result.cpuMicrosPerRequest ?? NaN,
    conditionalDbCpu: rows.find((r) => r.scenario.name.startsWith('REST conditional'))?.result.dbCpuMicrosPerRequest ?? NaN,
  };
  print(
    `ratios to the baseline: REST ${fixed(ratios.rest, 2)} (first lookups ${fixed(ratios.first, 2)}, conditional polls ` +
      `${fixed(ratios.conditional, 2)}), GraphQL full ${fixed(ratios.graphqlFull, 2)}, GraphQL partial ${fixed(rps('GraphQL partial') / baseline, 2)} ` +
      `(${fixed(ratios.partialToFull, 2)} x GraphQL full)`,
  );
  const pairs = await runPairs(
    rows.map((r) => r.scenario),
    (scenario) => (scenario.target === 'service' ? servers.service : servers.baseline),
    { connections: options.connections, sliceSeconds: Math.max(1, options.seconds / 2), blocks: 2 },
  );
  if (pairs.length > 0) {
    print();
    print(
      `paired (bench/paired.ts: slices of ${fixed(Math.max(1, options.seconds / 2), 0)} s in the order A B B A, twice; the same servers):`,
    );
    print(pairsTable(pairs));
  }
  return ratios;
}

/**
 * The change feed against lookups of the same shipments (bench/feed.ts): one change per shipment, at most 10,000.
 * Returns how many (shipments 0..n-1, all looked up).
 */
async function printFeed(bench: Parameters<typeof feedVersusLookups>[0], servers: Servers, options: BenchOptions): Promise<number> {
  const n = Math.min(10_000, options.shipments);
  const r = await feedVersusLookups(bench, servers.service, servers.credentials, n);
  print();
  print(
    `changes feed: ${thousands(r.changes)} changes in ${r.pages} pages of 100 in ${fixed(r.feedSeconds, 2)} s vs ${thousands(r.lookups)} ` +
      `lookups of the same shipments in ${fixed(r.lookupSeconds, 2)} s (1 connection each): feed ${fixed(r.ratio, 1)}x faster (target >= 5x)`,
  );
  return n;
}

/**
 * Full snapshot cost by size, at one connection: first lookups (each request
 * a shipment not looked up before: the lookup plus one statement for its
 * parts) and repeated lookups of one shipment (answered from the cache).
 */
async function costBySize({ service, baseline, credentials }: Servers, seeded: Seeded, options: BenchOptions): Promise<void> {
  const k = options.sizedShipments;
  const rows: string[][] = [];
  for (const containers of SIZES) {
    const bl = (i: number) => shipmentKey(seeded.sizedIndexes[i] ?? 0, `C${containers}`).billOfLadingNumber;
    const rest = (i: number): RequestSpec => ({
      method: 'GET',
      path: restPath(bl(i)),
      headers: { Authorization: `Bearer ${credentials.token}` },
    });
    const full = (i: number): RequestSpec => graphqlRequest(credentials.token, SHIPMENT_DOCUMENT, bl(i));
    /** `distinct`: shipments first..first+k-1 once each; otherwise shipment `first` again and again. */
    const cell = async (server: ServerProcess, request: (i: number) => RequestSpec, first: number, distinct: boolean) => {
      let n = first;
      const next = () => request(distinct ? n++ : first);
      const warmup = distinct ? undefined : { next, amount: 5 };
      const { load, sqlPerRequest } = await measure(server, next, { connections: 1, amount: distinct ? k : options.sizedRequests }, warmup);
      if (load.errors > 0) throw new Error(`errors on the ${containers}-container shipments`);
      return `${fixed(load.mean, 1)} ms / ${fixed(sqlPerRequest, 0)}`;
    };
    rows.push([
      `${containers} (${eventsPerShipment(containers)} events)`,
      await cell(baseline, rest, 0, false),
      await cell(service, rest, 0, true),
      await cell(service, rest, 0, false),
      await cell(service, full, k, true),
      await cell(service, full, k, false),
    ]);
  }
  print();
  print('full snapshot cost by size: mean latency at 1 connection / SQL statements per request');
  print(`(first: each request a shipment not looked up before, ${k} of them; cached: one shipment again, ${options.sizedRequests} times)`);
  print(table(['containers', 'baseline', 'REST first', 'REST cached', 'GraphQL full first', 'GraphQL full cached'], rows));
}

/**
 * Service memory over a long REST load: RSS before, after and every 10 s, and
 * the live heap (in use right after a full collection), which, unlike RSS,
 * does not follow the garbage collector's sawtooth.
 */
async function soak({ service, credentials }: Servers, options: BenchOptions, keys: KeySpace): Promise<void> {
  const scenario = scenarios(credentials, options.shipments, keys).find((s) => s.name === 'REST full snapshot');
  if (!scenario) throw new Error('no REST scenario');
  const mib = (bytes = 0) => fixed(bytes / 2 ** 20, 0);
  const statsBefore = await counts(service);
  const before = service.rssMiB();
  const samples: string[] = [];
  const timer = setInterval(() => samples.push(fixed(service.rssMiB(), 0)), 10_000);
  const load = await runLoad(service.url, scenario.next, { connections: options.connections, seconds: options.soakSeconds });
  clearInterval(timer);
  const after = service.rssMiB();
  const statsAfter = await counts(service);
  print();
  print(
    `soak: REST full snapshot for ${options.soakSeconds} s at ${options.connections} connections: ` +
      `${fixed(load.requestsPerSecond, 0)} req/s, p99 ${load.p99} ms, ${load.errors} errors`,
  );
  print(`  service RSS ${fixed(before, 0)} MiB before, ${fixed(after, 0)} MiB after (every 10 s: ${samples.join(', ')})`);
  print(
    `  live heap after the last full GC: ${mib(statsBefore.heap?.usedAfterLastMajor)} MiB before ` +
      `(${statsBefore.heap?.majorCollections ?? 0} full GCs so far), ${mib(statsAfter.heap?.usedAfterLastMajor)} MiB after ` +
      `(${statsAfter.heap?.majorCollections ?? 0}); snapshot cache ${thousands(statsAfter.snapshotCache?.entries ?? 0)} shipments, ` +
      `${mib(statsAfter.snapshotCache?.bytes)} MiB of stored JSON`,
  );
}

async function printFanout(
  bench: Parameters<typeof fanout>[0],
  { service, credentials }: Servers,
  settings: NonNullable<BenchOptions['fanout']> & { cpuProf?: string },
  connections: number,
): Promise<void> {
  const r = await fanout(bench, service, credentials.token, { ...settings, lookupConnections: Math.min(connections, 16) });
  const triggers = Object.entries(r.byTrigger)
    .map(([type, n]) => `${type} ${thousands(n)}`)
    .join(', ');
  print();
  print(
    `push fan-out${settings.worker === 'dedicated' ? ' (dedicated `tracking deliver` and the bulk `tracking ingest` at nice 10)' : ''}: ` +
      `${thousands(r.subscriptions)} subscriptions on ${thousands(settings.shipments)} shipments, one ingest ` +
      `(${fixed(r.ingestSeconds)} s; its ${r.commitsAfter.length} bundles committed at ${r.commitsAfter.map((c) => `+${fixed(c)}`).join(', ')} s): ` +
      `${thousands(r.deliveries)} deliveries (${triggers}) in ${fixed(r.seconds)} s from the first commit, ` +
      `${thousands(Math.round(r.deliveriesPerSecond))} deliveries/s (${thousands(Math.round(r.endToEndPerSecond))}/s from the ingest's start)`,
  );
  print(
    `  commit-to-callback latency p50 ${fixed(r.latencyMs.p50, 0)} ms, p99 ${fixed(r.latencyMs.p99, 0)} ms, max ${fixed(r.latencyMs.max, 0)} ms`,
  );
  const { api, cli } = r.single;
  print(
    `  a single change, nothing queued (one at a time, 20 each): committed by POST /v2/operator/ingest p50 ${fixed(api.p50, 0)} ` +
      `p99 ${fixed(api.p99, 0)} max ${fixed(api.max, 0)} ms; by \`tracking ingest\` (another process) p50 ${fixed(cli.p50, 0)} ` +
      `p99 ${fixed(cli.p99, 0)} max ${fixed(cli.max, 0)} ms (commit to callback)`,
  );
  const q = r.lookupsQuiet;
  const d = r.lookupsDuringFanout;
  print(
    `  REST lookups at ${settings.lookupRate}/s: p50 ${q.p50} p99 ${q.p99} ms without the fan-out, p50 ${d.p50} p99 ${d.p99} ms during it ` +
      `(p99 ratio ${fixed(d.p99 / q.p99, 2)}; errors ${q.errors}/${d.errors})`,
  );
}

function ingestLine(label: string, t: IngestTiming): string {
  const rate = eventsPerSecond(t);
  return (
    `${label}: ${thousands(t.events)} events, ${thousands(t.shipments)} shipments in ${fixed(t.parseSeconds + t.ingestSeconds)} s: ` +
    `${thousands(rate.total)} events/s (validation ${fixed(t.parseSeconds)} s + storage ${fixed(t.ingestSeconds)} s; ` +
    `storage alone ${thousands(rate.ingestOnly)} events/s)`
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
