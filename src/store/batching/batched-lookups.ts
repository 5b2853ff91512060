import { CompiledQuery, MysqlAdapter } from 'kysely';
import type { Db } from '../../db/connect.js';

/**
 * One-row SELECTs of the same columns that many requests issue at once and
 * that no key list can join (the shipment lookup by container, whose ORDER BY
 * picks the shipment the container moved with last; reads by key use
 * keyed-lookups.ts, which costs the server a fifth of this per lookup), sent to
 * MySQL/MariaDB as one statement per turn of the event loop: the lookups
 * asked for while node handles one round of ready sockets are joined with
 * UNION ALL, each branch exactly the statement it would have run alone (same
 * tenant filter, same bound values), tagged with its place in the batch.
 *
 * Why: under load the server's cost of a lookup is mostly the round trip, not
 * the read. Each statement is a write to the server's socket, a wake-up of
 * one of its threads and a read back, on a machine whose cores the service,
 * the database and its clients share. A batch pays that once: the 304 poll
 * served 7,700-8,600 req/s batched against 5,400-5,700 one statement each
 * (bench/README.md). A lone lookup (a quiet service) waits for nothing but the
 * end of the current round and runs as the plain statement.
 *
 * SQLite runs in process, a statement costs microseconds and no round trip:
 * nothing is batched there, nor inside a transaction (its own connection).
 */

/** Branches per statement: bounded text and parameters; a larger round is sent as several statements at once. */
const MAX_BATCH = 50;

interface Pending {
  query: CompiledQuery;
  resolve: (row: unknown) => void;
  reject: (err: unknown) => void;
}

/** This turn's lookups by database and select list (the branches of a UNION select the same columns). */
const rounds = new WeakMap<Db, Map<string, Pending[]>>();

/**
 * The first row of `query` (a SELECT compiled by Kysely, at most one row
 * wanted), or null: batched with the other queries of this turn that select
 * the same columns on MySQL/MariaDB, run alone on SQLite and in a
 * transaction.
 */
export async function firstRowBatched<R>(db: Db, query: CompiledQuery): Promise<R | null> {
  const from = query.sql.indexOf(' from ');
  if (db.isTransaction || !(db.getExecutor().adapter instanceof MysqlAdapter) || !query.sql.startsWith('select ') || from < 0) {
    return firstRow<R>(db, query);
  }
  // Read off the statement, not named by the caller: only what can stand in one UNION is ever joined.
  const family = query.sql.slice(0, from);
  let families = rounds.get(db);
  if (!families) rounds.set(db, (families = new Map()));
  let round = families.get(family);
  if (!round) {
    const pending: Pending[] = [];
    round = pending;
    families.set(family, pending);
    // After the current round of I/O callbacks (and their microtasks): every lookup they started is queued by then.
    setImmediate(() => {
      families.delete(family);
      for (let at = 0; at < pending.length; at += MAX_BATCH) void runBatch(db, pending.slice(at, at + MAX_BATCH));
    });
  }
  const queue = round;
  return new Promise<R | null>((resolve, reject) => queue.push({ query, resolve: resolve as (row: unknown) => void, reject }));
}

async function firstRow<R>(db: Db, query: CompiledQuery): Promise<R | null> {
  const { rows } = await db.executeQuery<R>(query);
  return rows[0] ?? null;
}

async function runBatch(db: Db, batch: readonly Pending[]): Promise<void> {
  try {
    if (batch.length === 1) {
      batch[0]!.resolve(await firstRow(db, batch[0]!.query));
      return;
    }
    // `(select <i> as batch_index, ... limit 1) union all (...)`: each branch keeps its own ORDER BY and LIMIT.
    const sql = batch.map((p, i) => `(select ${i} as ${BATCH_INDEX}, ${p.query.sql.slice('select '.length)})`).join(' union all ');
    const { rows } = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(
        sql,
        batch.flatMap((p) => p.query.parameters),
      ),
    );
    const found = new Map<number, Record<string, unknown>>();
    for (const { [BATCH_INDEX]: index, ...row } of rows) {
      // One row per branch: a branch's LIMIT 1 holds; the first one wins should a branch ever return more.
      if (!found.has(Number(index))) found.set(Number(index), row);
    }
    batch.forEach((p, i) => p.resolve(found.get(i) ?? null));
  } catch (err) {
    // The statement failed for all of them alike (an outage, a timeout): each lookup fails as it would have alone.
    for (const p of batch) p.reject(err);
  }
}

/** The column naming a row's branch; no lookup selects a column of this name. */
const BATCH_INDEX = 'tt_batch_index';
