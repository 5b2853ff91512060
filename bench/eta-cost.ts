import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createConnection } from 'mysql2/promise';
import { connectDatabase } from '../src/db/connect.js';
import { decompressText } from '../src/store/encoding/snapshot-compression.js';
import { parseHistoryCursor, type HistoryCursor } from '../src/store/eta/eta-history.js';
import { findShipment } from '../src/store/shipments/shipment-lookup.js';
import { CURRENT_SCHEMA_SEED } from './eta-cost-seed.js';
import { BENCH_DIST, CLI } from './processes.js';
import { fixed, table, thousands } from './report.js';
import { LookupLoop, summarize, type WindowSummary } from './upgrade-lookups.js';
import { seedCopies } from './upgrade-seed.js';
import { openBenchServer, settle, tableSizes } from './upgrade-steps.js';

/**
 * `npm run bench -- --eta-cost [--private-mariadb] [--shipments N]` (bench/README.md, ETA training's cost): what
 * training the predicted arrival's model costs on a database of N shipments (20 events each on average) at the
 * current schema.
 *
 * 1. Seeds the database by copies (bench/eta-cost-seed.ts: templates with carrier ETAs and actual arrivals
 *    through the real ingest paths, multiplied in SQL by bench/upgrade-seed.ts's seedCopies).
 * 2. Runs `tracking eta train --from-scratch --json`, the built CLI (dist/src/cli/main.js) as an operator runs
 *    it, with bench/eta-cost-probe.ts loaded into it (`node --import`) for its peak RSS and heap; the events and
 *    change-log rows it read are those between the training cursor before and after (eta_training).
 * 3. Adds `--increment` % more events (whole copies of the templates: new shipments and their histories, arrivals
 *    among them) and runs `tracking eta train` again, incremental from the stored model and cursor: the
 *    background training's usual case (it runs the same training with pauses between batches).
 * Meanwhile REST's lookup statement (src/store/shipments/shipment-lookup.ts findShipment, with REST's stored
 * rendering, as `GET /v2/shipments?carrierCode=…&carrierBookingReference=…` reads it) runs at `--lookup-rate`
 * per second on random shipments from this process (bench/upgrade-lookups.ts's open loop): p50/p99 before the
 * training and during each run.
 */

const print = (line = '') => process.stdout.write(`${line}\n`);

interface Options {
  shipments: number;
  lanes: number;
  privateMariadb: { bufferPoolGiB: number; directory: string | undefined } | undefined;
  keep: boolean;
  lookupRate: number;
  lookupConnections: number;
  baselineSeconds: number;
  incrementPercent: number;
  /** Stop the run from scratch after this many seconds (SIGTERM); undefined: run it to the end. */
  trainBudgetSeconds: number | undefined;
  /** Or at this time (epoch ms), whichever comes first. */
  trainUntil: number | undefined;
}

function parse(argv: string[]): Options {
  const known = [
    '--eta-cost',
    ...['--shipments', '--seed-lanes', '--private-mariadb', '--buffer-pool', '--private-mariadb-dir', '--keep'],
    ...['--lookup-rate', '--lookup-connections', '--baseline-seconds', '--increment', '--train-budget', '--train-until'],
  ];
  for (const a of argv)
    if (a.startsWith('--') && !known.includes(a)) throw new Error(`--eta-cost: unknown flag ${a}; known: ${known.join(' ')}`);
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
  return {
    shipments: int('--shipments', 20_000),
    lanes: Math.max(1, int('--seed-lanes', 2)),
    privateMariadb: argv.includes('--private-mariadb')
      ? { bufferPoolGiB: int('--buffer-pool', 8), directory: value('--private-mariadb-dir') }
      : undefined,
    keep: argv.includes('--keep'),
    lookupRate: int('--lookup-rate', 200),
    lookupConnections: int('--lookup-connections', 8),
    baselineSeconds: int('--baseline-seconds', 20),
    incrementPercent: Math.max(1, int('--increment', 1)),
    trainBudgetSeconds: value('--train-budget') === undefined ? undefined : int('--train-budget', 0),
    trainUntil: until(value('--train-until')),
  };
}

function until(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const at = Date.parse(raw);
  if (!Number.isFinite(at)) throw new Error(`--train-until takes a time (ISO 8601, e.g. 2026-12-02T15:10:00Z), got ${raw}`);
  return at;
}

interface TrainRun {
  label: string;
  /** Stopped at --train-budget: the figures are up to its last commit (`learned` is then the model's voyages). */
  stopped: boolean;
  /** What the CLI printed (--json). */
  learned: number;
  voyages: number;
  lanes: number;
  version: number | null;
  elapsedMs: number;
  /** Wall time of the process, start to exit (node's start, migrations check, training, exit). */
  processSeconds: number;
  eventsRead: number;
  changesRead: number;
  maxRssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  cpuSeconds: number;
  modelBytes: number;
  modelJsonBytes: number;
  lookups: WindowSummary;
}

export async function runEtaCost(argv: string[]): Promise<void> {
  const options = parse(argv);
  const started = performance.now();
  const { server, serverUrl, name } = await openBenchServer(options.privateMariadb, 'tt_eta_cost');
  print(
    `ETA training's cost: ${thousands(options.shipments)} shipments at the current schema, then +${options.incrementPercent} % events; ` +
      `lookups ${options.lookupRate}/s on ${options.lookupConnections} connections`,
  );
  try {
    const seed = await seedCopies(
      { serverUrl, name, shipments: options.shipments, templates: 0, lanes: options.lanes, print },
      CURRENT_SCHEMA_SEED,
    );
    try {
      print(
        `seed: ${thousands(seed.shipments)} shipments, ${thousands(seed.events)} events in ${fixed(seed.seconds / 60, 1)} min ` +
          `(${thousands(seed.events / seed.seconds)} events/s)`,
      );
      print(`settled (dirty pages at most 5 % of the pool) in ${fixed(await settle(serverUrl, 600, server !== null), 0)} s`);
      print(await tableSizes(serverUrl, name));
      const runs = await measure(seed, options);
      print();
      print(
        `ETA training at ${thousands(seed.shipments)} shipments (${thousands(seed.events)} events)${server ? ', private MariaDB' : ''}:`,
      );
      print(runTable(runs));
    } finally {
      await seed.cleanUp();
    }
  } finally {
    if (!options.keep) {
      const admin = await createConnection(serverUrl);
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.query(`DROP DATABASE IF EXISTS \`${name}_tpl\``);
      await admin.end();
    }
    await server?.stop(options.keep);
  }
  print(`ETA cost bench done in ${fixed((performance.now() - started) / 60_000, 1)} min`);
}

type Seed = Awaited<ReturnType<typeof seedCopies>>;

async function measure(seed: Seed, options: Options): Promise<(TrainRun | BaselineRow)[]> {
  const keys = await sampleKeys(seed.url, 20_000);
  const database = connectDatabase(seed.url, { poolSize: options.lookupConnections });
  const loop = new LookupLoop(seed.url, {
    shipments: seed.shipments,
    rate: options.lookupRate,
    connections: options.lookupConnections,
    lookup: async () => {
      const key = keys[Math.floor(Math.random() * keys.length)]!;
      const row = await findShipment(database.db, { carrierCode: key.carrierCode, carrierBookingReference: key.booking }, [key.account], {
        restRendering: true,
      });
      return row !== null;
    },
  });
  const rows: (TrainRun | BaselineRow)[] = [];
  try {
    loop.start();
    loop.window('before');
    await sleep(options.baselineSeconds * 1000);
    const baseline = summarize(loop.window('-'));
    rows.push({ label: '(no training: lookups alone)', lookups: baseline });
    print(`no training: ${lookupLine(baseline)}`);

    const budgets = [options.trainBudgetSeconds, options.trainUntil === undefined ? undefined : (options.trainUntil - Date.now()) / 1000];
    const given = budgets.filter((b): b is number => b !== undefined);
    const budget = given.length === 0 ? undefined : Math.max(60, Math.round(Math.min(...given)));
    const scratch = await train(seed.url, 'from scratch', true, loop, budget);
    rows.push(scratch);
    if (scratch.stopped) {
      // The rest of the history is skipped: the lease freed and the cursor moved to its end, the (bounded) model
      // as the stopped run committed it; the incremental run then reads only the events added below.
      const end = await skipToEnd(seed.url);
      print(`the cursor moved by the bench to the end of the history (${end}), the lease freed`);
    }
    // The background training's usual case: a little more history since the last run.
    const copies = Math.max(1, Math.round((seed.copies * options.incrementPercent) / 100));
    const added = await seed.addCopies(copies);
    print(
      `added ${copies} cop${copies === 1 ? 'y' : 'ies'} of the templates: ${thousands(added.shipments)} shipments, ` +
        `${thousands(added.events)} events (${fixed((100 * added.events) / seed.events, 2)} % more) in ${fixed(added.seconds, 1)} s`,
    );
    await sleep(Math.min(10, options.baselineSeconds) * 1000);
    loop.window('-');
    rows.push(await train(seed.url, `incremental (+${fixed((100 * added.events) / seed.events, 2)} % events)`, false, loop));
    await sleep(options.baselineSeconds * 1000);
    const after = summarize(loop.window('-'));
    rows.push({ label: '(no training: lookups alone, after)', lookups: after });
    print(`no training, after: ${lookupLine(after)}`);
    return rows;
  } finally {
    await loop.stop();
    await database.close();
  }
}

interface BaselineRow {
  label: string;
  lookups: WindowSummary;
}

/** Random shipments' keys and an account that may see each, read once before measuring. */
async function sampleKeys(url: string, count: number): Promise<{ carrierCode: string; booking: string; account: string }[]> {
  const conn = await createConnection(url);
  try {
    const [top] = await conn.query('select max(id) as v from shipment');
    const max = Number((top as { v: number }[])[0]?.v ?? 0);
    const ids = Array.from({ length: count }, () => 1 + Math.floor(Math.random() * max));
    const keys: { carrierCode: string; booking: string; account: string }[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      const [rows] = await conn.query(
        'select s.carrier_code as c, s.carrier_booking_reference as b, min(a.account_id) as a from shipment s ' +
          'join shipment_account a on a.shipment_id = s.id where s.id in (?) group by s.id, s.carrier_code, s.carrier_booking_reference',
        [ids.slice(i, i + 1000)],
      );
      for (const r of rows as { c: string; b: string; a: string }[]) keys.push({ carrierCode: r.c, booking: r.b, account: r.a });
    }
    if (keys.length === 0) throw new Error('no shipments to look up');
    return keys;
  } finally {
    await conn.end();
  }
}

async function train(url: string, label: string, fromScratch: boolean, loop: LookupLoop, budgetSeconds?: number): Promise<TrainRun> {
  const before = fromScratch ? { seq: 0, change: 0 } : await cursorOf(url);
  const dir = mkdtempSync(join(tmpdir(), 'tt-eta-cost-'));
  const probeFile = join(dir, 'probe.json');
  loop.window(label);
  const t0 = performance.now();
  const load = loadavg()[0] ?? 0;
  let stdout = '';
  // The cursor as each commit (every 30 s) moves it: the run's progress over time.
  const progress: { seconds: number; cursor: HistoryCursor }[] = [];
  let polling = true;
  const poll = (async () => {
    while (polling) {
      await sleep(1000);
      const cursor = await cursorOf(url);
      const last = progress.at(-1)?.cursor ?? before;
      if (cursor.seq !== last.seq || cursor.change !== last.change) progress.push({ seconds: (performance.now() - t0) / 1000, cursor });
    }
  })();
  let stopped = false;
  try {
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          join(BENCH_DIST, 'bench', 'eta-cost-probe.js'),
          CLI,
          'eta',
          'train',
          ...(fromScratch ? ['--from-scratch'] : []),
          '--json',
        ],
        { env: { ...process.env, DATABASE_URL: url, ETA_COST_PROBE_FILE: probeFile }, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('error', reject);
      const timer =
        budgetSeconds === undefined
          ? undefined
          : setTimeout(() => {
              stopped = true;
              child.kill('SIGTERM');
            }, budgetSeconds * 1000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c ?? 1);
      });
    });
    const processSeconds = (performance.now() - t0) / 1000;
    const lookups = summarize(loop.window('-'));
    polling = false;
    await poll;
    if (code !== 0 && !stopped) throw new Error(`tracking eta train exited ${code}: ${stdout}`);
    const result = stopped
      ? await stoppedResult(url, progress)
      : (JSON.parse(stdout.trim().split('\n').at(-1)!) as {
          kind: string;
          learned: number;
          voyages: number;
          lanes: number;
          version: number | null;
          elapsedMs: number;
        });
    if (result.kind !== 'trained') throw new Error(`tracking eta train: ${stdout}`);
    if (progress.length > 1) {
      print(`  progress (${label}): ` + progress.map((p) => `${fixed(p.seconds, 0)} s seq ${thousands(p.cursor.seq)}`).join(', '));
    }
    const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as {
      maxRssMiB: number;
      heapUsedMiB: number;
      heapTotalMiB: number;
      userSeconds: number;
      systemSeconds: number;
    };
    const after = await cursorOf(url);
    const read = await between(url, before, after);
    const model = await modelSize(url);
    const run: TrainRun = {
      label: stopped ? `${label} (stopped at ${budgetSeconds} s: up to its last commit)` : label,
      stopped,
      ...result,
      processSeconds,
      eventsRead: read.events,
      changesRead: read.changes,
      maxRssMiB: probe.maxRssMiB,
      heapUsedMiB: probe.heapUsedMiB,
      heapTotalMiB: probe.heapTotalMiB,
      cpuSeconds: probe.userSeconds + probe.systemSeconds,
      modelBytes: model.bytes,
      modelJsonBytes: model.jsonBytes,
      lookups,
    };
    print(
      `train ${run.label}: learned from ${thousands(run.learned)} voyages; the model holds ${thousands(run.voyages)} voyages on ` +
        `${run.lanes} lanes (version ${run.version}); ${fixed(run.elapsedMs / 1000, 1)} s training (${fixed(processSeconds, 1)} s the process), ` +
        `${thousands(run.eventsRead)} events and ${thousands(run.changesRead)} change-log rows read, ` +
        `${thousands(run.eventsRead / (run.elapsedMs / 1000))} events/s; CPU ${fixed(run.cpuSeconds, 1)} s; ` +
        `peak RSS ${fixed(run.maxRssMiB, 0)} MiB, heap used ${fixed(run.heapUsedMiB, 0)} MiB (total ${fixed(run.heapTotalMiB, 0)} MiB); ` +
        `model ${thousands(run.modelBytes)} bytes stored (${thousands(run.modelJsonBytes)} bytes of JSON); ` +
        `${lookupLine(lookups)}; load average at start ${fixed(load, 1)}`,
    );
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A run stopped at its budget: what its last commit holds, at the time the bench saw that commit. */
async function stoppedResult(url: string, progress: { seconds: number; cursor: HistoryCursor }[]) {
  const last = progress.at(-1);
  if (!last) throw new Error('the training committed nothing before its budget: give it more (--train-budget)');
  const conn = await createConnection(url);
  try {
    const [rows] = await conn.query('select version, voyages, lanes from eta_model order by version desc limit 1');
    const row = (rows as { version: number; voyages: number; lanes: number }[])[0]!;
    return {
      kind: 'trained',
      learned: Number(row.voyages),
      voyages: Number(row.voyages),
      lanes: Number(row.lanes),
      version: Number(row.version),
      elapsedMs: last.seconds * 1000,
    };
  } finally {
    await conn.end();
  }
}

/** Frees the training lease and moves its cursor to the end of the history (a run stopped at its budget). */
async function skipToEnd(url: string): Promise<string> {
  const conn = await createConnection(url);
  try {
    const [rows] = await conn.query(
      'select (select coalesce(max(seq), 0) from event) as s, (select coalesce(max(commit_seq), 0) from change_log) as c',
    );
    const { s, c } = (rows as { s: number; c: number }[])[0]!;
    const cursor = `s${Number(s)}:c${Number(c)}`;
    await conn.query(
      "update eta_training set lease_owner = null, lease_until = '1970-01-01T00:00:00.000Z', history_cursor = ? where id = 1",
      [cursor],
    );
    return cursor;
  } finally {
    await conn.end();
  }
}

async function cursorOf(url: string): Promise<HistoryCursor> {
  const conn = await createConnection(url);
  try {
    const [rows] = await conn.query('select history_cursor as c from eta_training where id = 1');
    return parseHistoryCursor((rows as { c: string | null }[])[0]?.c ?? null);
  } finally {
    await conn.end();
  }
}

/** The stored events and change-log rows between two training cursors: what the run read. */
async function between(url: string, from: HistoryCursor, to: HistoryCursor): Promise<{ events: number; changes: number }> {
  const conn = await createConnection(url);
  try {
    const count = async (text: string, params: number[]) => Number(((await conn.query(text, params))[0] as { n: number }[])[0]?.n ?? 0);
    return {
      events: await count('select count(*) as n from event where seq > ? and seq <= ?', [from.seq, to.seq]),
      changes: await count('select count(*) as n from change_log where commit_seq > ? and commit_seq <= ?', [from.change, to.change]),
    };
  } finally {
    await conn.end();
  }
}

/** The newest model's stored size (compressed, model_z) and its JSON's. */
async function modelSize(url: string): Promise<{ bytes: number; jsonBytes: number }> {
  const conn = await createConnection(url);
  try {
    const [rows] = await conn.query('select model_z as z from eta_model order by version desc limit 1');
    const z = (rows as { z: Buffer }[])[0]?.z;
    if (!z) return { bytes: 0, jsonBytes: 0 };
    return { bytes: z.byteLength, jsonBytes: Buffer.byteLength(decompressText(z)) };
  } finally {
    await conn.end();
  }
}

function lookupLine(l: WindowSummary): string {
  return (
    `lookups ${l.lookups}, p50 ${fixed(l.p50, 1)} ms, p99 ${fixed(l.p99, 1)} ms, max ${fixed(l.max, 0)} ms, errors ${l.errors}` +
    `${l.firstError ? ` (${l.firstError})` : ''}${l.notFound ? `, not found ${l.notFound}` : ''}${l.skipped ? `, skipped ${l.skipped}` : ''}`
  );
}

function runTable(rows: (TrainRun | BaselineRow)[]): string {
  return table(
    [
      'run',
      'events read',
      'voyages learned',
      'lanes',
      'wall',
      'events/s',
      'CPU',
      'peak RSS',
      'peak heap',
      'model',
      'lookup p50',
      'p99',
      'max',
    ],
    rows.map((r) => {
      const l = r.lookups;
      const tail = [fixed(l.p50, 1), fixed(l.p99, 1), fixed(l.max, 0)];
      if (!('eventsRead' in r)) return [r.label, '', '', '', '', '', '', '', '', '', ...tail];
      return [
        r.label,
        thousands(r.eventsRead),
        thousands(r.learned),
        r.lanes,
        `${fixed(r.elapsedMs / 1000, 1)} s`,
        thousands(r.eventsRead / (r.elapsedMs / 1000)),
        `${fixed(r.cpuSeconds, 1)} s`,
        `${fixed(r.maxRssMiB, 0)} MiB`,
        `${fixed(r.heapUsedMiB, 0)} MiB`,
        `${fixed(r.modelBytes / 1024, 1)} KiB`,
        ...tail,
      ];
    }),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
