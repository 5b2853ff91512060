import type { Insertable, Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { CarrierPollStateTable, CarrierSourceTable } from '../../db/tables/carrier.js';
import { inTransaction } from '../../db/retry-transaction.js';

/** The rows of carrier_source and carrier_poll_state (src/carriers/carrier-store.ts seals and opens their secrets). */

export type SourceRow = Selectable<CarrierSourceTable>;
export type PollRow = Selectable<CarrierPollStateTable>;

/** A carrier and, when it has an events URL, its poll state: both or neither. */
export async function insertCarrierSource(
  db: Db,
  source: Insertable<CarrierSourceTable>,
  poll: Insertable<CarrierPollStateTable> | null,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.insertInto('carrier_source').values(source).execute();
    if (poll) await trx.insertInto('carrier_poll_state').values(poll).execute();
  });
}

export async function listCarrierSources(db: Db): Promise<SourceRow[]> {
  return db.selectFrom('carrier_source').selectAll().orderBy('carrier_code').execute();
}

export async function listPollStates(db: Db): Promise<PollRow[]> {
  return db.selectFrom('carrier_poll_state').selectAll().execute();
}

export async function findCarrierSource(db: Db, carrierCode: string): Promise<SourceRow | undefined> {
  return db.selectFrom('carrier_source').selectAll().where('carrier_code', '=', carrierCode).executeTakeFirst();
}

export async function findPollState(db: Db, carrierCode: string): Promise<PollRow | undefined> {
  return db.selectFrom('carrier_poll_state').selectAll().where('carrier_code', '=', carrierCode).executeTakeFirst();
}

/** Updates one carrier (only while ACTIVE with `onlyActive`); whether a row matched. */
export async function updateCarrierSource(
  db: Db,
  carrierCode: string,
  set: Updateable<CarrierSourceTable>,
  options: { onlyActive?: boolean } = {},
): Promise<boolean> {
  let query = db.updateTable('carrier_source').set(set).where('carrier_code', '=', carrierCode);
  if (options.onlyActive) query = query.where('status', '=', 'ACTIVE');
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Active carriers with an events URL (only `only`'s when given), by code. */
export async function listPollableSources(db: Db, only?: string): Promise<SourceRow[]> {
  let query = db
    .selectFrom('carrier_source')
    .selectAll()
    .where('status', '=', 'ACTIVE')
    .where('events_url', 'is not', null)
    .orderBy('carrier_code');
  if (only !== undefined) query = query.where('carrier_code', '=', only);
  return query.execute();
}

/** Removes a carrier and its poll state (its stored events stay); whether it existed. */
export async function deleteCarrierSource(db: Db, carrierCode: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    await trx.deleteFrom('carrier_poll_state').where('carrier_code', '=', carrierCode).execute();
    const result = await trx.deleteFrom('carrier_source').where('carrier_code', '=', carrierCode).executeTakeFirst();
    return result.numDeletedRows > 0n;
  });
}

/** A carrier's poll state, created when it gets an events URL (kept, with its watermark, while it has one). */
export async function ensurePollState(db: Db, poll: Insertable<CarrierPollStateTable>): Promise<void> {
  const existing = await findPollState(db, poll.carrier_code);
  if (!existing) await db.insertInto('carrier_poll_state').values(poll).execute();
}

/** Makes the carrier due for a poll now (enabled again, or its address or credentials changed). */
export async function pollNow(db: Db, carrierCode: string, now: string): Promise<void> {
  await db
    .updateTable('carrier_poll_state')
    .set({ next_poll_at: now, consecutive_failures: 0 })
    .where('carrier_code', '=', carrierCode)
    .execute();
}

/** Every sealed value of carrier_source, for a pepper rotation (docs/operating.md "Rotating TT_SECRET_PEPPER"). */
export async function listSealedCarrierSecrets(db: Db) {
  return db
    .selectFrom('carrier_source')
    .select([
      'carrier_code',
      'notification_secret_ciphertext',
      'previous_secret_ciphertext',
      'events_auth_ciphertext',
      'previous_auth_ciphertext',
    ])
    .orderBy('carrier_code')
    .execute();
}

/** A carrier's shared back-off (migration 017): until when no instance calls it, why, and the failures in a row behind it. */
export async function readCarrierBackoff(db: Db, carrierCode: string) {
  return db
    .selectFrom('carrier_source')
    .select(['backoff_until', 'backoff_reason', 'backoff_failures'])
    .where('carrier_code', '=', carrierCode)
    .executeTakeFirst();
}

/**
 * Holds every instance back from the carrier until `until` (never shortens a longer back-off another instance
 * recorded: the later time wins in the statement itself); `countFailure` counts one more call whose tries were spent.
 */
export async function extendCarrierBackoff(
  db: Db,
  carrierCode: string,
  until: string,
  reason: string,
  countFailure: boolean,
): Promise<void> {
  await db
    .updateTable('carrier_source')
    .set((eb) => ({
      // The reason first: MySQL evaluates SET left to right, so a later assignment would see the new backoff_until.
      backoff_reason: sql<string>`case when backoff_until is not null and backoff_until > ${until} then backoff_reason else ${reason.slice(0, 500)} end`,
      backoff_until: sql<string>`case when backoff_until is not null and backoff_until > ${until} then backoff_until else ${until} end`,
      ...(countFailure ? { backoff_failures: eb('backoff_failures', '+', 1) } : {}),
    }))
    .where('carrier_code', '=', carrierCode)
    .execute();
}

/** The carrier answered: the failures in a row start again from 0 (a back-off still running stays). */
export async function resetCarrierFailures(db: Db, carrierCode: string): Promise<void> {
  await db
    .updateTable('carrier_source')
    .set({ backoff_failures: 0 })
    .where('carrier_code', '=', carrierCode)
    .where('backoff_failures', '>', 0)
    .execute();
}
