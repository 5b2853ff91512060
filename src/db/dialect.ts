import {
  sql,
  type ColumnDataType,
  type CreateTableBuilder,
  type Expression,
  type InsertQueryBuilder,
  type Kysely,
  type RawBuilder,
} from 'kysely';

/**
 * The few places where SQLite and MySQL/MariaDB differ. Everything else in
 * the data layer is dialect-neutral Kysely.
 */
export type SqlDialect = 'sqlite' | 'mysql';

/** Column type for JSON documents stored as text (MariaDB's JSON is LONGTEXT anyway). */
export function jsonColumn(dialect: SqlDialect): ColumnDataType | Expression<unknown> {
  return dialect === 'mysql' ? sql`mediumtext` : 'text';
}

/** Indexed string columns need a bounded length on MySQL. */
export function keyColumn(length: number): ColumnDataType {
  return `varchar(${length})`;
}

/**
 * The MySQL/MariaDB collation under which text compares byte for byte (docs/architecture.md,
 * Identity), including trailing spaces: MariaDB's utf8mb4_nopad_bin, MySQL
 * 8's utf8mb4_0900_bin. utf8mb4_bin, the fallback, is binary but pads (`'a'` =
 * `'a '`); the edges refuse identifiers with surrounding whitespace, so that
 * difference never reaches a comparison.
 */
export async function exactCollation(db: Kysely<any>): Promise<string> {
  const preferred = ['utf8mb4_nopad_bin', 'utf8mb4_0900_bin'];
  const { rows } = await sql<{ name: string }>`
    select collation_name as name from information_schema.collations where collation_name in (${sql.join(preferred)})`.execute(db);
  const available = new Set(rows.map((r) => r.name));
  return preferred.find((c) => available.has(c)) ?? 'utf8mb4_bin';
}

/**
 * What a migration wraps each new table in so that its identifiers compare
 * exactly on MySQL/MariaDB whatever the server's default (docs/architecture.md, Identity):
 * the exact collation, set explicitly. SQLite compares exactly already.
 */
export async function exactTables(
  db: Kysely<any>,
  dialect: SqlDialect,
): Promise<<T extends string>(table: CreateTableBuilder<T, never>) => CreateTableBuilder<T, never>> {
  const collation = dialect === 'mysql' ? await exactCollation(db) : null;
  return (table) => (collation ? table.modifyEnd(sql`character set utf8mb4 collate ${sql.raw(collation)}`) : table);
}

/** Unique-constraint violation, for either driver. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return (
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === 'ER_DUP_ENTRY' || e?.errno === 1062
  );
}

/** `json` literal list helper for `IN` clauses on either dialect. */
export function inList(values: readonly string[]): RawBuilder<unknown> {
  return sql`(${sql.join(values.map((v) => sql`${v}`))})`;
}

/**
 * Makes an insert skip rows that would duplicate a primary or unique key:
 * `ON CONFLICT DO NOTHING` on SQLite, `INSERT IGNORE` on MySQL/MariaDB.
 * @NOTE MySQL has no ON CONFLICT, and IGNORE also downgrades other errors
 * (truncation, out-of-range values) to warnings: use it only for rows whose
 * values are validated before.
 */
export function skipDuplicateKeys<DB, TB extends keyof DB, O>(
  dialect: SqlDialect,
  query: InsertQueryBuilder<DB, TB, O>,
): InsertQueryBuilder<DB, TB, O> {
  return dialect === 'mysql' ? query.ignore() : query.onConflict((oc) => oc.doNothing());
}

/** MySQL allows at most 65,535 placeholders in one statement. */
const MAX_PLACEHOLDERS = 65_535;

/** Rows per multi-row INSERT of `columns` columns: `preferred` (default 500), fewer when the placeholder limit requires. */
export function rowsPerInsert(columns: number, preferred = 500): number {
  return Math.max(1, Math.min(preferred, Math.floor(MAX_PLACEHOLDERS / columns)));
}

/**
 * Locks the selected rows until the transaction ends: `FOR UPDATE` on MySQL/MariaDB; SQLite has one writer,
 * whose transaction already excludes every other, so the query runs as it is.
 */
export function lockForUpdate<Q extends { forUpdate(): Q }>(dialect: SqlDialect, query: Q): Q {
  return dialect === 'mysql' ? query.forUpdate() : query;
}

/**
 * A join that keeps the written order of its tables: STRAIGHT_JOIN on MySQL/MariaDB, CROSS JOIN on SQLite (whose
 * planner never reorders around a CROSS JOIN).
 */
export function orderedJoin(dialect: SqlDialect): RawBuilder<unknown> {
  return sql.raw(dialect === 'mysql' ? 'straight_join' : 'cross join');
}

/** Whether an INSERT can return its generated keys (RETURNING): SQLite yes; MySQL has no RETURNING. */
export function insertReturns(dialect: SqlDialect): boolean {
  return dialect === 'sqlite';
}

/**
 * An insert that replaces `columns` of the row already stored under `key` (an upsert): ON DUPLICATE KEY UPDATE
 * on MySQL/MariaDB, ON CONFLICT (key) DO UPDATE on SQLite.
 */
export function upsert<DB, TB extends keyof DB, O>(
  dialect: SqlDialect,
  query: InsertQueryBuilder<DB, TB, O>,
  key: string,
  columns: readonly string[],
): InsertQueryBuilder<DB, TB, O> {
  if (dialect === 'mysql') {
    return query.onDuplicateKeyUpdate(Object.fromEntries(columns.map((c) => [c, sql`values(${sql.ref(c)})`])) as never);
  }
  return query.onConflict(
    (oc) =>
      (oc.column(key as never) as unknown as { doUpdateSet(set: unknown): typeof oc }).doUpdateSet(
        Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)])),
      ) as never,
  );
}

/**
 * The step between the ids one multi-row INSERT generates on MySQL/MariaDB when they are guaranteed consecutive,
 * else null. With innodb_autoinc_lock_mode 0 (traditional) or 1 (consecutive, MariaDB's default) an INSERT whose
 * row count is known in advance takes all its ids at once, so its rows get LAST_INSERT_ID(),
 * LAST_INSERT_ID() + step, ... in the order of its VALUES, whatever else inserts at the same time; the step is
 * the session's auto_increment_increment (Galera and multi-source setups raise it). Mode 2 (interleaved,
 * MySQL 8's default) gives no such guarantee: the caller reads the ids back instead.
 */
export function consecutiveIdStep(settings: { lockMode: number | string | null; increment: number | string | null }): number | null {
  const mode = Number(settings.lockMode);
  const step = Number(settings.increment);
  if (settings.lockMode === null || !(mode === 0 || mode === 1)) return null;
  return Number.isInteger(step) && step >= 1 ? step : null;
}

/** consecutiveIdStep of the connection `db` runs on (one round trip; the increment is a session variable). */
export async function insertIdStep(db: Kysely<any>, dialect: SqlDialect): Promise<number | null> {
  if (dialect !== 'mysql') return null;
  try {
    const { rows } = await sql<{
      lockMode: number | string | null;
      increment: number | string | null;
    }>`select @@innodb_autoinc_lock_mode as ${sql.id('lockMode')}, @@auto_increment_increment as ${sql.id('increment')}`.execute(db);
    return rows[0] ? consecutiveIdStep(rows[0]) : null;
  } catch {
    // A server without InnoDB's variable: no guarantee, the ids are read back.
    return null;
  }
}
