import { MysqlAdapter, type CompiledQuery } from 'kysely';
import type { Db } from '../db/connect.js';

/**
 * Reads by key (a bill of lading, a booking, a shipment id) that many requests make at once, sent to
 * MySQL/MariaDB as one statement per turn of the event loop: `... where <key> in (?, ?, ...)` with the keys of
 * every request of the turn that reads the same columns under the same other parameters (the caller's accounts).
 *
 * Why not one UNION ALL branch per request (batched-lookups.ts, which the container lookup still uses): the
 * server parses, plans and runs every branch as a statement of its own. Measured on MariaDB 10.11 with 20
 * lookups a statement (the shipment lookup with its tenant filter), the server spent about 45 µs of CPU per
 * lookup as branches and 9.5 µs as one `IN` list; on this 2-core machine the database's CPU is taken from the
 * service's (docs/architecture.md, Data flows: a lookup). The tenant filter stays in the statement: requests of
 * different account sets never share one.
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

/** One key: its values in the statement's order (one per key column) and their text, unique per key. */
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

interface Round {
  statement: KeyedStatement<unknown>;
  bound: readonly unknown[];
  keys: Map<string, { key: KeyValue; waiters: Waiter[] }>;
}

/** This turn's reads by database and group (statement name and bound values). */
const rounds = new WeakMap<Db, Map<string, Round>>();

/**
 * The row of `key` that `statement` reads under `bound`, or null: read with every other key of this turn that
 * shares the statement and bound values on MySQL/MariaDB, alone on SQLite and in a transaction.
 */
export async function rowByKeyBatched<R>(
  db: Db,
  statement: KeyedStatement<R>,
  key: KeyValue,
  bound: readonly unknown[],
): Promise<R | null> {
  if (db.isTransaction || !(db.getExecutor().adapter instanceof MysqlAdapter)) {
    const { rows } = await db.executeQuery<Record<string, unknown>>(statement.compile(db, [key], bound));
    return pickRows(statement, rows).get(key.text) ?? null;
  }
  const group = `${statement.name}\u0000${bound.map(String).join('\u0000')}`;
  let groups = rounds.get(db);
  if (!groups) rounds.set(db, (groups = new Map()));
  let round = groups.get(group);
  if (!round) {
    const current: Round = { statement: statement as KeyedStatement<unknown>, bound, keys: new Map() };
    round = current;
    groups.set(group, current);
    // After the current round of I/O callbacks (and their microtasks): every read they started is queued by then.
    setImmediate(() => {
      groups.delete(group);
      const all = [...current.keys.values()];
      for (let at = 0; at < all.length; at += MAX_KEYS) void runRound(db, current, all.slice(at, at + MAX_KEYS));
    });
  }
  let entry = round.keys.get(key.text);
  if (!entry) round.keys.set(key.text, (entry = { key, waiters: [] }));
  const waiters = entry.waiters;
  return new Promise<R | null>((resolve, reject) => waiters.push({ resolve: resolve as (row: unknown) => void, reject }));
}

async function runRound(db: Db, round: Round, entries: readonly { key: KeyValue; waiters: Waiter[] }[]): Promise<void> {
  try {
    const { rows } = await db.executeQuery<Record<string, unknown>>(
      round.statement.compile(
        db,
        entries.map((e) => e.key),
        round.bound,
      ),
    );
    const found = pickRows(round.statement, rows);
    for (const { key, waiters } of entries) {
      const row = found.get(key.text) ?? null;
      // Each waiter its own row object, as a statement of its own would have given it.
      waiters.forEach((w, i) => w.resolve(i === 0 || row === null ? row : { ...row }));
    }
  } catch (err) {
    // The statement failed for all of them alike (an outage, a timeout): each read fails as it would have alone.
    for (const { waiters } of entries) for (const w of waiters) w.reject(err);
  }
}

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
