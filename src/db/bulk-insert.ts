import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import { insertIdStep, type SqlDialect } from './dialect.js';
import type { DatabaseSchema } from './schema.js';

/**
 * INSERTs of ingest's large batches (thousands of rows per bundle), without
 * Kysely's query builder: its builder and compiler turned every value of
 * every row into operation nodes and visited them all again, about a second
 * of JS for 100,000 events, to produce SQL text that is the same for every
 * batch. The text is built once per shape and the rows are bound to it:
 *
 * - MySQL/MariaDB: one multi-row INSERT ... VALUES per batch (a round trip
 *   per row would cost far more), sent as a prepared statement (connect.ts).
 * - SQLite: one single-row INSERT, prepared once and run for each row (the
 *   statement cache of connect.ts runs texts marked EACH_ROW so). In-process
 *   there is no round trip to save, and a 500-row VALUES statement with
 *   RETURNING took about 1.6 times as long per row as running the one-row
 *   statement (100,000 events: ~1.8 s against ~1.15 s); each row's id is
 *   SQLite's own lastInsertRowid, so no RETURNING is needed.
 */

type Table = keyof DatabaseSchema & string;
type Column<T extends Table> = keyof Insertable<DatabaseSchema[T]> & string;

/**
 * Marks a one-row INSERT whose parameters are a list of rows: SQLite's statement cache (connect.ts) runs it for
 * each row and answers one `{ rowid }` per row, in order. Internal to src/db.
 */
export const EACH_ROW = '/* each row */ ';

/** How the ids an insert generates become known: per row (SQLite), from the first id by a fixed step, or not at all. */
export type GeneratedIds = { kind: 'each-row' } | { kind: 'step'; step: number } | null;

/**
 * How this connection learns the ids of the rows insertRows inserts (null: the caller reads them back by a
 * unique key). MySQL/MariaDB: see consecutiveIdStep; one round trip, on the caller's connection.
 */
export async function generatedIds(db: Kysely<DatabaseSchema>, dialect: SqlDialect): Promise<GeneratedIds> {
  if (dialect === 'sqlite') return { kind: 'each-row' };
  const step = await insertIdStep(db, dialect);
  return step === null ? null : { kind: 'step', step };
}

/** Texts kept, by shape: the full batches of each table and the last, shorter one of recent bundles. */
const TEXTS_KEPT = 64;
const texts = new Map<string, string>();

function quote(dialect: SqlDialect, identifier: string): string {
  return dialect === 'mysql' ? `\`${identifier}\`` : `"${identifier}"`;
}

function insertText(dialect: SqlDialect, table: string, columns: readonly string[], rows: number): string {
  const key = `${dialect}\0${table}\0${columns.join(',')}\0${rows}`;
  let text = texts.get(key);
  if (text === undefined) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    text = `insert into ${quote(dialect, table)} (${columns.map((c) => quote(dialect, c)).join(', ')}) values ${Array<string>(rows).fill(row).join(', ')}`;
    texts.set(key, text);
    if (texts.size > TEXTS_KEPT) texts.delete(texts.keys().next().value as string);
  }
  return text;
}

/**
 * Inserts `rows` into `table`, binding each row's `columns` in order (a missing value binds null): one
 * statement on MySQL/MariaDB (the caller chunks: rowsPerInsert), one run per row on SQLite. With `ids` (from
 * generatedIds), returns the id generated for each row, in the order of `rows`; else, or when they cannot be
 * known, null. Run it inside a transaction: on SQLite a row that fails leaves the rows before it inserted.
 */
export async function insertRows<T extends Table>(
  db: Kysely<DatabaseSchema>,
  dialect: SqlDialect,
  table: T,
  columns: readonly Column<T>[],
  rows: readonly Insertable<DatabaseSchema[T]>[],
  ids: GeneratedIds = null,
): Promise<number[] | null> {
  if (rows.length === 0) return [];
  const valuesOf = (row: Insertable<DatabaseSchema[T]>) => columns.map((c) => (row as Record<string, unknown>)[c] ?? null);
  if (dialect === 'sqlite') {
    const text = EACH_ROW + insertText(dialect, table, columns, 1);
    const { rows: inserted } = await db.executeQuery<{ rowid: number }>(CompiledQuery.raw(text, rows.map(valuesOf)));
    return ids ? inserted.map((r) => r.rowid) : null;
  }
  const parameters = rows.flatMap(valuesOf);
  const result = await db.executeQuery(CompiledQuery.raw(insertText(dialect, table, columns, rows.length), parameters));
  // LAST_INSERT_ID() is the first row's id; the others follow by the step where the lock mode guarantees it.
  if (ids?.kind !== 'step' || result.insertId === undefined || Number(result.numAffectedRows) !== rows.length) return null;
  const first = Number(result.insertId);
  return rows.map((_, i) => first + i * ids.step);
}
