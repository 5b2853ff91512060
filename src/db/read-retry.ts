/**
 * Which failed statements a connection may send again by itself: a plain read that a Galera node aborted for a
 * replicated DDL (docs/upgrading.md, "On a Galera cluster"). Pure: it reads SQL text and error codes.
 *
 * On Galera every DDL runs in Total Order Isolation: each node applies it at the same point of the replication
 * stream and brute-force aborts any statement of its own clients that holds a lock on the table, a plain SELECT
 * included. The statement then fails with ER_LOCK_DEADLOCK (1213), though nothing about it was wrong: an expand
 * step of a newer release, applied while this one serves (a rolling upgrade), does exactly that on every node.
 * The server retries an autocommit statement `wsrep_retry_autocommit` times (default once), which a burst of
 * ALTERs outlasts, and not at all once it has begun to answer. A read outside a transaction changes nothing, so
 * sending it again is safe; one inside a transaction is not (the transaction is gone: retry-transaction.ts runs
 * the whole of it again), nor is a locking read (`FOR UPDATE`, `GET_LOCK`), whose caller decides.
 */

/** ER_LOCK_DEADLOCK: a deadlock, or on Galera a brute-force abort (a replicated write or DDL won the lock). */
const ER_LOCK_DEADLOCK = 1213;

/** Times a plain read is sent again after an abort, and the pause before each (ms, times the attempt). */
export const READ_RETRIES = 4;
export const READ_RETRY_PAUSE_MS = 25;

const PLAIN_READ = /^\s*(?:\(\s*)?(?:select|with)\b/i;
const LOCKING = /\bfor\s+update\b|\bfor\s+share\b|\block\s+in\s+share\s+mode\b|\bget_lock\s*\(|\brelease_lock\s*\(|\binto\s+@/i;
const BEGINS = /^\s*(?:begin|start\s+transaction)\b/i;
const ENDS = /^\s*(?:commit|rollback)\b(?!\s+to\b)/i;

/** A statement that only reads and takes no lock: safe to send again outside a transaction. */
export function isPlainRead(sql: string): boolean {
  return PLAIN_READ.test(sql) && !LOCKING.test(sql);
}

/** How a statement moves the connection's transaction state: true (begins one), false (ends it), or undefined. */
export function transactionEffect(sql: string): boolean | undefined {
  if (BEGINS.test(sql)) return true;
  if (ENDS.test(sql)) return false;
  return undefined;
}

/** Whether the error is the server's "Deadlock found" (a Galera brute-force abort of a read is one). */
export function isAbortedStatement(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { errno?: unknown }).errno === ER_LOCK_DEADLOCK;
}
