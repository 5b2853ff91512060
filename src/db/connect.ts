import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, MysqlDialect, sql, SqliteDialect, type LogConfig } from 'kysely';
import { createPool, type Pool, type PoolConnection } from 'mysql2';
import { DEFAULT_SQLITE_PATH } from '../config/config.js';
import type { DatabaseTimeouts } from '../config/resilience-config.js';
import { EACH_ROW } from './bulk-insert.js';
import type { SqlDialect } from './dialect.js';
import { InlineLimitsPlugin } from './inline-limits.js';
import { withQueryCount } from './query-count.js';
import { isAbortedStatement, isPlainRead, READ_RETRIES, READ_RETRY_PAUSE_MS, transactionEffect } from './read-retry.js';
import type { DatabaseSchema } from './schema.js';
import { ACQUIRE_TIMEOUT_CODE, deadlineError } from './unavailable.js';

export type Db = Kysely<DatabaseSchema>;

export interface Database {
  db: Db;
  dialect: SqlDialect;
  /** A printable description without credentials. */
  description: string;
  /** Connection pool occupancy (MySQL only; SQLite has one connection and no pool). */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open, idle or in use. */
  open: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The pool's maximum size. */
  limit: number;
}

export interface ConnectOptions {
  /** Kysely log hook; tests count SQL round trips with it. */
  log?: LogConfig;
  /** mysql2 pool size. Default 10. */
  poolSize?: number;
  /** Timeouts (serve passes config.db); unset: none, as the CLI's migrations and large ingests need. */
  timeouts?: DatabaseTimeouts;
}

/**
 * Opens the database named by a DATABASE_URL: `mysql://user:pass@host:port/db`,
 * `sqlite:PATH`, or nothing for the embedded default file.
 */
export function connectDatabase(url: string | undefined, options: ConnectOptions = {}): Database {
  if (url && /^mysql:\/\//i.test(url)) {
    const parsed = new URL(url);
    const timeouts = options.timeouts;
    const pool = createPool({
      uri: url,
      connectionLimit: options.poolSize ?? 10,
      // Timestamps are stored as canonical ISO strings; never let the driver convert.
      dateStrings: true,
      timezone: 'Z',
      supportBigNumbers: true,
      charset: 'utf8mb4',
      // Per connection; the server allows 16,382 prepared statements in all (max_prepared_stmt_count).
      maxPreparedStatements: PREPARED_INSERTS_PER_CONNECTION,
      ...(timeouts ? { connectTimeout: timeouts.connectMs } : {}),
    });
    if (timeouts && timeouts.statementMs > 0) limitStatementTime(pool, timeouts.statementMs);
    const guarded = guardPool(pool, timeouts);
    const db = new Kysely<DatabaseSchema>({ dialect: new MysqlDialect({ pool: guarded }), log: withQueryCount(options.log) });
    const limit = options.poolSize ?? 10;
    // @NOTE mysql2 has no public pool statistics; these queues are its own bookkeeping (lib/base/pool.js).
    const internals = pool as unknown as Partial<Record<'_allConnections' | '_freeConnections' | '_connectionQueue', { length: number }>>;
    return {
      db,
      dialect: 'mysql',
      description: `mysql://${parsed.hostname}:${parsed.port || 3306}${parsed.pathname}`,
      poolStats: () => ({
        open: internals._allConnections?.length ?? 0,
        idle: internals._freeConnections?.length ?? 0,
        waiting: internals._connectionQueue?.length ?? 0,
        limit,
      }),
      close: () => db.destroy(),
    };
  }
  const path = sqlitePath(url);
  if (path !== ':memory:') createPrivateFile(path);
  const sqlite = new SQLite(path);
  // 16 KiB pages (InnoDB's size; SQLite's default is 4 KiB): a stored snapshot of ~20 KB spans two pages instead
  // of a chain of five overflow pages, and the event tables' B-trees are shallower. A 100,000-event ingest stored
  // in ~2.5 s against ~3.0 s (bench/README.md). It applies to a new file only: an existing one keeps its size.
  sqlite.pragma('page_size = 16384');
  // WAL lets readers (serve) and a writer (ingest CLI) share the file; wait instead of failing on a lock.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`busy_timeout = ${Math.trunc(options.timeouts?.sqliteBusyMs ?? 5000)}`);
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [new InlineLimitsPlugin()],
    log: withQueryCount(options.log),
  });
  return { db, dialect: 'sqlite', description: `sqlite:${path}`, close: () => db.destroy() };
}

/** Prepared SQLite statements kept for reuse, by SQL text. */
const SQLITE_STATEMENT_CACHE = 100;

/**
 * The database as Kysely's SQLite driver sees it, reusing prepared
 * statements: the driver prepares every query anew, and compiling the SQL
 * of a multi-row insert (thousands of placeholders) cost as much as running
 * it; ingest's chunks repeat the same SQL. A statement still iterating (a
 * streamed query) is not handed out again: a fresh one is prepared. A text
 * marked EACH_ROW runs once per row of its parameters (eachRow).
 */
function withStatementCache(sqlite: SQLite.Database): { prepare(sql: string): SQLite.Statement; close(): void } {
  const cache = new Map<string, SQLite.Statement>();
  function cached(sql: string): SQLite.Statement {
    const kept = cache.get(sql);
    if (kept && !kept.busy) {
      // Most recently used last, so the first entry is the one to drop.
      cache.delete(sql);
      cache.set(sql, kept);
      return kept;
    }
    const statement = sqlite.prepare(sql);
    if (!kept) {
      cache.set(sql, statement);
      if (cache.size > SQLITE_STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
    }
    return statement;
  }
  return {
    prepare(sql: string) {
      if (sql.startsWith(EACH_ROW)) return eachRow(cached(sql.slice(EACH_ROW.length)));
      return cached(sql);
    },
    close: () => {
      cache.clear();
      sqlite.close();
    },
  };
}

/**
 * A one-row INSERT run for each row of its parameters (bulk-insert.ts, EACH_ROW), as Kysely's driver sees a
 * statement: a reader, so that it calls all() and returns what all() answers, the id SQLite gave each row.
 */
function eachRow(statement: SQLite.Statement): SQLite.Statement {
  return {
    reader: true,
    busy: false,
    all(rows: unknown[][]) {
      const ids = new Array<{ rowid: number }>(rows.length);
      for (let i = 0; i < rows.length; i++) ids[i] = { rowid: Number(statement.run(rows[i]).lastInsertRowid) };
      return ids;
    },
  } as unknown as SQLite.Statement;
}

/**
 * The SQLite file holds the sandbox signing key and the pepper: readable by
 * its owner only (0600, its directory 0700 when created here). SQLite gives
 * the -wal and -shm files the permissions of the database file.
 */
function createPrivateFile(path: string): void {
  const full = resolve(path);
  mkdirSync(dirname(full), { recursive: true, mode: 0o700 });
  if (!existsSync(full)) closeSync(openSync(full, 'a', 0o600));
  try {
    chmodSync(full, 0o600);
  } catch {
    // Not our file (a read-only mount, another owner): SQLite reports what matters when it opens it.
  }
}

/**
 * Sets the server-side statement timeout on every new connection: MariaDB's
 * max_statement_time (seconds, every statement), else MySQL's
 * max_execution_time (ms, SELECTs only). Queued before the connection's
 * first query, so it holds for all of them.
 */
function limitStatementTime(pool: Pool, statementMs: number): void {
  pool.on('connection', (connection) => {
    connection.query(`SET SESSION max_statement_time = ${(statementMs / 1000).toFixed(3)}`, (err) => {
      if (err) connection.query(`SET SESSION max_execution_time = ${Math.trunc(statementMs)}`, () => {});
    });
  });
}

/** Client-side grace after the server's own statement timeout, before we give up on a silent server. */
const CLIENT_DEADLINE_GRACE_MS = 500;

/**
 * The mysql2 pool as Kysely sees it. Every connection sends INSERT ...
 * VALUES statements as prepared statements (withConnectionPolicy). With
 * timeouts, it also has the deadlines mysql2 lacks: a connection must be
 * handed out within acquireMs (a frozen server or a saturated pool otherwise
 * queues requests for ever), and each query gets mysql2's `timeout`, after
 * which the connection is destroyed (its protocol state is unknown) and the
 * pool opens a new one.
 */
function guardPool(pool: Pool, timeouts: DatabaseTimeouts | undefined): Pick<Pool, 'getConnection' | 'end'> {
  const deadline = timeouts && timeouts.statementMs > 0 ? timeouts.statementMs + CLIENT_DEADLINE_GRACE_MS : 0;
  return {
    getConnection(callback: (err: NodeJS.ErrnoException | null, connection: PoolConnection) => void) {
      if (!timeouts) {
        pool.getConnection((err, connection) => callback(err, err ? connection : withConnectionPolicy(connection, 0)));
        return;
      }
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        callback(deadlineError(ACQUIRE_TIMEOUT_CODE, `no database connection within ${timeouts.acquireMs} ms`), undefined as never);
      }, timeouts.acquireMs);
      pool.getConnection((err, connection) => {
        if (settled) {
          // Handed out after we gave up: back to the pool for the next caller.
          if (!err) connection.release();
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (err) callback(err, connection);
        else callback(null, withConnectionPolicy(connection, deadline));
      });
    },
    end: (callback?: (err: NodeJS.ErrnoException | null) => void) => pool.end(callback),
  } as Pick<Pool, 'getConnection' | 'end'>;
}

/**
 * Prepared statements cached per connection (mysql2 closes the least
 * recently used one beyond this): the INSERT shapes of ingest and the
 * service are few, and even several instances of 32 connections each stay
 * far below the server's max_prepared_stmt_count (16,382 by default).
 */
const PREPARED_INSERTS_PER_CONNECTION = 32;

/** The server's answer when max_prepared_stmt_count statements are prepared already. */
const ER_MAX_PREPARED_STMT_COUNT_REACHED = 1461;

/**
 * INSERT ... VALUES with placeholders. These go to the server as prepared
 * statements (binary protocol): the values travel as they are instead of
 * being escaped into the SQL text and lexed back out of it, which for
 * ingest's multi-row inserts of JSON documents (events, snapshots) was most
 * of their time on MariaDB (a 1.5 MB insert: ~60 ms as text, ~13 ms
 * prepared). Only inserts of values: their results carry no rows whose
 * types could differ between the two protocols.
 */
const INSERT_VALUES = /^insert\s+(?:ignore\s+)?into\s+[^\s(]+\s*\([^)]*\)\s*values\s*\(/i;

/**
 * A number goes to a prepared statement as its decimal text, as the text
 * protocol would write it into the SQL: mysql2 binds numbers as DOUBLE,
 * which a VARCHAR column would store as e.g. 1.2345678901234568e16.
 */
function asTextProtocolValue(value: unknown): unknown {
  return typeof value === 'number' ? String(value) : value;
}

const POLICY_INSTALLED = Symbol('tt.connectionPolicy');

/**
 * Wraps the connection's query() once: INSERT ... VALUES statements are
 * executed as prepared statements; with a deadline, every statement gets
 * mysql2's `timeout` and a timed-out connection is destroyed; a plain read
 * outside a transaction that the server aborted (a Galera node applying a
 * replicated DDL: read-retry.ts) is sent again, a few times.
 */
function withConnectionPolicy(connection: PoolConnection, deadlineMs: number): PoolConnection {
  const marked = connection as PoolConnection & { [POLICY_INSTALLED]?: true };
  if (marked[POLICY_INSTALLED]) return connection;
  marked[POLICY_INSTALLED] = true;
  const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
  const execute = connection.execute.bind(connection) as (...args: unknown[]) => unknown;
  let inTransaction = false;
  (connection as { query: unknown }).query = (sqlText: unknown, values?: unknown, callback?: unknown) => {
    if (typeof sqlText !== 'string') return query(sqlText, values, callback);
    const effect = transactionEffect(sqlText);
    if (effect !== undefined) inTransaction = effect;
    if (typeof callback === 'function' && !inTransaction && isPlainRead(sqlText)) {
      // Each attempt goes through the policy below (deadline included); only the abort is answered by another try.
      const done = callback as (...a: unknown[]) => void;
      const attempt = (n: number) =>
        policyQuery(sqlText, values, (err: unknown, ...rest: unknown[]) => {
          if (n < READ_RETRIES && isAbortedStatement(err)) setTimeout(() => attempt(n + 1), READ_RETRY_PAUSE_MS * (n + 1));
          else done(err, ...rest);
        });
      attempt(0);
      return undefined;
    }
    return policyQuery(sqlText, values, callback);
  };
  const policyQuery = (sqlText: string, values: unknown, callback: unknown): unknown => {
    const send = (via: typeof query, bound: unknown, done: unknown) =>
      deadlineMs <= 0 ? via(sqlText, bound, done) : via({ sql: sqlText, values: bound, timeout: deadlineMs }, done);
    const cb =
      typeof callback === 'function' && deadlineMs > 0
        ? (err: { code?: string } | null, ...rest: unknown[]) => {
            if (err?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') connection.destroy();
            (callback as (...a: unknown[]) => void)(err, ...rest);
          }
        : callback;
    if (!(Array.isArray(values) && values.length > 0 && INSERT_VALUES.test(sqlText)) || typeof cb !== 'function') {
      return send(query, values, cb);
    }
    // A server at max_prepared_stmt_count (other clients' statements count too) refuses to
    // prepare: the insert then goes as text, as it always did.
    return send(execute, values.map(asTextProtocolValue), (err: { errno?: number } | null, ...rest: unknown[]) => {
      if (err?.errno === ER_MAX_PREPARED_STMT_COUNT_REACHED) return send(query, values, cb);
      (cb as (...a: unknown[]) => void)(err, ...rest);
    });
  };
  return connection;
}

function sqlitePath(url: string | undefined): string {
  if (!url) return DEFAULT_SQLITE_PATH;
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') || DEFAULT_SQLITE_PATH;
  throw new Error(`DATABASE_URL must be mysql://... or sqlite:PATH, got "${url.replace(/\/\/[^@]*@/, '//***@')}"`);
}

/** One trivial statement: whether the database answers (readiness). */
export async function pingDatabase(database: Database): Promise<void> {
  await sql`select 1`.execute(database.db);
}
