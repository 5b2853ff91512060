import { sql, type ColumnDataType, type Expression, type RawBuilder } from 'kysely';

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

/** Unique-constraint violation, for either driver. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return (
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    e?.code === 'ER_DUP_ENTRY' ||
    e?.errno === 1062
  );
}

/** `json` literal list helper for `IN` clauses on either dialect. */
export function inList(values: readonly string[]): RawBuilder<unknown> {
  return sql`(${sql.join(values.map((v) => sql`${v}`))})`;
}
