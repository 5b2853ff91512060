import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from './dialect.js';
import { isTransientConflict } from './unavailable.js';

/**
 * The one retry rule for every write (docs/operating.md, Running on a Galera cluster): a whole transaction
 * runs again when a concurrent writer got in the way:
 *
 * - a deadlock (1213) or lock wait timeout (1205): MySQL/MariaDB pick a victim among overlapping writers;
 * - a Galera certification conflict, which is also 1213: a write through another node does not wait for our
 *   row lock, one of the two transactions fails at its COMMIT (or at its next statement, once the other's
 *   write set has been applied here);
 * - MariaDB's snapshot isolation "record has changed" (1020);
 * - a busy SQLite file (WAL allows one writer; a reader that tries to write after another writer committed
 *   gets SQLITE_BUSY without waiting);
 * - when the caller asks for it, a unique key the other writer inserted between our read and our insert
 *   (ingest, whose inserts are idempotent on a second look).
 *
 * Each attempt is a new transaction that reads the other writer's committed work, so two overlapping writers
 * end in the state of some sequential order. The back-off is exponential with full jitter and the attempts
 * are bounded: when they run out, the conflict reaches the route, which answers 503 with Retry-After
 * (src/db/unavailable.ts counts an exhausted conflict as "not now").
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. Default 8. */
  attempts: number;
  /** Backoff before the 2nd attempt, doubled each time. Default 20 ms. */
  baseDelayMs: number;
  /** Largest backoff. Default 1000 ms. */
  maxDelayMs: number;
  /** Also run again on a unique-key violation (an insert raced by another writer). Default false. */
  retryUniqueViolations?: boolean;
  /**
   * MySQL/MariaDB: READ COMMITTED, so that every plain read sees what is committed when it runs, not what was
   * when the transaction's first read ran. For a writer that locks its rows (FOR UPDATE, which reads the latest
   * version) after reading others: on a Galera cluster another node's commit may be applied between that first
   * read and the lock without any conflict to certify, and a REPEATABLE READ snapshot would then mix the locked
   * row's new version with the older versions of the rows read beside it. SQLite ignores it (one writer).
   */
  readCommitted?: boolean;
}

export const DEFAULT_TRANSACTION_RETRY: RetryPolicy = { attempts: 8, baseDelayMs: 20, maxDelayMs: 1000 };

/**
 * Ingest: its inserts look again for what another writer stored, so a unique key it raced is worth a retry; it
 * reads a shipment's events after locking the shipment row, and must see the events committed with the version
 * it locked (see readCommitted).
 */
export const INGEST_TRANSACTION_RETRY: RetryPolicy = { ...DEFAULT_TRANSACTION_RETRY, retryUniqueViolations: true, readCommitted: true };

/**
 * Backoff before attempt `attempt + 1` (attempt counts from 1): exponential
 * with "full jitter" (a uniform draw below the cap), so two writers that
 * collided do not retry in lock step. `random` is in [0, 1).
 */
export function backoffMs(attempt: number, policy: RetryPolicy, random: number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random * cap);
}

/** Collisions worth another attempt (see the module comment); unique violations only when the policy says so. */
export function isRetryableWriteError(
  err: unknown,
  policy: Pick<RetryPolicy, 'retryUniqueViolations'> = DEFAULT_TRANSACTION_RETRY,
): boolean {
  return isTransientConflict(err) || (policy.retryUniqueViolations === true && isUniqueViolation(err));
}

/** Runs `run` (one transaction, or one autocommit statement) again under the rule above. */
export async function retryTransaction<T>(
  run: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_TRANSACTION_RETRY,
  onRetry?: (err: unknown, attempt: number) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= policy.attempts || !isRetryableWriteError(err, policy)) throw err;
      onRetry?.(err, attempt);
      await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt, policy, Math.random())));
    }
  }
}

/**
 * `work` in one transaction, run again under the rule above: what every write path calls instead of
 * `db.transaction().execute(work)`.
 */
export function inTransaction<DB, T>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>) => Promise<T>,
  policy: RetryPolicy = DEFAULT_TRANSACTION_RETRY,
): Promise<T> {
  return retryTransaction(() => runTransaction(db, work, policy.readCommitted === true), policy);
}

/**
 * One attempt. Unlike Kysely's `transaction().execute`, a ROLLBACK that fails (the connection was closed by
 * a statement deadline, or the node died) never replaces the error that made us roll back: that first error
 * is what says whether to retry, and whether the route answers 503.
 */
async function runTransaction<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>, readCommitted: boolean): Promise<T> {
  const builder = db.startTransaction();
  const trx = await (readCommitted ? builder.setIsolationLevel('read committed') : builder).execute();
  try {
    const result = await work(trx);
    await trx.commit().execute();
    return result;
  } catch (err) {
    if (!trx.isCommitted && !trx.isRolledBack) {
      // Kysely releases the connection whether or not the ROLLBACK succeeds.
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
    }
    throw err;
  }
}
