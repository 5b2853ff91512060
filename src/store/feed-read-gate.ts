import type { Database } from '../db/connect.js';

/**
 * How many account-feed pages one instance reads at once (docs/account-feed.md, Cost): a quarter of the
 * database pool, at least one. A feed page is several statements over the change log and the page's shipments;
 * under a burst of feed readers they would otherwise hold every pooled connection, and lookups, tokens and
 * ingest on the same instance would wait for the pool until their 503. A page asked for while the feed already
 * has its share is refused at once (FeedBusyError, answered 503 with Retry-After), without touching the pool.
 * SQLite (one connection, statements run in process) has no pool to share: no limit.
 */

/** Thrown when the instance reads as many feed pages as it may: nothing was read. */
export class FeedBusyError extends Error {
  override name = 'FeedBusyError';
}

const inFlight = new WeakMap<Database, number>();

/** The feed pages `database` may serve at once. */
export function feedReadLimit(database: Database): number {
  const pool = database.poolStats?.().limit;
  return pool === undefined ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(pool / 4));
}

/** Runs `read` in one of the feed's places, or throws FeedBusyError when none is free. */
export async function withFeedReadSlot<T>(database: Database, read: () => Promise<T>): Promise<T> {
  const busy = inFlight.get(database) ?? 0;
  if (busy >= feedReadLimit(database)) throw new FeedBusyError('as many feed pages are being read as this instance allows');
  inFlight.set(database, busy + 1);
  try {
    return await read();
  } finally {
    inFlight.set(database, (inFlight.get(database) ?? 1) - 1);
  }
}
