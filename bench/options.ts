/**
 * Command line of `npm run bench -- [flags]`:
 *   --quick            1,000 shipments, a few seconds per scenario, smaller ingest bundle (< 2 min in all)
 *   --sqlite           seed and serve SQLite (a temporary file) instead of MariaDB; nothing touches MariaDB then
 *   --soak / --no-soak RSS before and after a 60 s load (default: on in full runs, off with --quick)
 *   --soak-seconds N   length of the soak (default 60)
 *   --no-ingest        skip the 100,000-event ingest benchmark
 *   --ingest-events N  events in the ingest benchmark's bundle (default 100,000; --quick 10,000)
 *   --shipments N      shipments to seed (default 10,000; --quick 1,000); above --scale-from, the lookups are
 *                      also measured on the first --scale-from shipments before the rest is seeded, side by side
 *   --scale-from N     the smaller size of a scale run (default 10,000)
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
  seconds: number;
  warmupSeconds: number;
  connections: number;
  pool: number;
  cpuProf: string | undefined;
  nodeArgs: string[];
  serverLog: string | undefined;
  only: string[] | undefined;
  keep: boolean;
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
    ...['--seconds'],
    ...['--warmup', '--connections', '--pool', '--cpu-prof', '--node-arg', '--server-log', '--only', '--keep'],
    ...['--fanout', '--fanout-subscriptions', '--fanout-shipments', '--fanout-rate', '--fanout-worker'],
  ];
  const nodeArgs = argv.flatMap((a, i) => (argv[i - 1] === '--node-arg' ? [a] : []));
  for (const flag of flags) {
    if (!known.includes(flag) && !nodeArgs.includes(flag)) throw new Error(`unknown flag ${flag}; known: ${known.join(' ')}`);
  }
  const quick = flags.has('--quick');
  const shipments = int('--shipments', quick ? 1_000 : 10_000);
  return {
    quick,
    dialect: flags.has('--sqlite') ? 'sqlite' : 'mysql',
    soak: flags.has('--soak') || (!quick && !flags.has('--no-soak')),
    soakSeconds: int('--soak-seconds', 60),
    ingest: !flags.has('--no-ingest'),
    ingestEvents: int('--ingest-events', quick ? 10_000 : 100_000),
    shipments,
    scaleFrom: int('--scale-from', 10_000),
    seconds: int('--seconds', quick ? 4 : 20),
    warmupSeconds: int('--warmup', quick ? 1 : 3),
    connections: int('--connections', 64),
    pool: int('--pool', 32),
    cpuProf: value('--cpu-prof'),
    nodeArgs,
    serverLog: value('--server-log'),
    only: value('--only')?.split(','),
    keep: flags.has('--keep'),
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
