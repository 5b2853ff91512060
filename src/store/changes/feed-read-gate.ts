import type { Database } from '../../db/connect.js';

/**
 * How many account-feed pages one instance reads at once (docs/account-feed.md, Busy): a quarter of the
 * database pool, at least one. A feed page is several statements over the change log and the page's shipments;
 * under a burst of feed readers they would otherwise hold every pooled connection, and lookups, tokens and
 * ingest on the same instance would wait for the pool until their 503. A page asked for while the feed has its
 * share waits for a place, first come first served, for at most FEED_WAIT_MS and behind at most
 * FEED_QUEUE_FACTOR times the limit; past either it is refused (FeedBusyError, answered 503 with Retry-After),
 * without touching the pool. A short wait turns a burst into a queue, as a client would retry anyway; the bound
 * keeps a flood from piling up requests that would time out in the queue.
 * SQLite (one connection, statements run in process) has no pool to share: no limit.
 */

/** Thrown when no feed place came free in time, or too many already wait: nothing was read. */
export class FeedBusyError extends Error {
  override name = 'FeedBusyError';
}

/** The longest a page waits for a place before its 503. */
export const FEED_WAIT_MS = 2_000;
/** Waiting pages beyond this many times the limit are refused at once. */
export const FEED_QUEUE_FACTOR = 16;

interface Gate {
  busy: number;
  /** Waiting pages in arrival order; each takes a place handed over by a finishing page. */
  waiting: (() => void)[];
}

const gates = new WeakMap<Database, Gate>();

/** The feed pages `database` may serve at once. */
export function feedReadLimit(database: Database): number {
  const pool = database.poolStats?.().limit;
  return pool === undefined ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(pool / 4));
}

/** Runs `read` in one of the feed's places, waiting a little for one; throws FeedBusyError when none came. */
export async function withFeedReadSlot<T>(database: Database, read: () => Promise<T>, waitMs = FEED_WAIT_MS): Promise<T> {
  const limit = feedReadLimit(database);
  let gate = gates.get(database);
  if (!gate) gates.set(database, (gate = { busy: 0, waiting: [] }));
  if (gate.busy < limit) gate.busy += 1;
  else await waitForPlace(gate, limit, waitMs);
  try {
    return await read();
  } finally {
    // The place goes straight to the next waiter (busy stays), or back to the gate.
    const next = gate.waiting.shift();
    if (next) next();
    else gate.busy -= 1;
  }
}

function waitForPlace(gate: Gate, limit: number, waitMs: number): Promise<void> {
  if (gate.waiting.length >= limit * FEED_QUEUE_FACTOR) {
    return Promise.reject(new FeedBusyError('as many feed pages are being read and waiting as this instance allows'));
  }
  return new Promise<void>((resolve, reject) => {
    const take = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      const at = gate.waiting.indexOf(take);
      if (at >= 0) gate.waiting.splice(at, 1);
      reject(new FeedBusyError(`no feed page place came free within ${waitMs} ms`));
    }, waitMs);
    // A waiting page must not keep a stopping process alive on its own.
    timer.unref();
    gate.waiting.push(take);
  });
}
