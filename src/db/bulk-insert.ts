import { CompiledQuery, type Insertable, type Kysely, type QueryResult } from 'kysely';
import type { SqlDialect } from './dialect.js';
import type { DatabaseSchema } from './schema.js';

/**
 * Multi-row INSERT ... VALUES for ingest's large batches (thousands of rows
 * per bundle), without Kysely's query builder: its builder and compiler
 * turned every value of every row into operation nodes and visited them all
 * again, about a second of JS for 100,000 events, to produce SQL text that
 * is the same for every batch of the same size. The text is built once per
 * shape (table, columns, row count, dialect) and the rows are bound to it;
 * SQLite's prepared statement cache (connect.ts) and MySQL's prepared
 * INSERTs then see the very same text each batch.
 */

type Table = keyof DatabaseSchema & string;
type Column<T extends Table> = keyof Insertable<DatabaseSchema[T]> & string;

export interface BulkInsertOptions<T extends Table> {
  /** Columns returned per inserted row (SQLite only: MySQL/MariaDB has no RETURNING; see insertReturns). */
  returning?: readonly (keyof DatabaseSchema[T] & string)[];
}

/** Texts kept, by shape: the full batches of each table and the last, shorter one of recent bundles. */
const TEXTS_KEPT = 64;
const texts = new Map<string, string>();

function quote(dialect: SqlDialect, identifier: string): string {
  return dialect === 'mysql' ? `\`${identifier}\`` : `"${identifier}"`;
}

function insertText(dialect: SqlDialect, table: string, columns: readonly string[], rows: number, returning: readonly string[]): string {
  const key = `${dialect}\0${table}\0${columns.join(',')}\0${rows}\0${returning.join(',')}`;
  let text = texts.get(key);
  if (text === undefined) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    text =
      `insert into ${quote(dialect, table)} (${columns.map((c) => quote(dialect, c)).join(', ')}) values ${Array<string>(rows).fill(row).join(', ')}` +
      (returning.length > 0 ? ` returning ${returning.map((c) => quote(dialect, c)).join(', ')}` : '');
    texts.set(key, text);
    if (texts.size > TEXTS_KEPT) texts.delete(texts.keys().next().value as string);
  }
  return text;
}

/**
 * Inserts `rows` into `table` as one statement, binding each row's `columns` in order (a missing value binds
 * null). The caller chunks (rowsPerInsert). Returns what the driver returns: the RETURNING rows on SQLite,
 * MySQL's first generated id (insertId) and affected rows.
 */
export async function insertRows<T extends Table, R = Record<string, unknown>>(
  db: Kysely<DatabaseSchema>,
  dialect: SqlDialect,
  table: T,
  columns: readonly Column<T>[],
  rows: readonly Insertable<DatabaseSchema[T]>[],
  options: BulkInsertOptions<T> = {},
): Promise<QueryResult<R>> {
  const returning = options.returning ?? [];
  if (returning.length > 0 && dialect === 'mysql') throw new Error('MySQL/MariaDB has no RETURNING');
  if (rows.length === 0) return { rows: [] };
  const parameters: unknown[] = new Array(rows.length * columns.length);
  let i = 0;
  for (const row of rows) {
    const values = row as Record<string, unknown>;
    for (const column of columns) parameters[i++] = values[column] ?? null;
  }
  return db.executeQuery<R>(CompiledQuery.raw(insertText(dialect, table, columns, rows.length, returning), parameters));
}
