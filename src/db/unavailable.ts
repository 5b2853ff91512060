/**
 * What a database error means for the caller, for either driver (mysql2,
 * better-sqlite3). Pure: it reads codes and messages, never the network.
 *
 * - unavailable: the database is down, unreachable, too slow or saturated.
 *   Nothing is wrong with the request; the same request later may succeed,
 *   so routes answer 503 with Retry-After (docs/architecture.md, Limits and failure), not 500.
 * - transient conflict: two writers collided (deadlock, lock wait timeout,
 *   a busy SQLite file). Running the whole transaction again is safe and
 *   usually succeeds (see retry-transaction.ts).
 */

/** Raised by our own pool guard (connect.ts) when no connection was free in time. */
export const ACQUIRE_TIMEOUT_CODE = 'TT_DB_ACQUIRE_TIMEOUT';
/** Raised by our own deadlines (connect.ts, use-readiness.ts) when the database did not answer in time. */
export const DEADLINE_CODE = 'TT_DB_DEADLINE';

/** Node socket errors and mysql2 protocol errors of a connection that broke or never came up. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  // mysql2's per-query `timeout` (our client-side statement deadline).
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'POOL_CLOSED',
  ACQUIRE_TIMEOUT_CODE,
  DEADLINE_CODE,
]);

/**
 * MySQL/MariaDB server errors (errno) that say "not now": too many
 * connections (1040), server shutdown (1053), statement timeouts (MariaDB
 * 1969 max_statement_time, MySQL 3024 max_execution_time), query interrupted
 * (1317), connection killed (1927), a Galera node that is not (or no longer)
 * part of the primary component, joining or desynced: "WSREP has not yet
 * prepared node for application use" (1047). And the conflicts below once
 * their retries ran out (src/db/retry-transaction.ts): a deadlock, a
 * certification conflict (1213), a lock wait timeout (1205) or a changed
 * record (1020) that still collides after every attempt is contention, not
 * a broken request.
 */
const UNAVAILABLE_ERRNOS = new Set([1020, 1040, 1047, 1053, 1205, 1213, 1317, 1927, 1969, 3024]);

/** SQLite result codes (better-sqlite3 `code`) of a file that is locked, unreadable or full. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|PROTOCOL)(_|$)/;

/** Messages without a code: mysql2 on a closed connection, Kysely and better-sqlite3 after close. */
const UNAVAILABLE_MESSAGES = [
  /can't add new command when connection is in closed state/i,
  /pool is closed/i,
  /driver has already been destroyed/i,
  /the database connection is not open/i,
];

/**
 * ER_LOCK_DEADLOCK (also a Galera certification conflict), ER_LOCK_WAIT_TIMEOUT, ER_CHECKREAD (MariaDB
 * snapshot isolation: "record has changed").
 */
const CONFLICT_ERRNOS = new Set([1213, 1205, 1020]);
const SQLITE_CONFLICT = /^SQLITE_(BUSY|LOCKED)(_|$)/;

interface DriverError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  cause?: unknown;
  originalError?: unknown;
  errors?: unknown;
}

/** The error and its causes (`cause`, GraphQL's `originalError`, AggregateError's `errors`), a few levels deep. */
function* chain(err: unknown, depth = 0): Generator<DriverError> {
  if (err === null || typeof err !== 'object' || depth > 5) return;
  const e = err as DriverError;
  yield e;
  if (e.originalError !== undefined) yield* chain(e.originalError, depth + 1);
  if (e.cause !== undefined) yield* chain(e.cause, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors.slice(0, 5)) yield* chain(inner, depth + 1);
}

function isUnavailableOne(e: DriverError): boolean {
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (CONNECTION_CODES.has(code) || SQLITE_UNAVAILABLE.test(code))) return true;
  if (typeof e.errno === 'number' && UNAVAILABLE_ERRNOS.has(e.errno) && code?.startsWith('ER_')) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return UNAVAILABLE_MESSAGES.some((m) => m.test(message));
}

/** True when the error (or one of its causes) says the database is down, unreachable, too slow or saturated. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of chain(err)) if (isUnavailableOne(e)) return true;
  return false;
}

/** True when the error says a concurrent writer got in the way: running the transaction again is safe. */
export function isTransientConflict(err: unknown): boolean {
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && SQLITE_CONFLICT.test(code)) return true;
    if (typeof e.errno === 'number' && CONFLICT_ERRNOS.has(e.errno) && code?.startsWith('ER_')) return true;
  }
  return false;
}

/** An error with a driver-like `code`, for our own deadlines. */
export function deadlineError(code: typeof ACQUIRE_TIMEOUT_CODE | typeof DEADLINE_CODE, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Seconds a client should wait before retrying after a 503 (Retry-After). */
export const RETRY_AFTER_SECONDS = 5;
