import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Migrator, type KyselyPlugin, type Kysely } from 'kysely';
import { createConnection } from 'mysql2/promise';
import { connectDatabase } from '../src/db/connect.js';
import type { DatabaseSchema } from '../src/db/schema.js';
import { contractSteps, ensureContractTable } from '../src/store/housekeeping/contract-steps.js';
import { RELEASE_MIGRATION_TABLE, underLease } from '../src/store/housekeeping/migrate.js';
import { markFinished, refreshWriteForms } from '../src/store/housekeeping/upgrade-state.js';
import { migrations, PREVIOUS_RELEASE_MIGRATIONS } from '../db/migrations/index.js';
import { benchDatabaseName, benchMysqlUrl } from './databases.js';
import { startPrivateMariadb, type PrivateMariadb } from './private-mariadb.js';
import { fixed, table, thousands } from './report.js';
import { LookupLoop, summarize, type WindowSummary } from './upgrade-lookups.js';
import { seedPreviousRelease } from './upgrade-seed.js';

/**
 * `npm run bench -- --upgrade-steps [--shipments N]` (bench/README.md, Upgrade steps): what each step of the
 * 0.4.0 to 0.5.0 upgrade costs on a database of N shipments. Seeds a database at 0.4.0's schema and row forms
 * (bench/upgrade-seed.ts), then, while 0.4.0's lookups run at a fixed rate (bench/upgrade-lookups.ts), applies
 * each expand step (015..030) alone, as `tracking serve`'s start-up applies them (Kysely's Migrator on
 * release_migration, the migration session's lock_wait_timeout), timing each with the lookups' p50/p99 and
 * errors during it; then records the finish (999-upgrade-to-0.5.0-finished) and runs each contract step
 * (025..028) as `tracking upgrade finish` does. A contract step that rewrites rows gets at most
 * `--finish-budget` seconds: when it is not done by then it is stopped (safe: the finish is resumable), the
 * share of its walk done is read from the rows, and its whole duration extrapolated from that share.
 */

const print = (line = '') => process.stdout.write(`${line}\n`);

interface Options {
  shipments: number;
  templates: number;
  lanes: number;
  privateMariadb: { bufferPoolGiB: number; directory: string | undefined } | undefined;
  keep: boolean;
  lookupRate: number;
  lookupConnections: number;
  baselineSeconds: number;
  finishBudgetSeconds: number;
  finish: boolean;
}

function parse(argv: string[]): Options {
  const known = [
    '--upgrade-steps',
    ...['--shipments', '--templates', '--seed-lanes', '--private-mariadb', '--buffer-pool', '--private-mariadb-dir', '--keep'],
    ...['--lookup-rate', '--lookup-connections', '--baseline-seconds', '--finish-budget', '--no-finish'],
  ];
  for (const a of argv)
    if (a.startsWith('--') && !known.includes(a)) throw new Error(`--upgrade-steps: unknown flag ${a}; known: ${known.join(' ')}`);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const int = (name: string, fallback: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw)) throw new Error(`${name} needs a whole number, got ${raw}`);
    return Number(raw);
  };
  const shipments = int('--shipments', 100_000);
  const templates = int('--templates', Math.min(3_000, shipments));
  return {
    shipments,
    templates,
    lanes: Math.max(1, int('--seed-lanes', 2)),
    privateMariadb: argv.includes('--private-mariadb')
      ? { bufferPoolGiB: int('--buffer-pool', 8), directory: value('--private-mariadb-dir') }
      : undefined,
    keep: argv.includes('--keep'),
    lookupRate: int('--lookup-rate', 200),
    lookupConnections: int('--lookup-connections', 8),
    baselineSeconds: int('--baseline-seconds', 20),
    finishBudgetSeconds: int('--finish-budget', 300),
    finish: !argv.includes('--no-finish'),
  };
}

/** How each step runs on MariaDB (src/db/online-ddl.ts; CREATE TABLE needs none). */
const ALGORITHMS: Record<string, string> = {
  '015-access-changes': 'ADD COLUMN INSTANT; CREATE INDEX INPLACE, LOCK=NONE (dcsa_notification_event)',
  '016-shipment-identity': 'ADD COLUMN INSTANT; 2 CREATE TABLE; UPDATE shipment (marks stand-ins: a scan)',
  '017-carrier-backoff': '3 x ADD COLUMN INSTANT (carrier_source)',
  '019-edi-interchanges': 'CREATE TABLE; ADD COLUMN INSTANT',
  '020-compact-snapshots': '4 x ADD COLUMN INSTANT (shipment_snapshot)',
  '021-compact-events': 'ADD COLUMN INSTANT (event)',
  '023-event-scale': 'CREATE INDEX INPLACE, LOCK=NONE (event, shipment); ADD COLUMN INSTANT',
  '024-instance-heartbeats': 'CREATE TABLE',
  '029-edi-times': 'ADD COLUMN INSTANT (carrier_source)',
  '030-eta-model': '2 x CREATE TABLE',
  '025-compact-events': 'UPDATE batches of 500 events',
  '026-compact-snapshots': 'UPDATE batches of 100 snapshots',
  '027-compact-milestones': 'UPDATE batches of 200 shipments',
  '028-mark-stand-ins': 'one UPDATE of shipment (a scan)',
};

interface StepRow {
  step: string;
  algorithm: string;
  seconds: number;
  /** Contract steps stopped at the budget: the share of the walk done and the extrapolated whole. */
  done?: number;
  lookups: WindowSummary;
}

/**
 * The MariaDB server a database bench (this one, --eta-cost) seeds and measures: its own (--private-mariadb) or
 * BENCH_MYSQL_URL's, and its database's name (bench/databases.ts, BENCH_DB_SUFFIX); says which.
 */
export async function openBenchServer(
  privateMariadb: { bufferPoolGiB: number; directory: string | undefined } | undefined | null,
  baseName: string,
): Promise<{ server: PrivateMariadb | null; serverUrl: string; name: string }> {
  const name = benchDatabaseName(baseName);
  if (!privateMariadb) {
    const serverUrl = benchMysqlUrl();
    print(`MariaDB: ${await serverSettings(serverUrl)} (database ${name}, dropped at the end unless --keep)`);
    return { server: null, serverUrl, name };
  }
  const server = await startPrivateMariadb({ bufferPoolGiB: privateMariadb.bufferPoolGiB, parent: privateMariadb.directory });
  print(`MariaDB: the bench's own server (${server.url}, innodb_buffer_pool_size ${server.bufferPoolGiB} GiB, redo log 1 GiB)`);
  return { server, serverUrl: server.url, name };
}

export async function runUpgradeSteps(argv: string[]): Promise<void> {
  const options = parse(argv);
  const started = performance.now();
  const { server, serverUrl, name } = await openBenchServer(options.privateMariadb, 'tt_upgrade');
  print(
    `upgrade steps bench: ${thousands(options.shipments)} shipments at 0.4.0's schema, lookups ${options.lookupRate}/s ` +
      `on ${options.lookupConnections} connections, contract steps at most ${options.finishBudgetSeconds} s each`,
  );
  try {
    const seed = await seedPreviousRelease({
      serverUrl,
      name,
      shipments: options.shipments,
      templates: options.templates,
      lanes: options.lanes,
      print,
    });
    print(
      `upgrade seed: ${thousands(seed.shipments)} shipments, ${thousands(seed.events)} events in ${fixed(seed.seconds / 60, 1)} min ` +
        `(${thousands(seed.events / seed.seconds)} events/s)`,
    );
    print(`settled (dirty pages at most 5 % of the pool) in ${fixed(await settle(serverUrl, 600, server !== null), 0)} s`);
    print(await tableSizes(serverUrl, name));
    const rows = await measureSteps(seed.url, options);
    print();
    print(
      `upgrade steps at ${thousands(options.shipments)} shipments (${thousands(seed.events)} events)${server ? ', private MariaDB' : ''}:`,
    );
    print(stepTable(rows));
    print(await tableSizes(serverUrl, name));
  } finally {
    if (!options.keep) {
      const admin = await createConnection(serverUrl);
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.query(`DROP DATABASE IF EXISTS \`${name}_tpl\``);
      await admin.end();
    }
    await server?.stop(options.keep);
  }
  print(`upgrade steps bench done in ${fixed((performance.now() - started) / 60_000, 1)} min`);
}

async function measureSteps(url: string, options: Options): Promise<StepRow[]> {
  const database = connectDatabase(url, { poolSize: 4 });
  const loop = new LookupLoop(url, { shipments: options.shipments, rate: options.lookupRate, connections: options.lookupConnections });
  const rows: StepRow[] = [];
  const windowRow = (step: string, seconds: number, ended: ReturnType<LookupLoop['window']>, done?: number): void => {
    const row: StepRow = {
      step,
      algorithm: ALGORITHMS[step] ?? '',
      seconds,
      lookups: summarize(ended),
      ...(done !== undefined ? { done } : {}),
    };
    rows.push(row);
    print(
      `${step}: ${fixed(seconds, 2)} s${done !== undefined && done < 1 ? ` (stopped at ${fixed(done * 100, 1)} % of its walk)` : ''}; ` +
        `lookups ${row.lookups.lookups}, p50 ${fixed(row.lookups.p50, 1)} ms, p99 ${fixed(row.lookups.p99, 1)} ms, ` +
        `max ${fixed(row.lookups.max, 0)} ms, errors ${row.lookups.errors}${row.lookups.firstError ? ` (${row.lookups.firstError})` : ''}` +
        `${row.lookups.notFound ? `, not found ${row.lookups.notFound}` : ''}${row.lookups.skipped ? `, skipped ${row.lookups.skipped}` : ''}` +
        `; load average ${fixed(loadavg()[0] ?? 0, 1)}`,
    );
  };
  try {
    loop.start();
    loop.window('before');
    await sleep(options.baselineSeconds * 1000);
    windowRow('(no step: 0.4.0 lookups alone)', options.baselineSeconds, loop.window('-'));

    // Expand: each step alone, as migrateToLatest applies them (release_migration, under the lease's session settings).
    const all = migrations('mysql');
    const previous = new Set(PREVIOUS_RELEASE_MIGRATIONS);
    const release = Object.keys(all).filter((n) => !previous.has(n));
    const db = underLease(database.db);
    for (let i = 0; i < release.length; i++) {
      const step = release[i]!;
      const upTo = Object.fromEntries(release.slice(0, i + 1).map((n) => [n, all[n]!]));
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => upTo },
        migrationTableName: RELEASE_MIGRATION_TABLE,
        migrationLockTableName: `${RELEASE_MIGRATION_TABLE}_lock`,
      });
      loop.window(step);
      const t0 = performance.now();
      const { error, results } = await migrator.migrateToLatest();
      const seconds = (performance.now() - t0) / 1000;
      if (error) throw error instanceof Error ? error : new Error(String(error));
      if (!results?.some((r) => r.migrationName === step && r.status === 'Success')) throw new Error(`${step} did not run`);
      // Every window at least 1 s from the step's start, so that an instant step still has lookups to show.
      await sleep(Math.max(0, 1000 - seconds * 1000));
      windowRow(step, seconds, loop.window('-'));
    }
    await sleep(options.baselineSeconds * 1000);
    windowRow('(no step: after the expand steps)', options.baselineSeconds, loop.window('-'));
    if (!options.finish) return rows;

    // Contract: what `tracking upgrade finish` does once no 0.4.0 instance runs (no instance here to wait for).
    loop.readBothForms();
    await markFinished(database.db);
    await refreshWriteForms(database.db);
    await ensureContractTable(database.db);
    for (const [step, migration] of Object.entries(contractSteps()).sort(([a], [b]) => a.localeCompare(b))) {
      const progress = PROGRESS[step];
      let stopped = false;
      const budgeted = progress ? (database.db.withPlugin(stopAfter(() => stopped)) as Kysely<DatabaseSchema>) : database.db;
      const timer = progress ? setTimeout(() => (stopped = true), options.finishBudgetSeconds * 1000) : undefined;
      loop.window(step);
      const t0 = performance.now();
      let finished = true;
      try {
        await migration.up(budgeted);
      } catch (err) {
        if (!(err instanceof BudgetSpent)) throw err;
        finished = false;
      } finally {
        clearTimeout(timer);
      }
      const seconds = (performance.now() - t0) / 1000;
      await sleep(Math.max(0, 1000 - seconds * 1000));
      const ended = loop.window('-');
      if (finished) {
        windowRow(step, seconds, ended, 1);
      } else {
        const done = await progress!(url);
        windowRow(step, seconds, ended, done);
      }
    }
    return rows;
  } finally {
    await loop.stop();
    await database.close();
  }
}

class BudgetSpent extends Error {}

/** A plugin that fails every statement once `spent()`: the step's transaction rolls back and the step stops. */
function stopAfter(spent: () => boolean): KyselyPlugin {
  return {
    transformQuery(args) {
      if (spent()) throw new BudgetSpent('the step reached its budget');
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}

/**
 * The share of a row-rewriting contract step's walk that is done: each walks its table in primary-key order
 * (src/store/events/compact-events.ts, shipments/stored-snapshots.ts, shipments/compact-milestones.ts), so the
 * rows up to some key are rewritten and none after it. Found by bisection on the key (a primary-key read each),
 * as a share of the key range (ids are dense: the seed's copies leave gaps of a few ids per 3,000 shipments).
 */
const PROGRESS: Record<string, (url: string) => Promise<number>> = {
  '025-compact-events': (u) => walked(u, 'event', 'seq', 'payload is not null'),
  '026-compact-snapshots': (u) => walked(u, 'shipment_snapshot', 'shipment_id', 'stored_form > 0'),
  '027-compact-milestones': (u) => walked(u, 'shipment', 'id', '(milestones is not null or milestones_json is null)'),
};

async function walked(url: string, table: string, key: string, rewritten: string): Promise<number> {
  const conn = await createConnection(url);
  try {
    const value = async (text: string, params: unknown[] = []) =>
      ((await conn.query(text, params))[0] as Record<string, unknown>[])[0] ?? null;
    const top = Number((await value(`select max(\`${key}\`) as v from \`${table}\``))?.v ?? 0);
    const isDone = async (at: number) => {
      const row = await value(`select (${rewritten}) as done from \`${table}\` where \`${key}\` >= ? order by \`${key}\` limit 1`, [at]);
      return row !== null && Number(row.done) === 1;
    };
    let lo = 0;
    let hi = top;
    // Largest key whose row is rewritten: rows with key <= lo are done, those above hi are not.
    if (!(await isDone(1))) return 0;
    lo = 1;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await isDone(mid)) lo = mid;
      else hi = mid;
    }
    return top === 0 ? 1 : lo / top;
  } finally {
    await conn.end();
  }
}

function stepTable(rows: StepRow[]): string {
  return table(
    ['step', 'how (MariaDB)', 'duration', 'lookups', 'p50 ms', 'p99 ms', 'max ms', 'errors'],
    rows.map((r) => [
      r.step,
      r.algorithm,
      r.done !== undefined && r.done < 1
        ? `${fmtSeconds(r.seconds / Math.max(r.done, 1e-9))} (extrapolated: ${fmtSeconds(r.seconds)} did ${fixed(r.done * 100, 1)} %)`
        : fmtSeconds(r.seconds),
      r.lookups.lookups,
      fixed(r.lookups.p50, 1),
      fixed(r.lookups.p99, 1),
      fixed(r.lookups.max, 0),
      r.lookups.errors,
    ]),
  );
}

function fmtSeconds(s: number): string {
  if (s < 1) return `${fixed(s * 1000, 0)} ms`;
  if (s < 120) return `${fixed(s, 1)} s`;
  return `${fixed(s / 60, 1)} min`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function serverSettings(url: string): Promise<string> {
  const conn = await createConnection(url);
  try {
    const [rows] = await conn.query('select @@version as version, @@innodb_buffer_pool_size as pool');
    const row = (rows as { version: string; pool: number | string }[])[0];
    return `${new URL(url).host}, ${row?.version ?? '?'}, innodb_buffer_pool_size ${fixed(Number(row?.pool ?? 0) / 2 ** 20, 0)} MiB`;
  } finally {
    await conn.end();
  }
}

/**
 * Waits until at most 5 % of the buffer pool is dirty (the seed's writes flushed), at most maxSeconds. On the
 * bench's own server (`own`) it asks InnoDB to flush at once meanwhile (innodb_max_dirty_pages_pct 0, then back):
 * at its background rate a million shipments' seed takes many minutes to write back.
 */
export async function settle(url: string, maxSeconds: number, own: boolean): Promise<number> {
  const t0 = performance.now();
  const conn = await createConnection(url);
  const [before] = await conn.query('select @@innodb_max_dirty_pages_pct as pct, @@innodb_io_capacity as io');
  const saved = (before as { pct: number; io: number }[])[0]!;
  if (own) await conn.query('set global innodb_io_capacity = 2000, global innodb_max_dirty_pages_pct = 0');
  try {
    for (;;) {
      const [rows] = await conn.query(
        "show global status where Variable_name in ('Innodb_buffer_pool_pages_dirty', 'Innodb_buffer_pool_pages_total')",
      );
      const v = (n: string) => Number((rows as { Variable_name: string; Value: string }[]).find((r) => r.Variable_name === n)?.Value ?? 0);
      if (v('Innodb_buffer_pool_pages_dirty') <= v('Innodb_buffer_pool_pages_total') * 0.05) break;
      if (performance.now() - t0 > maxSeconds * 1000) break;
      await sleep(1000);
    }
  } finally {
    if (own)
      await conn.query(`set global innodb_max_dirty_pages_pct = ${Number(saved.pct)}, global innodb_io_capacity = ${Number(saved.io)}`);
    await conn.end();
  }
  return (performance.now() - t0) / 1000;
}

/** The database's largest tables (information_schema's estimates), GiB. */
export async function tableSizes(serverUrl: string, name: string): Promise<string> {
  const conn = await createConnection(serverUrl);
  try {
    const [rows] = await conn.query(
      'select table_name as t, table_rows as n, data_length as d, index_length as i from information_schema.tables ' +
        'where table_schema = ? and data_length + index_length > 64 * 1024 * 1024 order by data_length + index_length desc',
      [name],
    );
    const list = rows as { t: string; n: number; d: number; i: number }[];
    const total = list.reduce((s, r) => s + Number(r.d) + Number(r.i), 0);
    return (
      `tables (estimates): ` +
      list.map((r) => `${r.t} ${fixed(Number(r.d) / 2 ** 30, 2)}+${fixed(Number(r.i) / 2 ** 30, 2)} GiB`).join(', ') +
      `; total ${fixed(total / 2 ** 30, 1)} GiB`
    );
  } finally {
    await conn.end();
  }
}
