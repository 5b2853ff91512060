import type { Database } from '../db/connect.js';
import type { IngestBundle } from '../domain/bundle.js';
import { ingestBundle, type IngestOptions, type IngestSummary } from '../ingest/ingest-bundle.js';

/**
 * ingestBundle for the carrier paths in (notifications, the poller, operator
 * ingest), which receive bundles concurrently where the CLI writes one file
 * after another.
 *
 * On MySQL/MariaDB two concurrent ingests deadlock readily, even over
 * disjoint shipments: the linking statements (INSERT … SELECT over
 * event_reference and shipment) take shared locks on the shipment rows they
 * read, and the refresh then asks for exclusive locks on its own
 * (SELECT … FOR UPDATE), so each waits for the other's shared locks.
 * Measured with scripts/carrier-throughput.ts: 4 concurrent notifications of
 * 100 events each ended in deadlocks within seconds, and retries alone kept
 * colliding. So:
 *
 * - in one process, these ingests run one at a time (a queue, not a lock for
 *   correctness: a single writer is what SQLite does anyway, and the
 *   refresh, not the transport, is the cost);
 * - across processes (several instances, a `tracking ingest` beside them),
 *   a transaction that InnoDB rolled back for a deadlock or a lock wait
 *   timeout wrote nothing and is run again, with a growing random pause.
 */

const TRIES = 8;

export function isLockConflict(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213 || e?.code === 'ER_LOCK_WAIT_TIMEOUT' || e?.errno === 1205;
}

/** The tail of this process's queue of carrier ingests, per database. */
const queues = new WeakMap<Database, Promise<unknown>>();

export function ingestRetrying(database: Database, bundle: IngestBundle, options: IngestOptions): Promise<IngestSummary> {
  const previous = queues.get(database) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => ingestWithRetries(database, bundle, options));
  queues.set(
    database,
    run.catch(() => undefined),
  );
  return run;
}

async function ingestWithRetries(database: Database, bundle: IngestBundle, options: IngestOptions): Promise<IngestSummary> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ingestBundle(database, bundle, options);
    } catch (err) {
      if (!isLockConflict(err) || attempt >= TRIES) throw err;
      // So that two conflicting ingests of different processes do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));
    }
  }
}
