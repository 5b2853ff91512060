import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { SHIPMENT_DOCUMENT } from '../src/executor/shipment-document.js';
import { orderCommittedChanges } from '../src/store/changes/change-order.js';
import { warmBufferPool } from './warm-pool.js';
import type { BenchDatabase } from './databases.js';
import { shipmentKey, type GenerateOptions } from './generate.js';
import type { KeySpace } from './keys.js';
import { counts, measure } from './measure.js';
import type { BenchOptions } from './options.js';
import type { ServerProcess } from './processes.js';
import { fixed, table, thousands } from './report.js';
import {
  changePages,
  conditionalPolls,
  eventsByContainer,
  firstLookups,
  graphqlRequest,
  PARTIAL_DOCUMENT,
  restPath,
  type Scenario,
} from './scenarios.js';
import { startServers, type Servers } from './setup.js';

/**
 * The scale comparison of a large run (`--shipments` above `--scale-from`, default 10,000): the same lookups
 * measured on the first `--scale-from` shipments, before the rest is seeded, and on all of them at the end,
 * each on servers started for it after the pool's warm-up (nothing served before the stage's own scenarios), side
 * by side, with the service's RSS and snapshot cache (bench/README.md, Scale runs). Keys are spread over all
 * shipments of each stage: first lookups ask for shipments the service was never asked for in the run (KeySpace),
 * the same number at both sizes; the others draw at random.
 */

export interface ScaleStage {
  shipments: number;
  rows: { name: string; rps: number; p50: number; p99: number; errors: number; diskReads: number }[];
  rssMiB: number;
  cacheMiB: number;
  /** What the stage printed before measuring (the change log's numbering). */
  notes: string[];
}

/** Change-log positions the feed scenario reads after. */
const FEED_CURSORS = 1_000;

/** The first-lookup scenario's shipments at a stage: measured once each, and the warm-up's. */
export interface FirstLookupKeys {
  measured: number[];
  warmup: number[];
}

/** As many first lookups at both sizes, whatever the larger one: a p99 of as many samples. */
function firstLookupCounts(options: BenchOptions): { measured: number; warmup: number } {
  return { measured: Math.min(Math.floor(options.scaleFrom * 0.6), 6_000), warmup: Math.min(Math.floor(options.scaleFrom * 0.2), 2_000) };
}

/** The small stage's first lookups: shipments spread over the first --scale-from, none asked for yet. */
function smallStageKeys(keys: KeySpace, options: BenchOptions): () => FirstLookupKeys {
  const counts = firstLookupCounts(options);
  return () => ({
    measured: keys.spreadFresh(counts.measured, options.scaleFrom),
    warmup: keys.spreadFresh(counts.warmup, options.scaleFrom),
  });
}

/**
 * Sets the large stage's first-lookup shipments aside (KeySpace.reserve) before the main scenarios run, spread
 * over all shipments but the first ones, which the feed, 304 and fan-out scenarios ask for in order.
 */
export function reserveLargeStageKeys(keys: KeySpace, options: BenchOptions): () => FirstLookupKeys {
  const counts = firstLookupCounts(options);
  const floor = Math.min(Math.max(10_000, options.fanout?.shipments ?? 0), Math.floor(options.shipments / 2));
  const reserved = keys.reserve(counts.measured + counts.warmup, floor, options.shipments);
  return () => ({ measured: keys.use(reserved.slice(0, counts.measured)), warmup: keys.use(reserved.slice(counts.measured)) });
}

/** The scenarios of a stage, in order: first lookups before anything else asks the service for a shipment. */
function stageScenarios(
  bench: BenchDatabase,
  servers: Servers,
  options: BenchOptions,
  shipments: number,
  keys: KeySpace,
  firstKeys: () => FirstLookupKeys,
  generate: GenerateOptions,
  notes: string[],
): Scenario[] {
  const { credentials } = servers;
  const bearer = { Authorization: `Bearer ${credentials.token}` };
  const random = () => keys.random(shipments);
  const feed = changePages(credentials, async () => {
    const t0 = performance.now();
    const numbered = await orderCommittedChanges(bench.database.db);
    notes.push(
      `change log: ${thousands(numbered)} changes numbered in ${fixed((performance.now() - t0) / 1000, 1)} s ` +
        `(as the first reader after a bulk load does), the feed reads after ${FEED_CURSORS} positions spread over the log`,
    );
    return changePositions(bench, FEED_CURSORS);
  });
  return [
    firstLookups(credentials, firstKeys),
    { name: 'REST full snapshot', target: 'service', next: () => ({ method: 'GET', path: restPath(bl(random())), headers: bearer }) },
    conditionalPolls(credentials, () => keys.spread(Math.min(2_000, shipments), shipments)),
    {
      name: 'GraphQL partial (eta, exceptions)',
      target: 'service',
      next: () => graphqlRequest(credentials.token, PARTIAL_DOCUMENT, bl(random())),
    },
    { name: 'GraphQL full snapshot', target: 'service', next: () => graphqlRequest(credentials.token, SHIPMENT_DOCUMENT, bl(random())) },
    feed,
    eventsByContainer(credentials, random, generate),
  ];
}

const bl = (index: number) => shipmentKey(index).billOfLadingNumber;

/** Measures the stage's scenarios on `shipments` shipments with the running servers. */
export async function scaleStage(
  bench: BenchDatabase,
  servers: Servers,
  options: BenchOptions,
  shipments: number,
  keys: KeySpace,
  firstKeys: () => FirstLookupKeys,
  generate: GenerateOptions,
  /** What warmStage printed, for the notes. */
  warmed: string | undefined,
): Promise<ScaleStage> {
  const rows: ScaleStage['rows'] = [];
  const notes: string[] = warmed === undefined ? [] : [warmed];
  const diskReads = bench.database.dialect === 'mysql' ? { diskReads: () => poolReadsOf(bench) } : {};
  for (const scenario of stageScenarios(bench, servers, options, shipments, keys, firstKeys, generate, notes)) {
    await scenario.prepare?.(servers.service);
    const expected = scenario.expected ? { expected: scenario.expected } : {};
    const run = scenario.amount !== undefined ? { amount: scenario.amount } : { seconds: options.seconds };
    const warmup =
      scenario.warmupAmount !== undefined
        ? { amount: scenario.warmupAmount, ...(scenario.warmup ? { next: scenario.warmup } : {}) }
        : { seconds: options.warmupSeconds };
    const { load, diskReadsPerRequest } = await measure(
      servers.service,
      scenario.next,
      { connections: options.connections, ...run, ...expected, ...diskReads },
      warmup,
    );
    rows.push({
      name: scenario.name,
      rps: load.requestsPerSecond,
      p50: load.p50,
      p99: load.p99,
      errors: load.errors,
      diskReads: diskReadsPerRequest,
    });
    process.stdout.write(
      `  ${thousands(shipments)}: ${scenario.name}: ${fixed(load.requestsPerSecond, 0)} req/s, p50 ${load.p50} p99 ${load.p99} ms` +
        `${Number.isNaN(diskReadsPerRequest) ? '' : `, ${fixed(diskReadsPerRequest, 2)} pages read from disk a request`}` +
        `${load.errors > 0 ? `, ${load.errors} ERRORS` : ''}\n`,
    );
  }
  const stats = await counts(servers.service);
  return {
    shipments,
    rows,
    rssMiB: servers.service.rssMiB(),
    cacheMiB: (stats.snapshotCache?.bytes ?? 0) / 2 ** 20,
    notes,
  };
}

/**
 * Warms the buffer pool with the lookup tables (warm-pool.ts) when the run does, before the stage's servers start:
 * the warm-up takes 18 to 32 s at a million shipments and none at 10,000, and a service idle that long starts its
 * load with the small heap limits V8 sets an idle process (a mark-compact every 200 ms for the first seconds at a
 * million, bench/README.md), which the smaller size's service never had. Returns the line it printed.
 */
export async function warmStage(bench: BenchDatabase, options: BenchOptions, shipments: number): Promise<string | undefined> {
  if (!options.warmPool) return undefined;
  const warmed = await warmBufferPool(bench);
  const line = `buffer pool warmed with the lookup tables: ${warmed.indexes} indexes of ${warmed.tables} tables, ${fixed(warmed.mebibytes, 0)} MiB, in ${fixed(warmed.seconds, 1)} s`;
  process.stdout.write(`  ${thousands(shipments)}: ${line}\n`);
  return `${thousands(shipments)}: ${line}`;
}

/** MariaDB's pages read from disk into the buffer pool so far (Run.diskReads in measure.ts). */
async function poolReadsOf(bench: BenchDatabase): Promise<number> {
  const status = await sql<{ value: string }>`
    select variable_value as value from information_schema.global_status where variable_name = 'INNODB_BUFFER_POOL_READS'`.execute(
    bench.database.db,
  );
  return Number(status.rows[0]?.value ?? NaN);
}

/** Starts the servers on the first stage's data, measures, stops them. */
export async function firstScaleStage(
  bench: BenchDatabase,
  options: BenchOptions,
  keys: KeySpace,
  generate: GenerateOptions,
): Promise<ScaleStage> {
  const running: ServerProcess[] = [];
  try {
    const warmed = await warmStage(bench, options, options.scaleFrom);
    const servers = await startServers(bench, options, (server) => running.push(server));
    return await scaleStage(bench, servers, options, options.scaleFrom, keys, smallStageKeys(keys, options), generate, warmed);
  } finally {
    for (const server of running) await server.stop();
  }
}

/** `count` change-log positions (after a change), at changes drawn at random over the whole numbered log. */
async function changePositions(bench: BenchDatabase, count: number): Promise<{ seq: number; id: number }[]> {
  const { db } = bench.database;
  const bounds = await db
    .selectFrom('change_log')
    .select([sql<number>`min(id)`.as('low'), sql<number>`max(id)`.as('high')])
    .where('commit_seq', 'is not', null)
    .executeTakeFirst();
  const low = Number(bounds?.low ?? 0);
  const high = Number(bounds?.high ?? 0);
  if (high <= 0) throw new Error('the change log is empty');
  const ids = Array.from({ length: count }, () => low + randomInt(high - low + 1));
  const rows = await db
    .selectFrom('change_log')
    .select(['id', 'commit_seq'])
    .where('id', 'in', ids)
    .where('commit_seq', 'is not', null)
    .execute();
  if (rows.length === 0) throw new Error('no change-log position found');
  return rows.map((r) => ({ seq: Number(r.commit_seq), id: Number(r.id) }));
}

/** Pages MariaDB read from disk per request: 0 when the buffer pool held all a scenario read; blank on SQLite. */
const diskCell = (reads: number) => (Number.isNaN(reads) ? '' : fixed(reads, 2));

export function scaleTable(small: ScaleStage, large: ScaleStage): string {
  const header = [
    'scenario',
    ...[small, large].flatMap((s) => [`${thousands(s.shipments)} req/s`, 'p50 ms', 'p99 ms', 'errors', 'disk pages/req']),
    'p99 ratio',
  ];
  // A stage without one answer in its window has no latency to compare: `none`, not 0.
  const cells = (row: ScaleStage['rows'][number] | undefined) =>
    !row
      ? ['', '', '', '', '']
      : row.rps > 0
        ? [fixed(row.rps, 0), String(row.p50), String(row.p99), String(row.errors), diskCell(row.diskReads)]
        : ['0', 'none', 'none', String(row.errors), diskCell(row.diskReads)];
  const rows = small.rows.map((row) => {
    const big = large.rows.find((r) => r.name === row.name);
    const ratio = big && big.rps > 0 && row.rps > 0 ? fixed(big.p99 / row.p99, 2) : 'n/a';
    return [row.name, ...cells(row), ...cells(big), ratio];
  });
  rows.push([
    'service RSS / snapshot cache MiB',
    `${fixed(small.rssMiB, 0)} / ${fixed(small.cacheMiB, 0)}`,
    '',
    '',
    '',
    '',
    `${fixed(large.rssMiB, 0)} / ${fixed(large.cacheMiB, 0)}`,
    '',
    '',
    '',
    '',
    '',
  ]);
  return table(header, rows);
}
