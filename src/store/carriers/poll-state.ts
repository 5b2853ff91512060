import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { retryTransaction } from '../../db/retry-transaction.js';

/**
 * carrier_poll_state writes. The lease keeps one poller per carrier across
 * every instance: it is taken by one atomic UPDATE that matches only an
 * expired lease, so of two instances racing, exactly one row update
 * succeeds; no process-local lock is involved (docs/architecture.md, Scale-out). Every
 * later write is conditioned on still holding it, so a poller that stalled
 * past its lease (and was replaced) writes nothing more.
 */

/** Takes the carrier's lease when it is free and (unless `force`) a poll is due. True when taken. */
export async function takeLease(db: Db, carrierCode: string, owner: string, now: Date, leaseMs: number, force = false): Promise<boolean> {
  const at = now.toISOString();
  let query = db
    .updateTable('carrier_poll_state')
    .set({ lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where('carrier_code', '=', carrierCode)
    // A lease until T ends at T: releaseLease and abandonLease free it by setting it to their now.
    .where('lease_until', '<=', at);
  if (!force) query = query.where('next_poll_at', '<=', at);
  const result = await retryTransaction(() => query.executeTakeFirst());
  return result.numUpdatedRows > 0n;
}

/** Extends a held lease; false when it was lost (expired and taken by another poller). */
export async function renewLease(db: Db, carrierCode: string, owner: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await retryTransaction(() =>
    db
      .updateTable('carrier_poll_state')
      .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where('carrier_code', '=', carrierCode)
      .where('lease_owner', '=', owner)
      .where('lease_until', '>', now.toISOString())
      .executeTakeFirst(),
  );
  return result.numUpdatedRows > 0n;
}

/** Moves the watermark forward (never back) after a page's commit, while the lease is held; false when it was lost. */
export async function advanceWatermark(
  db: Db,
  carrierCode: string,
  owner: string,
  watermark: string | null,
  events: number,
): Promise<boolean> {
  const result = await retryTransaction(() =>
    db
      .updateTable('carrier_poll_state')
      .set((eb) => ({
        events_polled: eb('events_polled', '+', events),
        ...(watermark !== null ? { watermark: sql<string>`case when watermark < ${watermark} then ${watermark} else watermark end` } : {}),
      }))
      .where('carrier_code', '=', carrierCode)
      .where('lease_owner', '=', owner)
      .executeTakeFirst(),
  );
  // MySQL counts matched rows here (mysql2 connects with FOUND_ROWS), as SQLite does.
  return result.numUpdatedRows > 0n;
}

/** Ends a run: frees the lease and schedules the next poll, recording the outcome. */
export async function releaseLease(
  db: Db,
  carrierCode: string,
  owner: string,
  outcome: { now: Date; nextPollAt: Date; error: string | null },
): Promise<void> {
  await retryTransaction(() =>
    db
      .updateTable('carrier_poll_state')
      .set((eb) => ({
        lease_owner: null,
        lease_until: outcome.now.toISOString(),
        next_poll_at: outcome.nextPollAt.toISOString(),
        last_polled_at: outcome.now.toISOString(),
        last_error: outcome.error === null ? null : outcome.error.slice(0, 500),
        consecutive_failures: outcome.error === null ? 0 : eb('consecutive_failures', '+', 1),
      }))
      .where('carrier_code', '=', carrierCode)
      .where('lease_owner', '=', owner)
      .execute(),
  );
}

/**
 * Lets the lease go without a verdict on the carrier (a poller stopped by SIGTERM or SIGINT mid-run): due
 * again at once for the next poller, its failure count and last error as they were.
 */
export async function abandonLease(db: Db, carrierCode: string, owner: string, now: Date): Promise<void> {
  await db
    .updateTable('carrier_poll_state')
    .set({ lease_owner: null, lease_until: now.toISOString(), next_poll_at: now.toISOString() })
    .where('carrier_code', '=', carrierCode)
    .where('lease_owner', '=', owner)
    .execute();
}

export async function readPollState(db: Db, carrierCode: string) {
  return db.selectFrom('carrier_poll_state').selectAll().where('carrier_code', '=', carrierCode).executeTakeFirst();
}
