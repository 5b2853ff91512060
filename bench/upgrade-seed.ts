import { performance } from 'node:perf_hooks';
import { Migrator } from 'kysely';
import { createConnection, type Connection } from 'mysql2/promise';
import { connectDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
import { readUpgradeState } from '../src/store/housekeeping/upgrade-state.js';
import { migrations, PREVIOUS_RELEASE_MIGRATIONS } from '../db/migrations/index.js';
import { bundleIndexes, bundleOf } from './generate.js';
import { emptyTiming, ingestRaw } from './seed.js';

/**
 * The seed of the upgrade-steps bench (bench/upgrade-steps.ts): a MariaDB database at release 0.4.0's schema
 * (its migrations 001-014, recorded in kysely_migration as 0.4.0's Migrator records them) holding N forwarder
 * shipments in 0.4.0's row forms (plain JSON text columns), seeded fast:
 *
 * 1. `templates` shipments (default 3,000, about 60,000 events) go through the real ingest path (parseBundle,
 *    ingestBundle) into a template database that has 0.4.0's migrations and then this release's expand steps,
 *    unfinished, so the service writes only the plain forms 0.4.0 writes and reads (src/store/encoding/write-forms.ts).
 * 2. Their rows, 0.4.0's columns only, are copied into `tpl_*` tables of the bench database with what the
 *    multiplication needs (the shipment's index in the generator, row numbers).
 * 3. Copy k (0 <= k < N / templates) of every row goes in with one INSERT ... SELECT per table, in primary-key
 *    order: ids and event seqs shifted by k times the template's largest, the shipment's serial in its keys
 *    and JSON replaced (shipment index i becomes i + k * templates, so shipment 0..N-1 are exactly
 *    bench/generate.ts's keys), new event IDs and exception IDs (their last 12 hex digits), references to
 *    them rewritten to match. Row sizes and index shapes are the ingested ones; what repeats across copies is
 *    the container numbers and the time stamps (each value N / templates times).
 */

export interface UpgradeSeedOptions {
  /** mysql://root@host:port/ of the server (any database in the path is ignored). */
  serverUrl: string;
  /** The bench database's name; the template database is `${name}_tpl` (dropped when the seed is done). */
  name: string;
  shipments: number;
  templates: number;
  /** Connections inserting copies side by side. */
  lanes: number;
  print: (line: string) => void;
}

export interface UpgradeSeed {
  url: string;
  shipments: number;
  events: number;
  seconds: number;
  templateSeconds: number;
}

/** The tables that hold per-shipment rows, in the order copies are inserted. */
const COPIED = [
  'shipment',
  'shipment_account',
  'shipment_container',
  'shipment_statement',
  'event',
  'shipment_event',
  'event_reference',
  'unlinked_event',
  'tracking_exception',
  'shipment_snapshot',
  'change_log',
] as const;

/** Change kinds 0.4.0 writes; the current code also writes access changes (docs/upgrading.md), left out here. */
const PREVIOUS_TRIGGERS = `('GRANTED', 'REVOKED', 'SHIPMENT_MERGED')`;

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates `name` afresh at 0.4.0's schema (migrations 001-014 by Kysely's Migrator, in kysely_migration). */
export async function createPreviousReleaseDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = await createConnection(serverUrl);
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(serverUrl, name);
  const database = connectDatabase(url, { poolSize: 2 });
  try {
    const all = migrations('mysql');
    const previous = Object.fromEntries(PREVIOUS_RELEASE_MIGRATIONS.map((n) => [n, all[n]!]));
    const { error } = await new Migrator({ db: database.db, provider: { getMigrations: async () => previous } }).migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
  } finally {
    await database.close();
  }
  return url;
}

export async function seedPreviousRelease(options: UpgradeSeedOptions): Promise<UpgradeSeed> {
  const { serverUrl, name, shipments, templates, print } = options;
  if (templates % 3 !== 0) throw new Error('--templates must be a multiple of 3 (each copy keeps its carrier)');
  // Whole copies: the seed holds shipments 0..copies * templates - 1, rounded up from `shipments`.
  const copies = Math.ceil(shipments / templates);
  const seeded = copies * templates;
  const started = performance.now();
  const url = await createPreviousReleaseDatabase(serverUrl, name);
  const tplName = `${name}_tpl`;
  await createPreviousReleaseDatabase(serverUrl, tplName);

  // 1. The templates, through the real ingest path, in the plain forms (expand applied, not finished).
  const tplDatabase = connectDatabase(databaseUrl(serverUrl, tplName), { poolSize: 4 });
  try {
    await migrateToLatest(tplDatabase);
    const state = await readUpgradeState(tplDatabase.db);
    if (state.writesCompact) throw new Error('the template database writes compact forms: it should be unfinished');
    const timing = emptyTiming();
    for (const indexes of bundleIndexes(templates, 250, 0)) {
      await ingestRaw(tplDatabase, bundleOf(indexes, { profile: 'forwarder' }), timing);
    }
  } finally {
    await tplDatabase.close();
  }
  const templateSeconds = (performance.now() - started) / 1000;
  print(`upgrade seed: ${templates} template shipments ingested (plain forms) in ${templateSeconds.toFixed(1)} s`);

  const conn = await createConnection({ uri: url, multipleStatements: false });
  let events: number;
  try {
    const plan = await prepareTemplates(conn, tplName);
    events = plan.events * copies;
    await conn.query(`DROP DATABASE \`${tplName}\``);
    print(
      `upgrade seed: templates ${plan.shipments} shipments, ${plan.events} events; ${copies} copies of them ` +
        `(${seeded.toLocaleString('en-US')} shipments, ${events.toLocaleString('en-US')} events) by ${options.lanes} connections`,
    );
    const statements = await copyStatements(conn, plan, templates);
    const lanes = Array.from({ length: Math.max(1, options.lanes) }, () => createConnection(url));
    const connections = await Promise.all(lanes);
    try {
      let next = 0;
      let done = 0;
      const t0 = performance.now();
      let lastPrint = t0;
      await Promise.all(
        connections.map(async (lane) => {
          while (next < copies) {
            const k = next++;
            await lane.query('START TRANSACTION');
            for (const statement of statements) await lane.query(statement(k));
            await lane.query('COMMIT');
            done++;
            const now = performance.now();
            if (now - lastPrint > 30_000) {
              lastPrint = now;
              const rate = (done * plan.events) / ((now - t0) / 1000);
              print(
                `upgrade seed: ${done}/${copies} copies, ${(done * templates).toLocaleString('en-US')} shipments, ` +
                  `${Math.round(rate).toLocaleString('en-US')} events/s, ${((now - started) / 60_000).toFixed(1)} min`,
              );
            }
          }
        }),
      );
    } finally {
      await Promise.all(connections.map((c) => c.end()));
    }
    // The change log's ordering bookkeeping covers the copied commit_seqs.
    await conn.query('UPDATE change_sequence SET last_seq = GREATEST(last_seq, (SELECT COALESCE(MAX(commit_seq), 0) FROM change_log))');
    for (const table of ['tpl_copy', ...COPIED.map((t) => `tpl_${t}`)]) await conn.query(`DROP TABLE IF EXISTS \`${table}\``);
  } finally {
    await conn.end();
  }
  const seconds = (performance.now() - started) / 1000;
  return { url, shipments: seeded, events, seconds, templateSeconds };
}

interface TemplatePlan {
  shipments: number;
  events: number;
  /** The largest shipment id, event seq, change_log id of the templates; the number of exceptions. */
  shipmentStride: number;
  eventStride: number;
  changeStride: number;
  exceptionStride: number;
  /** 0.4.0's columns of each copied table. */
  columns: Record<string, string[]>;
}

/** Copies the template rows (0.4.0's columns) into tpl_* tables with the shipment index and row numbers. */
async function prepareTemplates(conn: Connection, tpl: string): Promise<TemplatePlan> {
  const columns: Record<string, string[]> = {};
  for (const table of COPIED) {
    const [rows] = await conn.query(
      'SELECT column_name AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position',
      [table],
    );
    columns[table] = (rows as { c: string }[]).map((r) => r.c);
    if (columns[table].length === 0) throw new Error(`0.4.0's schema has no table ${table}`);
  }
  const cols = (table: string, alias: string) => columns[table]!.map((c) => `${alias}.\`${c}\``).join(', ');
  const t = (table: string) => `\`${tpl}\`.\`${table}\``;
  const idx = 'CAST(RIGHT(s.carrier_booking_reference, 9) AS UNSIGNED)';
  const q = (text: string) => conn.query(text);

  await q(`CREATE TABLE tpl_shipment (PRIMARY KEY (id)) AS SELECT ${cols('shipment', 's')}, ${idx} AS idx FROM ${t('shipment')} s`);
  for (const table of ['shipment_account', 'shipment_container', 'shipment_statement', 'shipment_snapshot'] as const) {
    await q(
      `CREATE TABLE tpl_${table} AS SELECT ${cols(table, 'x')}, ${idx} AS idx FROM ${t(table)} x JOIN ${t('shipment')} s ON s.id = x.shipment_id ORDER BY x.shipment_id`,
    );
  }
  await q(
    `CREATE TABLE tpl_event (PRIMARY KEY (seq)) AS SELECT ${cols('event', 'e')}, ` +
      `(SELECT MIN(${idx}) FROM ${t('shipment_event')} se JOIN ${t('shipment')} s ON s.id = se.shipment_id WHERE se.event_seq = e.seq) AS idx ` +
      `FROM ${t('event')} e`,
  );
  await q(
    `CREATE TABLE tpl_shipment_event AS SELECT ${cols('shipment_event', 'x')} FROM ${t('shipment_event')} x ORDER BY x.shipment_id, x.event_seq`,
  );
  await q(
    `CREATE TABLE tpl_event_reference AS SELECT ${cols('event_reference', 'x')}, e.idx FROM ${t('event_reference')} x ` +
      'JOIN tpl_event e ON e.seq = x.event_seq ORDER BY x.event_seq, x.kind, x.value',
  );
  await q(`CREATE TABLE tpl_unlinked_event AS SELECT ${cols('unlinked_event', 'x')} FROM ${t('unlinked_event')} x ORDER BY x.event_seq`);
  await q(
    `CREATE TABLE tpl_tracking_exception (PRIMARY KEY (exception_id)) AS SELECT ${cols('tracking_exception', 'x')}, ${idx} AS idx, ` +
      'ROW_NUMBER() OVER (ORDER BY x.exception_id) AS n, ' +
      '(SELECT e.seq FROM tpl_event e WHERE e.event_id = x.raised_by) AS raised_seq ' +
      `FROM ${t('tracking_exception')} x JOIN ${t('shipment')} s ON s.id = x.shipment_id`,
  );
  await q(
    `CREATE TABLE tpl_change_log (PRIMARY KEY (id)) AS SELECT ${cols('change_log', 'x')}, ${idx} AS idx, ` +
      '(SELECT e.seq FROM tpl_event e WHERE e.event_id = x.triggered_by_event) AS trig_seq, ' +
      '(SELECT te.n FROM tpl_tracking_exception te WHERE te.exception_id = x.exception_id) AS exc_n ' +
      `FROM ${t('change_log')} x JOIN ${t('shipment')} s ON s.id = x.shipment_id WHERE x.trigger_type NOT IN ${PREVIOUS_TRIGGERS}`,
  );
  // Tables the ingest wrote a few rows to once (not per shipment): as they are.
  const [others] = await conn.query(
    'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name NOT LIKE ? AND table_name NOT LIKE ?',
    ['tpl\\_%', 'kysely\\_%'],
  );
  for (const { t: table } of others as { t: string }[]) {
    if ((COPIED as readonly string[]).includes(table)) continue;
    const [n] = await conn.query(`SELECT COUNT(*) AS n FROM ${t(table)}`);
    if (Number((n as { n: number }[])[0]?.n ?? 0) === 0) continue;
    const [c] = await conn.query(
      'SELECT column_name AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position',
      [table],
    );
    const list = (c as { c: string }[]).map((r) => `\`${r.c}\``).join(', ');
    await q(`DELETE FROM \`${table}\``);
    await q(`INSERT INTO \`${table}\` (${list}) SELECT ${list} FROM ${t(table)}`);
  }
  const one = async (text: string) => Number(((await conn.query(text))[0] as { v: number | string | null }[])[0]?.v ?? 0);
  return {
    shipments: await one('SELECT COUNT(*) AS v FROM tpl_shipment'),
    events: await one('SELECT COUNT(*) AS v FROM tpl_event'),
    shipmentStride: await one('SELECT MAX(id) AS v FROM tpl_shipment'),
    eventStride: await one('SELECT MAX(seq) AS v FROM tpl_event'),
    changeStride: Math.max(
      await one('SELECT MAX(id) AS v FROM tpl_change_log'),
      await one('SELECT MAX(commit_seq) AS v FROM tpl_change_log'),
    ),
    exceptionStride: await one('SELECT COUNT(*) AS v FROM tpl_tracking_exception'),
    columns,
  };
}

/** One INSERT ... SELECT per copied table, as a function of the copy k. */
async function copyStatements(conn: Connection, plan: TemplatePlan, templates: number): Promise<((k: number) => string)[]> {
  const [rows] = await conn.query('SELECT COUNT(*) AS n FROM tpl_unlinked_event');
  const unlinked = Number((rows as { n: number }[])[0]?.n ?? 0);
  const S = plan.shipmentStride;
  const E = plan.eventStride;
  const C = plan.changeStride;
  const X = plan.exceptionStride;
  // The shipment's serial in keys and JSON: index i becomes i + k * templates (generate.ts's shipmentKey).
  const serial = (k: number, column: string) =>
    `IF(t.idx IS NULL OR ${column} IS NULL, ${column}, REPLACE(${column}, CONCAT('B', LPAD(t.idx, 9, '0')), CONCAT('B', LPAD(t.idx + ${k * templates}, 9, '0'))))`;
  const eventId = (k: number, idColumn: string, seqColumn: string) =>
    `IF(${idColumn} IS NULL OR ${seqColumn} IS NULL, ${idColumn}, CONCAT(LEFT(${idColumn}, 24), LPAD(LOWER(HEX(${seqColumn} + ${k * E})), 12, '0')))`;
  const exceptionId = (k: number, idColumn: string, nColumn: string) =>
    `IF(${idColumn} IS NULL OR ${nColumn} IS NULL, ${idColumn}, CONCAT(LEFT(${idColumn}, 24), LPAD(LOWER(HEX(${nColumn} + ${k * X})), 12, '0')))`;
  const overrides: Record<string, (k: number) => Record<string, string>> = {
    shipment: (k) => ({
      id: `t.id + ${k * S}`,
      carrier_booking_reference: serial(k, 't.carrier_booking_reference'),
      booking_reference: serial(k, 't.booking_reference'),
      bill_of_lading_number: serial(k, 't.bill_of_lading_number'),
      master_json: serial(k, 't.master_json'),
      milestones_json: serial(k, 't.milestones_json'),
    }),
    shipment_account: (k) => ({ shipment_id: `t.shipment_id + ${k * S}` }),
    shipment_container: (k) => ({ shipment_id: `t.shipment_id + ${k * S}`, master_json: serial(k, 't.master_json') }),
    shipment_statement: (k) => ({ shipment_id: `t.shipment_id + ${k * S}` }),
    shipment_snapshot: (k) => ({
      shipment_id: `t.shipment_id + ${k * S}`,
      tracking_json: serial(k, 't.tracking_json'),
      exceptions_json: serial(k, 't.exceptions_json'),
    }),
    event: (k) => ({
      seq: `t.seq + ${k * E}`,
      event_id: eventId(k, 't.event_id', 't.seq'),
      payload_json: `REPLACE(${serial(k, 't.payload_json')}, t.event_id, ${eventId(k, 't.event_id', 't.seq')})`,
    }),
    shipment_event: (k) => ({ shipment_id: `t.shipment_id + ${k * S}`, event_seq: `t.event_seq + ${k * E}` }),
    event_reference: (k) => ({ event_seq: `t.event_seq + ${k * E}`, value: serial(k, 't.value') }),
    unlinked_event: (k) => ({ event_seq: `t.event_seq + ${k * E}` }),
    tracking_exception: (k) => ({
      exception_id: exceptionId(k, 't.exception_id', 't.n'),
      shipment_id: `t.shipment_id + ${k * S}`,
      body_json: `REPLACE(${serial(k, 't.body_json')}, t.exception_id, ${exceptionId(k, 't.exception_id', 't.n')})`,
      raised_by: eventId(k, 't.raised_by', 't.raised_seq'),
      condition_json: serial(k, 't.condition_json'),
    }),
    change_log: (k) => ({
      id: `t.id + ${k * C}`,
      shipment_id: `t.shipment_id + ${k * S}`,
      triggered_by_event: eventId(k, 't.triggered_by_event', 't.trig_seq'),
      exception_id: exceptionId(k, 't.exception_id', 't.exc_n'),
      commit_seq: `t.commit_seq + ${k * C}`,
    }),
  };
  const order: Record<string, string> = {
    shipment: 't.id',
    shipment_account: 't.shipment_id',
    shipment_container: 't.shipment_id',
    shipment_statement: 't.shipment_id',
    shipment_snapshot: 't.shipment_id',
    event: 't.seq',
    shipment_event: 't.shipment_id, t.event_seq',
    event_reference: 't.event_seq',
    unlinked_event: 't.event_seq',
    tracking_exception: 't.n',
    change_log: 't.id',
  };
  return COPIED.filter((table) => table !== 'unlinked_event' || unlinked > 0).map((table) => {
    const columns = plan.columns[table]!;
    const list = columns.map((c) => `\`${c}\``).join(', ');
    return (k: number) => {
      const o = overrides[table]!(k);
      const select = columns.map((c) => o[c] ?? `t.\`${c}\``).join(', ');
      return `INSERT INTO \`${table}\` (${list}) SELECT ${select} FROM tpl_${table} t ORDER BY ${order[table]}`;
    };
  });
}
