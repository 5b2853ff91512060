/**
 * Command line of `npm run bench -- [flags]`:
 *   --eta              the predicted arrival's evaluation instead (bench/eta/eta-bench.ts: --seeds 1,2,3, --mysql)
 *   --eta-cost         what training the predicted arrival's model costs, instead (bench/eta-cost.ts; MariaDB only):
 *                      seeds --shipments N (default 20,000; 20 events each) at the current schema by copies of
 *                      templates with carrier ETAs and arrivals, runs `tracking eta train --from-scratch`, adds
 *                      --increment % (default 1) more events and trains again, with REST lookups at --lookup-rate
 *                      (default 200/s) meanwhile; also --private-mariadb, --buffer-pool, --private-mariadb-dir,
 *                      --keep, --seed-lanes, --lookup-connections, --baseline-seconds; --train-budget SECONDS or
 *                      --train-until TIME stop the run from scratch there (its figures up to its last commit)
 *                      (bench/README.md, ETA training's cost)
 *   --upgrade-steps    what each step of the 0.4.0 to 0.5.0 upgrade costs, instead (bench/upgrade-steps.ts)
 *   --quick            1,000 shipments, a few seconds per scenario, smaller ingest bundle (< 2 min in all)
 *   --sqlite           seed and serve SQLite (a temporary file) instead of MariaDB; nothing touches MariaDB then
 *   --soak / --no-soak RSS before and after a 60 s load (default: on in full runs, off with --quick)
 *   --soak-seconds N   length of the soak (default 60)
 *   --no-ingest        skip the 100,000-event ingest benchmark
 *   --ingest-events N  events in the ingest benchmark's bundle (default 100,000; --quick 10,000)
 *   --shipments N      shipments to seed (default 10,000; --quick 1,000); above --scale-from, the lookups are
 *                      also measured on the first --scale-from shipments before the rest is seeded, side by side
 *   --scale-from N     the smaller size of a scale run (default 10,000)
 *   --profile P        shipments the generator makes: full (4 containers, 59 events each) or forwarder (1 or 2
 *                      containers, 15 to 30 events, 20 on average); default forwarder in a scale run, else full
 *   --stages N,N,...   shipment counts where the seed pauses to print its rate and the database's size (default:
 *                      --scale-from, then 25,000, 50,000, 100,000, 250,000, ... below --shipments, then --shipments)
 *   --seed-workers N   worker threads that generate, validate and ingest bundles side by side (default 2)
 *   --seed-bundle N    shipments per seed bundle (default 250)
 *   --private-mariadb  seed and serve a MariaDB server of the bench's own (bench/private-mariadb.ts: own data
 *                      folder, port and socket), stopped and deleted at the end, instead of BENCH_MYSQL_URL
 *   --buffer-pool N    its innodb_buffer_pool_size in GiB (default 8)
 *   --private-mariadb-dir DIR  where its data folder goes (default the temporary directory)
 *   --reuse-seed       with --private-mariadb --private-mariadb-dir DIR, DIR the folder a --keep run left (it
 *                      printed it): start the server on that data, check its bench database holds exactly
 *                      --shipments shipments and the code's migrations, skip the seed and measure; a scale run
 *                      seeds a fresh --scale-from database in the same server for the smaller size. The folder
 *                      and the database are kept, for the next run (bench/README.md, Scale runs)
 *   --cold-pool        a MariaDB scale run measures each stage from the buffer pool the seed left, instead of first
 *                      reading the lookup tables into it (bench/warm-pool.ts: the steady state of a service that
 *                      has answered lookups for a while)
 *   --seconds N        seconds per scenario (default 20; --quick 4)
 *   --warmup N         seconds of warm-up load before each scenario (default 3; --quick 1)
 *   --connections N    concurrent connections (default 64)
 *   --pool N           TT_DB_POOL_SIZE of the service and pool size of the baseline (default 32)
 *   --cpu-prof DIR     run the service under `node --cpu-prof` and write its profile to DIR
 *   --node-arg ARG     an extra node flag for the service (repeatable), e.g. --node-arg --trace-gc
 *   --server-log FILE  append the service's stdout to FILE
 *   --only NAMES       comma-separated scenario name prefixes (profiling one scenario)
 *   --keep             keep the bench database
 *   --fanout           push fan-out: webhook subscriptions, one ingest, deliveries/s and commit-to-callback latency
 *   --fanout-subscriptions N  subscriptions (default 10,000)
 *   --fanout-shipments N      shipments they watch and the ingest touches (default 1,000; at most --shipments)
 *   --fanout-rate N           REST lookups per second during the fan-out and without it (default 200)
 *   --fanout-worker MODE      serve (default): the service's own delivery worker sends; dedicated: the service runs
 *                             with TT_DELIVERY_WORKER=false and `tracking deliver` sends, at nice 10, and the
 *                             fan-out's `tracking ingest` runs at nice 10 too (the deployment docs/push.md "Push
 *                             delivery" describes for API latency under fan-outs)
 * BENCH_MYSQL_URL names the MariaDB/MySQL server (default mysql://root@127.0.0.1:3306/test).
 */
export interface BenchOptions {
  quick: boolean;
  dialect: 'mysql' | 'sqlite';
  soak: boolean;
  soakSeconds: number;
  ingest: boolean;
  ingestEvents: number;
  shipments: number;
  /** A run with more shipments than this compares lookups at this size and at `shipments` (bench/scale.ts). */
  scaleFrom: number;
  profile: 'full' | 'forwarder';
  /** Where the seed pauses to print its rate and the size on disk, ascending, the last one `shipments`. */
  stages: number[];
  seedWorkers: number;
  seedBundle: number;
  /**
   * `reuse`: the folder of a kept private server (--reuse-seed), whose bench database is measured as it is;
   * otherwise a new server, its folder under `directory`.
   */
  privateMariadb: { bufferPoolGiB: number; directory: string | undefined; reuse: boolean } | undefined;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  pool: number;
  cpuProf: string | undefined;
  nodeArgs: string[];
  serverLog: string | undefined;
  only: string[] | undefined;
  keep: boolean;
  /** MariaDB scale runs: read the lookup tables into the buffer pool before measuring a stage (bench/warm-pool.ts). */
  warmPool: boolean;
  fanout: { subscriptions: number; shipments: number; lookupRate: number; worker: 'serve' | 'dedicated' } | undefined;
  /** Sequential requests per size for the snapshot cost at 1, 10 and 100 containers. */
  sizedRequests: number;
  /** Shipments of each size looked up once each (twice this many are seeded). */
  sizedShipments: number;
}

export function parseOptions(argv: string[]): BenchOptions {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const int = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw)) throw new Error(`${name} needs a whole number, got ${raw}`);
    return Number(raw);
  };
  const known = [
    ...['--quick', '--sqlite', '--soak', '--no-soak', '--soak-seconds', '--no-ingest', '--ingest-events', '--shipments', '--scale-from'],
    ...['--seconds', '--profile', '--stages', '--seed-workers', '--seed-bundle', '--private-mariadb', '--buffer-pool'],
    ...['--private-mariadb-dir', '--reuse-seed', '--cold-pool'],
    ...['--warmup', '--connections', '--pool', '--cpu-prof', '--node-arg', '--server-log', '--only', '--keep'],
    ...['--fanout', '--fanout-subscriptions', '--fanout-shipments', '--fanout-rate', '--fanout-worker'],
  ];
  const nodeArgs = argv.flatMap((a, i) => (argv[i - 1] === '--node-arg' ? [a] : []));
  for (const flag of flags) {
    if (!known.includes(flag) && !nodeArgs.includes(flag)) throw new Error(`unknown flag ${flag}; known: ${known.join(' ')}`);
  }
  const quick = flags.has('--quick');
  const shipments = int('--shipments', quick ? 1_000 : 10_000);
  const scaleFrom = int('--scale-from', 10_000);
  if (shipments < 1) throw new Error('--shipments needs at least 1');
  const dialect = flags.has('--sqlite') ? 'sqlite' : 'mysql';
  const privateMariadb = flags.has('--private-mariadb');
  if (privateMariadb && dialect === 'sqlite') throw new Error('--private-mariadb is for MariaDB runs, not --sqlite');
  const reuse = flags.has('--reuse-seed');
  if (reuse) refuseReuse(flags, value('--private-mariadb-dir'));
  return {
    quick,
    dialect,
    soak: flags.has('--soak') || (!quick && !flags.has('--no-soak')),
    soakSeconds: int('--soak-seconds', 60),
    ingest: !flags.has('--no-ingest'),
    ingestEvents: int('--ingest-events', quick ? 10_000 : 100_000),
    shipments,
    scaleFrom,
    profile: profile(value('--profile'), shipments > scaleFrom),
    stages: stages(value('--stages'), shipments, scaleFrom),
    seedWorkers: Math.max(1, int('--seed-workers', 2)),
    seedBundle: Math.max(1, int('--seed-bundle', 250)),
    privateMariadb: privateMariadb
      ? { bufferPoolGiB: int('--buffer-pool', 8), directory: value('--private-mariadb-dir'), reuse }
      : undefined,
    seconds: int('--seconds', quick ? 4 : 20),
    warmupSeconds: int('--warmup', quick ? 1 : 3),
    connections: int('--connections', 64),
    pool: int('--pool', 32),
    cpuProf: value('--cpu-prof'),
    nodeArgs,
    serverLog: value('--server-log'),
    only: value('--only')?.split(','),
    // A reused seed is kept for the next run whatever the flags.
    keep: flags.has('--keep') || reuse,
    warmPool: dialect === 'mysql' && !flags.has('--cold-pool'),
    fanout: flags.has('--fanout')
      ? {
          subscriptions: int('--fanout-subscriptions', 10_000),
          shipments: Math.min(shipments, int('--fanout-shipments', 1_000)),
          lookupRate: int('--fanout-rate', 200),
          worker: fanoutWorker(value('--fanout-worker')),
        }
      : undefined,
    sizedRequests: quick ? 20 : 100,
    sizedShipments: quick ? 5 : 20,
  };
}

/**
 * --reuse-seed measures a database a --keep run seeded on its own server, as it is: it needs that server's folder,
 * and refuses what would seed the main database or change it for the next run.
 */
function refuseReuse(flags: Set<string>, directory: string | undefined): void {
  if (!flags.has('--private-mariadb') || directory === undefined || directory.startsWith('--')) {
    throw new Error(
      '--reuse-seed needs --private-mariadb --private-mariadb-dir DIR, DIR the folder of the private server a --keep run left',
    );
  }
  // --stages shapes a seed there is none of; the fan-out ingests into the kept database, which the next run reuses.
  for (const flag of ['--stages', '--fanout']) {
    if (flags.has(flag)) throw new Error(`--reuse-seed does not seed or change the kept database: drop ${flag}`);
  }
}

function profile(raw: string | undefined, scaleRun: boolean): 'full' | 'forwarder' {
  if (raw === undefined) return scaleRun ? 'forwarder' : 'full';
  if (raw === 'full' || raw === 'forwarder') return raw;
  throw new Error(`--profile takes full or forwarder, got ${raw}`);
}

/**
 * The seed's stages: as given (ascending, below `shipments`), else --scale-from (in a scale run) and the
 * 1-2.5-5 series above it up to 80 % of `shipments`; always ending at `shipments`.
 */
export function stages(raw: string | undefined, shipments: number, scaleFrom: number): number[] {
  let points: number[];
  if (raw !== undefined) {
    points = raw.split(',').map((p) => {
      if (!/^\d+$/.test(p)) throw new Error(`--stages takes whole numbers, got ${p}`);
      return Number(p);
    });
  } else if (shipments > scaleFrom) {
    points = [scaleFrom];
    for (let decade = 10_000; decade < shipments; decade *= 10) {
      for (const step of [decade, 2.5 * decade, 5 * decade]) if (step > scaleFrom && step < shipments * 0.8) points.push(step);
    }
  } else {
    points = [];
  }
  const sorted = [...new Set([...points.filter((p) => p > 0 && p < shipments), shipments])].sort((a, b) => a - b);
  if (shipments > scaleFrom && !sorted.includes(scaleFrom)) throw new Error(`--stages must include --scale-from (${scaleFrom})`);
  return sorted;
}

function fanoutWorker(raw: string | undefined): 'serve' | 'dedicated' {
  if (raw === undefined || raw === 'serve' || raw === 'dedicated') return raw ?? 'serve';
  throw new Error(`--fanout-worker takes serve or dedicated, got ${raw}`);
}

/**
 * The stores a run creates databases on, in order: the one it serves (--sqlite or MariaDB), and for the ingest
 * benchmark both stores unless --sqlite asked for SQLite alone (a machine without MariaDB runs `--sqlite`).
 */
export function ingestDialects(options: Pick<BenchOptions, 'dialect' | 'ingest'>): ('mysql' | 'sqlite')[] {
  if (!options.ingest) return [];
  return options.dialect === 'sqlite' ? ['sqlite'] : ['mysql', 'sqlite'];
}
