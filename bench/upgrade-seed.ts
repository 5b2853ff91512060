import { performance } from 'node:perf_hooks';
import { Migrator } from 'kysely';
import { createConnection, type Connection } from 'mysql2/promise';
import { connectDatabase, type Database } from '../src/db/connect.js';
import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
import { readUpgradeState } from '../src/store/housekeeping/upgrade-state.js';
import { migrations, PREVIOUS_RELEASE_MIGRATIONS } from '../db/migrations/index.js';
import { bundleIndexes, bundleOf } from './generate.js';
import { emptyTiming, ingestRaw } from './seed.js';

/**
 * Fast seeds by copies: template shipments through the real ingest path, multiplied in SQL. Two variants
 * (SeedVariant): PREVIOUS_RELEASE_SEED below, and the current schema's of the ETA training's cost
 * (bench/eta-cost-seed.ts, CURRENT_SCHEMA_SEED). seedCopies does the copying for either; the rest of this header
 * describes the first.
 *
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
 *
 * A template shipment's serial is the 9 digits that end its carrier booking reference and the character before
 * them (`B000000123` of generate.ts's `MAEU-B000000123`; `U490000123` of bench/eta/world.ts's `MAEU490000123`):
 * copy k replaces it in keys and JSON text by the same character and the digits plus k times the stride.
 * Compressed columns (the current schema's event payloads, snapshots and milestones) are copied as they are: their
 * keys and event IDs stay the template's.
 */

/** What a seed by copies starts from: the schema, the template shipments, what of the change log is copied. */
export interface SeedVariant {
  /** Creates `name` afresh at the variant's schema; returns its URL. */
  createDatabase(serverUrl: string, name: string): Promise<string>;
  /** Ingests `templates` template shipments (or the variant's own set) into the template database; says what. */
  ingestTemplates(database: Database, templates: number): Promise<string>;
  /** Change kinds left out of the copies (SQL list), or null for none. */
  skippedTriggers: string | null;
  /** Per-shipment tables besides COPIED (keyed on the shipment id), e.g. the current schema's aliases. */
  extraTables: readonly ExtraTable[];
}

/** A per-shipment table copied besides COPIED: its shipment id column (shifted), its key columns with serials. */
export interface ExtraTable {
  name: string;
  /** How its rows find their shipment in the template database (`x` the row, `s` the shipment). */
  join: string;
  /** The shipment id column (shifted by copy), if any. */
  shipmentId: string | null;
  /** Columns whose text holds the shipment's serial. */
  serials: readonly string[];
  /** The copy's order (columns of `t`). */
  order: string;
}

export interface UpgradeSeedOptions {
  /** mysql://root@host:port/ of the server (any database in the path is ignored). */
  serverUrl: string;
  /** The bench database's name; the template database is `${name}_tpl` (dropped when the seed is done). */
  name: string;
  shipments: number;
  /** Template shipments (the variant may ingest its own set: then it says how many it made). */
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

/** Change kinds 0.4.0 does not write; the current code also writes access changes (docs/upgrading.md), left out here. */
const PREVIOUS_TRIGGERS = `('GRANTED', 'REVOKED', 'SHIPMENT_MERGED')`;

/**
 * 0.4.0's schema, the current release's expand steps applied unfinished in the template database (so the service
 * writes only the plain forms 0.4.0 reads), generate.ts's forwarder shipments 0..templates-1.
 */
export const PREVIOUS_RELEASE_SEED: SeedVariant = {
  createDatabase: createPreviousReleaseDatabase,
  async ingestTemplates(tplDatabase, templates) {
    if (templates % 3 !== 0) throw new Error('--templates must be a multiple of 3 (each copy keeps its carrier)');
    await migrateToLatest(tplDatabase);
    const state = await readUpgradeState(tplDatabase.db);
    if (state.writesCompact) throw new Error('the template database writes compact forms: it should be unfinished');
    const timing = emptyTiming();
    for (const indexes of bundleIndexes(templates, 250, 0)) {
      await ingestRaw(tplDatabase, bundleOf(indexes, { profile: 'forwarder' }), timing);
    }
    return `${templates} template shipments ingested (plain forms)`;
  },
  skippedTriggers: PREVIOUS_TRIGGERS,
  extraTables: [],
};

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
  const seeded = await seedCopies(options, PREVIOUS_RELEASE_SEED);
  await seeded.cleanUp();
  return seeded;
}

/** A seed by copies, its template tables kept until cleanUp(): more copies can be added (addCopies). */
export interface CopiedSeed extends UpgradeSeed {
  /** Template shipments and their events (one copy). */
  templateShipments: number;
  templateEvents: number;
  /** Copies inserted so far. */
  copies: number;
  /** Inserts `count` more copies (after those there are); returns the shipments and events they added. */
  addCopies(count: number): Promise<{ shipments: number; events: number; seconds: number }>;
  /** Drops the template tables. */
  cleanUp(): Promise<void>;
}

export async function seedCopies(options: UpgradeSeedOptions, variant: SeedVariant): Promise<CopiedSeed> {
  const { serverUrl, name, shipments, print } = options;
  const started = performance.now();
  const url = await variant.createDatabase(serverUrl, name);
  const tplName = `${name}_tpl`;
  await variant.createDatabase(serverUrl, tplName);

  // 1. The templates, through the real ingest path.
  const tplDatabase = connectDatabase(databaseUrl(serverUrl, tplName), { poolSize: 4 });
  let made: string;
  try {
    made = await variant.ingestTemplates(tplDatabase, options.templates);
  } finally {
    await tplDatabase.close();
  }
  const templateSeconds = (performance.now() - started) / 1000;
  print(`seed: ${made} in ${templateSeconds.toFixed(1)} s`);

  const conn = await createConnection({ uri: url, multipleStatements: false });
  let plan: TemplatePlan;
  try {
    plan = await prepareTemplates(conn, tplName, variant);
    await conn.query(`DROP DATABASE \`${tplName}\``);
  } catch (err) {
    await conn.end();
    throw err;
  }
  // Whole copies: the seed holds copies * template shipments, rounded up from `shipments`. A copy's serials move
  // by the stride (a multiple of 3 at least as large as any template's index: each copy keeps its carrier).
  const stride = Math.ceil(Math.max(options.templates, plan.shipments) / 3) * 3;
  const statements = await copyStatements(conn, plan, stride, variant);
  let copies = 0;
  const insert = async (count: number, label: string) => {
    const from = copies;
    const to = copies + count;
    const lanes = Array.from({ length: Math.max(1, Math.min(options.lanes, count)) }, () => createConnection(url));
    const connections = await Promise.all(lanes);
    try {
      let next = from;
      let done = 0;
      const t0 = performance.now();
      let lastPrint = t0;
      await Promise.all(
        connections.map(async (lane) => {
          while (next < to) {
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
                `${label}: ${done}/${count} copies, ${(done * plan.shipments).toLocaleString('en-US')} shipments, ` +
                  `${Math.round(rate).toLocaleString('en-US')} events/s, ${((now - started) / 60_000).toFixed(1)} min`,
              );
            }
          }
        }),
      );
    } finally {
      await Promise.all(connections.map((c) => c.end()));
    }
    copies = to;
    // The change log's ordering bookkeeping covers the copied commit_seqs.
    await conn.query('UPDATE change_sequence SET last_seq = GREATEST(last_seq, (SELECT COALESCE(MAX(commit_seq), 0) FROM change_log))');
  };
  const count = Math.ceil(shipments / plan.shipments);
  let events: number;
  try {
    events = plan.events * count;
    print(
      `seed: templates ${plan.shipments} shipments, ${plan.events} events; ${count} copies of them ` +
        `(${(count * plan.shipments).toLocaleString('en-US')} shipments, ${events.toLocaleString('en-US')} events) by ${options.lanes} connections`,
    );
    await insert(count, 'seed');
  } catch (err) {
    await conn.end();
    throw err;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    url,
    shipments: count * plan.shipments,
    events,
    seconds,
    templateSeconds,
    templateShipments: plan.shipments,
    templateEvents: plan.events,
    get copies() {
      return copies;
    },
    async addCopies(more: number) {
      const t0 = performance.now();
      await insert(more, 'more copies');
      return { shipments: more * plan.shipments, events: more * plan.events, seconds: (performance.now() - t0) / 1000 };
    },
    async cleanUp() {
      try {
        const tables = ['tpl_copy', ...COPIED.map((t) => `tpl_${t}`), ...variant.extraTables.map((t) => `tpl_${t.name}`)];
        for (const table of tables) await conn.query(`DROP TABLE IF EXISTS \`${table}\``);
      } finally {
        await conn.end();
      }
    },
  };
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

/**
 * Copies the template rows (the bench database's columns) into tpl_* tables with the shipment's serial (`idx`
 * its number, `kp` the character before it) and row numbers.
 */
async function prepareTemplates(conn: Connection, tpl: string, variant: SeedVariant): Promise<TemplatePlan> {
  const columns: Record<string, string[]> = {};
  for (const table of [...COPIED, ...variant.extraTables.map((t) => t.name)]) {
    const [rows] = await conn.query(
      'SELECT column_name AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position',
      [table],
    );
    columns[table] = (rows as { c: string }[]).map((r) => r.c);
    if (columns[table].length === 0) throw new Error(`the schema has no table ${table}`);
  }
  const cols = (table: string, alias: string) => columns[table]!.map((c) => `${alias}.\`${c}\``).join(', ');
  const t = (table: string) => `\`${tpl}\`.\`${table}\``;
  const idx = 'CAST(RIGHT(s.carrier_booking_reference, 9) AS UNSIGNED)';
  const kp = 'SUBSTRING(s.carrier_booking_reference, CHAR_LENGTH(s.carrier_booking_reference) - 9, 1)';
  const serialOf = `${idx} AS idx, ${kp} AS kp`;
  const q = (text: string) => conn.query(text);

  await q(`CREATE TABLE tpl_shipment (PRIMARY KEY (id)) AS SELECT ${cols('shipment', 's')}, ${serialOf} FROM ${t('shipment')} s`);
  for (const table of ['shipment_account', 'shipment_container', 'shipment_statement', 'shipment_snapshot'] as const) {
    await q(
      `CREATE TABLE tpl_${table} AS SELECT ${cols(table, 'x')}, ${serialOf} FROM ${t(table)} x JOIN ${t('shipment')} s ON s.id = x.shipment_id ORDER BY x.shipment_id`,
    );
  }
  await q(
    `CREATE TABLE tpl_event (PRIMARY KEY (seq)) AS SELECT ${cols('event', 'e')}, ` +
      `(SELECT MIN(${idx}) FROM ${t('shipment_event')} se JOIN ${t('shipment')} s ON s.id = se.shipment_id WHERE se.event_seq = e.seq) AS idx, ` +
      `(SELECT MIN(${kp}) FROM ${t('shipment_event')} se JOIN ${t('shipment')} s ON s.id = se.shipment_id WHERE se.event_seq = e.seq) AS kp ` +
      `FROM ${t('event')} e`,
  );
  // The change log and the exceptions find their event by its ID.
  await q('ALTER TABLE tpl_event ADD INDEX (event_id)');
  await q(
    `CREATE TABLE tpl_shipment_event AS SELECT ${cols('shipment_event', 'x')} FROM ${t('shipment_event')} x ORDER BY x.shipment_id, x.event_seq`,
  );
  await q(
    `CREATE TABLE tpl_event_reference AS SELECT ${cols('event_reference', 'x')}, e.idx, e.kp FROM ${t('event_reference')} x ` +
      'JOIN tpl_event e ON e.seq = x.event_seq ORDER BY x.event_seq, x.kind, x.value',
  );
  await q(`CREATE TABLE tpl_unlinked_event AS SELECT ${cols('unlinked_event', 'x')} FROM ${t('unlinked_event')} x ORDER BY x.event_seq`);
  await q(
    `CREATE TABLE tpl_tracking_exception (PRIMARY KEY (exception_id)) AS SELECT ${cols('tracking_exception', 'x')}, ${serialOf}, ` +
      'ROW_NUMBER() OVER (ORDER BY x.exception_id) AS n, ' +
      '(SELECT e.seq FROM tpl_event e WHERE e.event_id = x.raised_by) AS raised_seq ' +
      `FROM ${t('tracking_exception')} x JOIN ${t('shipment')} s ON s.id = x.shipment_id`,
  );
  await q(
    `CREATE TABLE tpl_change_log (PRIMARY KEY (id)) AS SELECT ${cols('change_log', 'x')}, ${serialOf}, ` +
      '(SELECT e.seq FROM tpl_event e WHERE e.event_id = x.triggered_by_event) AS trig_seq, ' +
      '(SELECT te.n FROM tpl_tracking_exception te WHERE te.exception_id = x.exception_id) AS exc_n ' +
      `FROM ${t('change_log')} x JOIN ${t('shipment')} s ON s.id = x.shipment_id` +
      (variant.skippedTriggers === null ? '' : ` WHERE x.trigger_type NOT IN ${variant.skippedTriggers}`),
  );
  for (const extra of variant.extraTables) {
    await q(
      `CREATE TABLE tpl_${extra.name} AS SELECT ${cols(extra.name, 'x')}, ${serialOf} FROM ${t(extra.name)} x JOIN ${t('shipment')} s ON ${extra.join}`,
    );
  }
  // Tables the ingest wrote a few rows to once (not per shipment): as they are.
  const [others] = await conn.query(
    'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name NOT LIKE ? AND table_name NOT LIKE ?',
    ['tpl\\_%', 'kysely\\_%'],
  );
  for (const { t: table } of others as { t: string }[]) {
    if ((COPIED as readonly string[]).includes(table) || variant.extraTables.some((e) => e.name === table)) continue;
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

/** One INSERT ... SELECT per copied table, as a function of the copy k; serials move by k times `stride`. */
async function copyStatements(
  conn: Connection,
  plan: TemplatePlan,
  stride: number,
  variant: SeedVariant,
): Promise<((k: number) => string)[]> {
  const [rows] = await conn.query('SELECT COUNT(*) AS n FROM tpl_unlinked_event');
  const unlinked = Number((rows as { n: number }[])[0]?.n ?? 0);
  const S = plan.shipmentStride;
  const E = plan.eventStride;
  const C = plan.changeStride;
  const X = plan.exceptionStride;
  // The shipment's serial in keys and JSON: index i becomes i + k * stride (generate.ts's shipmentKey).
  const serial = (k: number, column: string) =>
    `IF(t.idx IS NULL OR ${column} IS NULL, ${column}, REPLACE(${column}, CONCAT(t.kp, LPAD(t.idx, 9, '0')), CONCAT(t.kp, LPAD(t.idx + ${k * stride}, 9, '0'))))`;
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
  for (const extra of variant.extraTables) {
    overrides[extra.name] = (k) => ({
      ...(extra.shipmentId ? { [extra.shipmentId]: `t.${extra.shipmentId} + ${k * S}` } : {}),
      ...Object.fromEntries(extra.serials.map((c) => [c, serial(k, `t.${c}`)])),
    });
  }
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
  for (const extra of variant.extraTables) order[extra.name] = extra.order;
  const tables: string[] = [
    ...COPIED.filter((table) => table !== 'unlinked_event' || unlinked > 0),
    ...variant.extraTables.map((e) => e.name),
  ];
  return tables.map((table) => {
    const columns = plan.columns[table]!;
    const list = columns.map((c) => `\`${c}\``).join(', ');
    return (k: number) => {
      const o = overrides[table]!(k);
      const select = columns.map((c) => o[c] ?? `t.\`${c}\``).join(', ');
      return `INSERT INTO \`${table}\` (${list}) SELECT ${select} FROM tpl_${table} t ORDER BY ${order[table]}`;
    };
  });
}
