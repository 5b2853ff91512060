import type { Db } from '../../db/connect.js';
import { lockForUpdate, type SqlDialect } from '../../db/dialect.js';
import { inTransaction } from '../../db/retry-transaction.js';
import { recordAccessChanges } from './access-changes.js';
import { enqueueGrantedEvents } from '../push/dcsa-outbox.js';

/**
 * Which accounts may see a shipment, as an operator manages it (README
 * "Operating"). Ingest only ever adds accounts (write-shipments.ts); taking
 * one back is this module's: the account's row goes, the revocation is kept
 * so that no ingest (a replayed bundle, a feed still naming the account)
 * grants it again, and the subscriptions its clients hold on the shipment
 * are disabled with the reason, their pending deliveries given up. Lookups
 * by that account's clients answer 404 from the next request on (the tenant
 * rule reads shipment_account on every lookup, docs/architecture.md, REST
 * contract).
 *
 * A grant that gives access, and a revoke that takes it, is a change of the
 * account (GRANTED, REVOKED), written in the same transaction
 * (src/store/access/access-changes.ts); a grant also sends the account's DCSA event
 * subscriptions the shipment's past events. Granting an account that sees the
 * shipment already, or revoking one that does not, records no change.
 */

export interface ShipmentKey {
  carrierCode: string;
  carrierBookingReference: string;
}

export interface ShipmentAccess {
  shipmentId: number;
  accounts: string[];
  revoked: { accountId: string; reason: string; revokedAt: string }[];
}

/** The shipment's id; with `lock`, its row locked on MySQL/MariaDB (an ingest stating it waits, and then sees the change). */
async function shipmentIdOf(db: Db, key: ShipmentKey, lock?: SqlDialect): Promise<number | null> {
  const query = db
    .selectFrom('shipment')
    .select(['id', 'carrier_code', 'carrier_booking_reference'])
    .where('carrier_code', '=', key.carrierCode)
    .where('carrier_booking_reference', '=', key.carrierBookingReference);
  const row = await (lock ? lockForUpdate(lock, query) : query).executeTakeFirst();
  // Exact match (docs/architecture.md, Identity).
  if (!row || row.carrier_code !== key.carrierCode || row.carrier_booking_reference !== key.carrierBookingReference) return null;
  return row.id;
}

/** The shipment's accounts and revocations; null when no such shipment. */
export async function readShipmentAccess(db: Db, key: ShipmentKey): Promise<ShipmentAccess | null> {
  const shipmentId = await shipmentIdOf(db, key);
  if (shipmentId === null) return null;
  const accounts = await db
    .selectFrom('shipment_account')
    .select('account_id')
    .where('shipment_id', '=', shipmentId)
    .orderBy('account_id')
    .execute();
  const revoked = await db
    .selectFrom('shipment_account_revocation')
    .select(['account_id', 'reason', 'revoked_at'])
    .where('shipment_id', '=', shipmentId)
    .orderBy('account_id')
    .execute();
  return {
    shipmentId,
    accounts: accounts.map((a) => a.account_id),
    revoked: revoked.map((r) => ({ accountId: r.account_id, reason: r.reason, revokedAt: r.revoked_at })),
  };
}

export interface RevokeResult {
  shipmentId: number;
  /** The account could see the shipment until now. */
  hadAccess: boolean;
  /** Subscriptions of the account's clients on the shipment, disabled now. */
  subscriptionsDisabled: string[];
}

/** Takes an account's access to a shipment back, in one transaction. Null when no such shipment. */
export async function revokeAccountAccess(
  db: Db,
  dialect: SqlDialect,
  key: ShipmentKey,
  accountId: string,
  reason: string,
  now: Date,
): Promise<RevokeResult | null> {
  const at = now.toISOString();
  return inTransaction(db, async (trx) => {
    const shipmentId = await shipmentIdOf(trx, key, dialect);
    if (shipmentId === null) return null;
    const removed = await trx
      .deleteFrom('shipment_account')
      .where('shipment_id', '=', shipmentId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    // Revoking again records the latest reason and time.
    await trx.deleteFrom('shipment_account_revocation').where('shipment_id', '=', shipmentId).where('account_id', '=', accountId).execute();
    await trx
      .insertInto('shipment_account_revocation')
      .values({ shipment_id: shipmentId, account_id: accountId, reason: reason.slice(0, 500), revoked_at: at })
      .execute();
    const subscriptions = await trx
      .selectFrom('webhook_subscription')
      .select('subscription_id')
      .where('shipment_id', '=', shipmentId)
      .where('account_id', '=', accountId)
      .where('status', '=', 'ACTIVE')
      .execute();
    const ids = subscriptions.map((s) => s.subscription_id);
    if (ids.length > 0) {
      const why = `access of account ${accountId} to the shipment was revoked: ${reason}`.slice(0, 200);
      await trx
        .updateTable('webhook_subscription')
        .set({ status: 'DISABLED', disabled_reason: why, updated_at: at })
        .where('subscription_id', 'in', ids)
        .where('status', '=', 'ACTIVE')
        .execute();
      await trx
        .updateTable('webhook_delivery')
        .set({ status: 'FAILED', last_error: why, lease_owner: null, lease_until: null, updated_at: at })
        .where('subscription_id', 'in', ids)
        .where('status', '=', 'PENDING')
        .execute();
    }
    const hadAccess = removed.numDeletedRows > 0n;
    if (hadAccess) await recordAccessChanges(trx, [{ shipmentId, accountId, triggerType: 'REVOKED' }], now);
    return { shipmentId, hadAccess, subscriptionsDisabled: ids };
  });
}

/**
 * Grants an account access to a shipment (lifting a revocation). Null when no such shipment; `granted` when the
 * account did not see it until now.
 */
export async function grantAccountAccess(
  db: Db,
  dialect: SqlDialect,
  key: ShipmentKey,
  accountId: string,
  now: Date = new Date(),
): Promise<{ shipmentId: number; wasRevoked: boolean; granted: boolean } | null> {
  return inTransaction(db, async (trx) => {
    const shipmentId = await shipmentIdOf(trx, key, dialect);
    if (shipmentId === null) return null;
    const lifted = await trx
      .deleteFrom('shipment_account_revocation')
      .where('shipment_id', '=', shipmentId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    // The shipment's row is held (locked on MySQL/MariaDB; SQLite writes one at a time): whether the account
    // sees it is read once and stays so until commit, so a grant is recorded exactly once.
    const holds = await trx
      .selectFrom('shipment_account')
      .select('account_id')
      .where('shipment_id', '=', shipmentId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!holds) {
      await trx.insertInto('shipment_account').values({ shipment_id: shipmentId, account_id: accountId }).execute();
      await recordAccessChanges(trx, [{ shipmentId, accountId, triggerType: 'GRANTED' }], now);
      await enqueueGrantedEvents(trx, dialect, [{ shipmentId, accountId }], [], now);
    }
    return { shipmentId, wasRevoked: lifted.numDeletedRows > 0n, granted: !holds };
  });
}

/** Whether one of `accountIds` may see the shipment now (the tenant rule of lookups, for the re-check of live streams). */
export async function accountsSeeShipment(db: Db, shipmentId: number, accountIds: readonly string[]): Promise<boolean> {
  if (accountIds.length === 0) return false;
  const row = await db
    .selectFrom('shipment_account')
    .select('shipment_id')
    .where('shipment_id', '=', shipmentId)
    .where('account_id', 'in', [...accountIds])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
