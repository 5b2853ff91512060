import { sql, type Compilable, type Kysely } from 'kysely';
import type { SqlDialect } from './dialect.js';

/**
 * DDL that does not stall the service (docs/upgrading.md, DDL that does not stall).
 *
 * On MariaDB and MySQL every ALTER and CREATE INDEX of a migration states how the server must run it: an
 * algorithm that cannot be had fails at once (error 1845/1846) instead of falling back to a table copy that blocks
 * writes for the whole copy. Adding a column at the end of a table is `ALGORITHM=INSTANT` (a change of the data
 * dictionary alone, MariaDB 10.3+ and MySQL 8.0.12+); building an index is `ALGORITHM=INPLACE, LOCK=NONE` (reads
 * and writes go on while it is built).
 *
 * Even an instant ALTER needs the table's metadata lock for a moment, and while it waits for a long transaction
 * to end, every later query on the table queues behind it. The migration session therefore waits at most
 * MIGRATION_LOCK_WAIT_SECONDS (set by src/store/housekeeping/migrate.ts on the connection that migrates), and a
 * statement that timed out (1205) is tried again after a pause, a few times, so the queries it held go on
 * in between. SQLite runs the statement as it is: its schema changes take the write lock like any write.
 */
export type OnlineAlgorithm = 'instant' | 'inplace';

/** How long the migration session waits for a metadata lock before its statement fails with 1205. */
export const MIGRATION_LOCK_WAIT_SECONDS = 5;
const ATTEMPTS = 6;
const PAUSE_MS = 2_000;

/** The statement's text with its algorithm clause on MySQL/MariaDB (exported for the phase test). */
export function onlineStatement(dialect: SqlDialect, statement: string, algorithm: OnlineAlgorithm): string {
  if (dialect !== 'mysql') return statement;
  const isIndex = /^\s*create\s+(unique\s+)?index\b/i.test(statement);
  if (algorithm === 'instant') {
    if (isIndex) throw new Error('an index is never built instantly: use inplace');
    return `${statement}, algorithm=instant`;
  }
  // CREATE INDEX takes its options after the column list, without commas; ALTER TABLE as further clauses.
  return isIndex ? `${statement} algorithm=inplace lock=none` : `${statement}, algorithm=inplace, lock=none`;
}

/**
 * Runs a schema builder's statement (db.schema.alterTable(...), createIndex(...)) with its algorithm on
 * MySQL/MariaDB, retrying a metadata-lock timeout. One ALTER clause per call: the algorithm covers the statement.
 */
export async function runOnline(db: Kysely<any>, dialect: SqlDialect, builder: Compilable, algorithm: OnlineAlgorithm): Promise<void> {
  const compiled = builder.compile();
  if (compiled.parameters.length > 0) throw new Error(`a DDL statement takes no parameters: ${compiled.sql}`);
  const text = onlineStatement(dialect, compiled.sql, algorithm);
  for (let attempt = 1; ; attempt++) {
    try {
      await sql.raw(text).execute(db);
      return;
    } catch (err) {
      if (attempt >= ATTEMPTS || !isLockWaitTimeout(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }
}

function isLockWaitTimeout(err: unknown): boolean {
  return (err as { errno?: number } | null)?.errno === 1205;
}
