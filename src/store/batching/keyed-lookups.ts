import { CompiledQuery, MysqlAdapter } from 'kysely';
import type { Db } from '../../db/connect.js';

/**
 * Reads by key (a bill of lading, a booking, a shipment id) that many requests make at once, sent to
 * MySQL/MariaDB as one statement per turn of the event loop: `... where <key> in (?, ?, ...)` with the keys of
 * every request of the turn that reads the same columns under the same other parameters (the caller's accounts).
 *
 * Why not one UNION ALL branch per request (batched-lookups.ts, which the container lookup still uses): the
 * server parses, plans and runs every branch as a statement of its own. Measured on MariaDB 10.11 with 20
 * lookups a statement (the shipment lookup with its tenant filter), the server spent about 45 µs of CPU per
 * lookup as branches and 9.5 µs as one `IN` list; on this 2-core machine the database's CPU is taken from the
 * service's (docs/architecture.md, Data flows: a lookup). The tenant filter stays in the statement: the keys of
 * one account set form one list, and the lists of several account sets (clients) in one turn are parts of one
 * UNION ALL, each part with its own filter (runParts).
 *
 * The rule of a key several rows share (two shipments of one bill of lading, docs/lookups-and-polling.md,
 * Identity) is the caller's `prefer`, applied to every row of that key, so it holds alike whether the key was
 * read alone (SQLite, a transaction, a quiet service) or with others.
 */
export interface KeyedStatement<R> {
  /** Names the statement's shape (columns, filters): with the bound values, what lets two reads share a statement. */
  readonly name: string;
  /** The statement reading the rows of `keys` (distinct, 1 to MAX_KEYS of them) on `db`, `bound` its other values. */
  compile(db: Db, keys: readonly KeyValue[], bound: readonly unknown[]): CompiledQuery;
  /** The key a returned row answers, as KeyValue.text names it. */
  keyOf(row: Record<string, unknown>): string;
  /** The row handed back without the columns only the batch needed (the key columns), or as it is. */
  strip(row: Record<string, unknown>): R;
  /** Of two rows of one key, whether `a` is the one a read gets; absent: the first one returned. A total order. */
  prefer?(a: R, b: R): boolean;
}

/** One key: its values in the statement's order (one per key column) and their text, unique per key (never two keys one text). */
export interface KeyValue {
  values: readonly unknown[];
  text: string;
}

/** Keys per statement: bounded text and parameters; more in one turn are sent as several statements at once. */
export const MAX_KEYS = 100;

interface Waiter {
  resolve: (row: unknown) => void;
  reject: (err: unknown) => void;
}

type Keys = Map<string, { key: KeyValue; waiters: Waiter[] }>;

/** One statement's reads of this turn: its keys by bound values (one group per account set). */
interface Round {
  statement: KeyedStatement<unknown>;
  groups: Map<string, { bound: readonly unknown[]; keys: Keys }>;
}

/** One key list of a batch: a group's keys (at most MAX_KEYS), each with the reads waiting for it. */
interface Part {
  bound: readonly unknown[];
  entries: { key: KeyValue; waiters: Waiter[] }[];
}

/** Key lists per statement: several groups (account sets) in one turn go to the server as UNION ALL parts. */
const MAX_PARTS = 50;

/** This turn's reads by database and statement name. */
const rounds = new WeakMap<Db, Map<string, Round>>();

/**
 * The row of `key` that `statement` reads under `bound`, or null: read with every other key of this turn that
 * shares the statement and bound values on MySQL/MariaDB, alone on SQLite and in a transaction.
 */
export function rowByKeyBatched<R>(db: Db, statement: KeyedStatement<R>, key: KeyValue, bound: readonly unknown[]): Promise<R | null> {
  if (db.isTransaction || !(db.getExecutor().adapter instanceof MysqlAdapter)) return rowByKey(db, statement, key, bound);
  let byName = rounds.get(db);
  if (!byName) rounds.set(db, (byName = new Map()));
  let round = byName.get(statement.name);
  if (!round) {
    const current: Round = { statement: statement as KeyedStatement<unknown>, groups: new Map() };
    round = current;
    const statements = byName;
    statements.set(statement.name, current);
    // After the current round of I/O callbacks (and their microtasks): every read they started is queued by then.
    setImmediate(() => {
      statements.delete(statement.name);
      const parts = partsOf(current);
      for (let at = 0; at < parts.length; at += MAX_PARTS) void runParts(db, current.statement, parts.slice(at, at + MAX_PARTS));
    });
  }
  // JSON, not a separator: two different account lists must never name one group (the group's filter is theirs).
  const groupName = JSON.stringify(bound);
  let group = round.groups.get(groupName);
  if (!group) round.groups.set(groupName, (group = { bound, keys: new Map() }));
  let entry = group.keys.get(key.text);
  if (!entry) group.keys.set(key.text, (entry = { key, waiters: [] }));
  const waiters = entry.waiters;
  return new Promise<R | null>((resolve, reject) => waiters.push({ resolve: resolve as (row: unknown) => void, reject }));
}

/** The row of `key`, read alone (SQLite, a transaction). */
async function rowByKey<R>(db: Db, statement: KeyedStatement<R>, key: KeyValue, bound: readonly unknown[]): Promise<R | null> {
  const { rows } = await db.executeQuery<Record<string, unknown>>(statement.compile(db, [key], bound));
  return pickRows(statement, rows).get(key.text) ?? null;
}

/** The round's key lists: each group's keys, MAX_KEYS to a list. */
function partsOf(round: Round): Part[] {
  const parts: Part[] = [];
  for (const { bound, keys } of round.groups.values()) {
    const entries = [...keys.values()];
    for (let at = 0; at < entries.length; at += MAX_KEYS) parts.push({ bound, entries: entries.slice(at, at + MAX_KEYS) });
  }
  return parts;
}

/**
 * One statement for these key lists: the keyed statement itself for one, else their UNION ALL, each part tagged
 * with its place (the tenant filter stays in each part: a row answers only the part, so the accounts, it was
 * read for). Many clients polling at once thus still cost one round trip a turn, as one client's polls do.
 */
async function runParts(db: Db, statement: KeyedStatement<unknown>, parts: readonly Part[]): Promise<void> {
  try {
    const compiled = parts.map((part) =>
      statement.compile(
        db,
        part.entries.map((e) => e.key),
        part.bound,
      ),
    );
    const { rows } = await db.executeQuery<Record<string, unknown>>(
      compiled.length === 1
        ? (compiled[0] as CompiledQuery)
        : CompiledQuery.raw(
            compiled.map((q, i) => `(select ${i} as ${PART_INDEX}, ${q.sql.slice('select '.length)})`).join(' union all '),
            compiled.flatMap((q) => q.parameters),
          ),
    );
    // One part (one client this turn, the usual case): its rows as they are, without a copy of each.
    const byPart = compiled.length === 1 ? [rows] : parts.map(() => [] as Record<string, unknown>[]);
    if (compiled.length > 1) {
      for (const { [PART_INDEX]: index, ...row } of rows) byPart[Number(index)]?.push(row);
    }
    parts.forEach((part, i) => {
      const found = pickRows(statement, byPart[i] ?? []);
      for (const { key, waiters } of part.entries) {
        const row = found.get(key.text) ?? null;
        // Each waiter its own row object, as a statement of its own would have given it.
        waiters.forEach((w, n) => w.resolve(n === 0 || row === null ? row : { ...row }));
      }
    });
  } catch (err) {
    // The statement failed for all of them alike (an outage, a timeout): each read fails as it would have alone.
    for (const part of parts) for (const { waiters } of part.entries) for (const w of waiters) w.reject(err);
  }
}

/** The column naming a row's part; no keyed statement selects a column of this name. */
const PART_INDEX = 'tt_part_index';

/** Each key's row among `rows`, by the statement's preference. */
function pickRows<R>(statement: KeyedStatement<R>, rows: readonly Record<string, unknown>[]): Map<string, R> {
  const found = new Map<string, R>();
  for (const raw of rows) {
    const key = statement.keyOf(raw);
    const row = statement.strip(raw);
    const held = found.get(key);
    if (held === undefined || (statement.prefer?.(row, held) ?? false)) found.set(key, row);
  }
  return found;
}
