import type { Database } from '../db/connect.js';
import type { IngestBundle } from '../ingest/bundle.js';
import { ingestBundle, type IngestOptions, type IngestSummary } from '../ingest/ingest-bundle.js';

/**
 * ingestBundle, tried again when MySQL/MariaDB ends its transaction for a
 * lock conflict with a concurrent ingest: a deadlock (InnoDB picks a victim
 * and rolls it back) or a lock wait timeout. Carriers push notifications in
 * parallel, and two that touch the same shipments lock the same rows
 * (refreshShipments locks them FOR UPDATE); the rolled-back one wrote
 * nothing, so running it again is safe. Measured: 4 concurrent
 * notifications of 100 events over shared shipments hit deadlocks on
 * MariaDB within seconds without this.
 */

const TRIES = 6;

export function isLockConflict(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213 || e?.code === 'ER_LOCK_WAIT_TIMEOUT' || e?.errno === 1205;
}

export async function ingestRetrying(database: Database, bundle: IngestBundle, options: IngestOptions): Promise<IngestSummary> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ingestBundle(database, bundle, options);
    } catch (err) {
      if (!isLockConflict(err) || attempt >= TRIES) throw err;
      // A short random pause, so the two conflicting ingests do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * attempt));
    }
  }
}
