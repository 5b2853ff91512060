import { isUniqueViolation } from './dialect.js';
import { isTransientConflict } from './unavailable.js';

/**
 * Runs a whole transaction again when a concurrent writer got in the way:
 * a deadlock or lock wait timeout (MySQL/MariaDB pick a victim among
 * overlapping writers), a busy SQLite file (WAL allows one writer; a reader
 * that tries to write after another writer committed gets SQLITE_BUSY
 * without waiting), or a unique key the other writer inserted between our
 * read and our insert. Each attempt is a new transaction that reads the
 * other writer's committed work, so two overlapping ingests end in the state
 * of some sequential order.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. Default 8. */
  attempts: number;
  /** Backoff before the 2nd attempt, doubled each time. Default 20 ms. */
  baseDelayMs: number;
  /** Largest backoff. Default 1000 ms. */
  maxDelayMs: number;
}

export const DEFAULT_TRANSACTION_RETRY: RetryPolicy = { attempts: 8, baseDelayMs: 20, maxDelayMs: 1000 };

/**
 * Backoff before attempt `attempt + 1` (attempt counts from 1): exponential
 * with "full jitter" (a uniform draw below the cap), so two writers that
 * collided do not retry in lock step. `random` is in [0, 1).
 */
export function backoffMs(attempt: number, policy: RetryPolicy, random: number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random * cap);
}

/** Collisions worth another attempt (see the module comment). */
export function isRetryableWriteError(err: unknown): boolean {
  return isTransientConflict(err) || isUniqueViolation(err);
}

export async function retryTransaction<T>(
  run: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_TRANSACTION_RETRY,
  onRetry?: (err: unknown, attempt: number) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= policy.attempts || !isRetryableWriteError(err)) throw err;
      onRetry?.(err, attempt);
      await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt, policy, Math.random())));
    }
  }
}
