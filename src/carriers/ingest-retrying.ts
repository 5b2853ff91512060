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
 * - across processes (several instances, a `tracking ingest` beside them,
 *   instances on other Galera nodes), a transaction rolled back for a
 *   deadlock, a lock wait timeout or a certification conflict wrote nothing
 *   and is run again by ingestBundle under the one retry rule
 *   (src/db/retry-transaction.ts).
 */

/** The tail of this process's queue of carrier ingests, per database. */
const queues = new WeakMap<Database, Promise<unknown>>();

export function ingestRetrying(database: Database, bundle: IngestBundle, options: IngestOptions): Promise<IngestSummary> {
  const previous = queues.get(database) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => ingestBundle(database, bundle, options));
  queues.set(
    database,
    run.catch(() => undefined),
  );
  return run;
}
