import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import type { WebhookSubscriptionTable } from '../../db/tables/push.js';
import type { ChangeTriggerType } from '../../domain/push/push-triggers.js';
import type { ShipmentLookup } from '../shipments/shipment-lookup.js';
import { inTransaction } from '../../db/retry-transaction.js';

/**
 * Webhook subscriptions as their owner sees them (the spec's Subscription,
 * fields ours: docs/architecture.md, Push). A subscription belongs to the API client
 * that created it: other clients, even of the same account, do not see it.
 */

export type SubscriptionStatus = 'ACTIVE' | 'DISABLED';
/** SHIPMENT: one shipment, named by a lookup form; ACCOUNT: every shipment the owner's account sees, later ones included. */
export type SubscriptionCoverage = 'SHIPMENT' | 'ACCOUNT';

/** shipment_id of an account-wide subscription (no shipment has id 0). */
export const ACCOUNT_WIDE = 0;

export interface WebhookSubscription {
  subscriptionID: string;
  callbackUrl: string;
  carrierCode: string | null;
  carrierBookingReference: string | null;
  billOfLadingNumber: string | null;
  equipmentReference: string | null;
  triggerTypes: ChangeTriggerType[];
  /** Only exception triggers of these types; null: every type. */
  exceptionTypes: string[] | null;
  /** Only shipments of these carriers; null: every carrier. */
  carrierCodes: string[] | null;
  /** PREDICTED_ARRIVAL: the move of the prediction that is pushed, hours; null: none. */
  predictedArrivalShiftHours: number | null;
  /** PREDICTED_ARRIVAL: the lateness against the carrier's planned arrival that is pushed, hours; null: none. */
  predictedLatenessHours: number | null;
  coverage: SubscriptionCoverage;
  scheduledIntervalSeconds: number | null;
  status: SubscriptionStatus;
  disabledReason: string | null;
  /** Until when the previous signing secret still signs (after a rotation), else null. */
  previousSecretExpiresDateTime: string | null;
  createdDateTime: string;
  updatedDateTime: string;
}

export interface NewSubscription {
  clientId: string;
  accountId: string;
  /** The shipment, or ACCOUNT_WIDE. */
  shipmentId: number;
  lookup: ShipmentLookup;
  callbackUrl: string;
  triggerTypes: readonly ChangeTriggerType[];
  exceptionTypes?: readonly string[] | null;
  carrierCodes?: readonly string[] | null;
  predictedArrivalShiftHours?: number | null;
  predictedLatenessHours?: number | null;
  scheduledIntervalSeconds: number | null;
  sealedSecret: string;
  now: Date;
}

type Row = Selectable<WebhookSubscriptionTable>;

/** This module's kind of subscription; DCSA event subscriptions (src/store/push/dcsa-subscriptions.ts) share the table. */
export const WEBHOOK_KIND = 'WEBHOOK';
const WEBHOOK = WEBHOOK_KIND;

function toSubscription(row: Row): WebhookSubscription {
  return {
    subscriptionID: row.subscription_id,
    callbackUrl: row.callback_url,
    carrierCode: row.carrier_code,
    carrierBookingReference: row.carrier_booking_reference,
    billOfLadingNumber: row.bill_of_lading_number,
    equipmentReference: row.equipment_reference,
    triggerTypes: row.trigger_types.split(',') as ChangeTriggerType[],
    exceptionTypes: row.exception_types ? row.exception_types.split(',') : null,
    carrierCodes: row.carrier_codes ? row.carrier_codes.split(',') : null,
    predictedArrivalShiftHours: row.predicted_shift_hours ?? null,
    predictedLatenessHours: row.predicted_lateness_hours ?? null,
    coverage: row.shipment_id === ACCOUNT_WIDE ? 'ACCOUNT' : 'SHIPMENT',
    scheduledIntervalSeconds: row.scheduled_interval_seconds,
    status: row.status as SubscriptionStatus,
    disabledReason: row.disabled_reason,
    previousSecretExpiresDateTime: row.previous_secret_expires_at,
    createdDateTime: row.created_at,
    updatedDateTime: row.updated_at,
  };
}

export async function createSubscription(db: Kysely<DatabaseSchema>, input: NewSubscription): Promise<WebhookSubscription> {
  const at = input.now.toISOString();
  const row: Row = {
    subscription_id: randomUUID(),
    client_id: input.clientId,
    account_id: input.accountId,
    shipment_id: input.shipmentId,
    carrier_code: input.lookup.carrierCode ?? null,
    carrier_booking_reference: input.lookup.carrierBookingReference ?? null,
    bill_of_lading_number: input.lookup.billOfLadingNumber ?? null,
    equipment_reference: input.lookup.equipmentReference ?? null,
    callback_url: input.callbackUrl,
    trigger_types: input.triggerTypes.join(','),
    scheduled_interval_seconds: input.scheduledIntervalSeconds,
    next_scheduled_at:
      input.scheduledIntervalSeconds === null ? null : new Date(input.now.getTime() + input.scheduledIntervalSeconds * 1000).toISOString(),
    status: 'ACTIVE',
    disabled_reason: null,
    secret_ciphertext: input.sealedSecret,
    previous_secret_ciphertext: null,
    previous_secret_expires_at: null,
    created_at: at,
    updated_at: at,
    kind: WEBHOOK,
    filters_json: null,
    callback_checked_at: null,
    exception_types: input.exceptionTypes?.length ? input.exceptionTypes.join(',') : null,
    carrier_codes: input.carrierCodes?.length ? input.carrierCodes.join(',') : null,
    predicted_shift_hours: input.predictedArrivalShiftHours ?? null,
    predicted_lateness_hours: input.predictedLatenessHours ?? null,
  };
  await db.insertInto('webhook_subscription').values(row).execute();
  return toSubscription(row);
}

/** The client's subscriptions (not deleted), oldest first, at most `limit`. */
export async function listSubscriptions(db: Kysely<DatabaseSchema>, clientId: string, limit = 1000): Promise<WebhookSubscription[]> {
  const rows = await db
    .selectFrom('webhook_subscription')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('status', '!=', 'DELETED')
    .where('kind', '=', WEBHOOK)
    .orderBy('created_at')
    .orderBy('subscription_id')
    .limit(limit)
    .execute();
  return rows.map(toSubscription);
}

/**
 * A page of the client's subscriptions in listSubscriptions' order (oldest first), after a position in it
 * (created_at, then subscription_id: unique, and the same order on both stores), and whether more follow.
 */
export async function pageOfSubscriptions(
  db: Kysely<DatabaseSchema>,
  clientId: string,
  options: { after?: { createdAt: string; subscriptionId: string }; limit: number },
): Promise<{ subscriptions: WebhookSubscription[]; more: boolean }> {
  let query = db
    .selectFrom('webhook_subscription')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('status', '!=', 'DELETED')
    .where('kind', '=', WEBHOOK);
  const after = options.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '>', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('subscription_id', '>', after.subscriptionId)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('created_at')
    .orderBy('subscription_id')
    .limit(options.limit + 1)
    .execute();
  return { subscriptions: rows.slice(0, options.limit).map(toSubscription), more: rows.length > options.limit };
}

/** One of the client's subscriptions, or null (another client's is as unknown as a missing one). */
export async function getSubscription(
  db: Kysely<DatabaseSchema>,
  clientId: string,
  subscriptionId: string,
): Promise<WebhookSubscription | null> {
  const row = await db
    .selectFrom('webhook_subscription')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('client_id', '=', clientId)
    .where('status', '!=', 'DELETED')
    .where('kind', '=', WEBHOOK)
    .executeTakeFirst();
  return row ? toSubscription(row) : null;
}

/** Deletes (hides and stops) a subscription; its pending deliveries are given up. Returns false when unknown. */
export async function deleteSubscription(
  db: Kysely<DatabaseSchema>,
  clientId: string,
  subscriptionId: string,
  now: Date,
): Promise<boolean> {
  return deleteSubscriptionOfKind(db, WEBHOOK, clientId, subscriptionId, now);
}

/**
 * Deletes (hides and stops) a client's subscription of one kind (webhook or DCSA event subscription, which share
 * the table and the outbox); its pending deliveries are given up. False when the client has no such subscription.
 */
export async function deleteSubscriptionOfKind(
  db: Kysely<DatabaseSchema>,
  kind: string,
  clientId: string,
  subscriptionId: string,
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('webhook_subscription')
      .set({ status: 'DELETED', updated_at: at })
      .where('subscription_id', '=', subscriptionId)
      .where('client_id', '=', clientId)
      .where('status', '!=', 'DELETED')
      .where('kind', '=', kind)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await giveUpPending(trx, subscriptionId, 'subscription deleted', at);
    return true;
  });
}

/**
 * Stops a subscription (the receiver answered 410 Gone, or its client was
 * disabled): DISABLED with the reason; pending deliveries are given up, but
 * for `attempted`, the one whose own outcome its worker is about to record.
 */
export async function disableSubscription(
  db: Kysely<DatabaseSchema>,
  subscriptionId: string,
  reason: string,
  now: Date,
  attempted?: number,
): Promise<void> {
  const at = now.toISOString();
  await db
    .updateTable('webhook_subscription')
    .set({ status: 'DISABLED', disabled_reason: reason.slice(0, 200), updated_at: at })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'ACTIVE')
    .execute();
  await giveUpPending(db, subscriptionId, reason, at, attempted);
}

/** Gives up the pending deliveries of a subscription (stopped), but for `except`. */
export async function giveUpPending(
  db: Kysely<DatabaseSchema>,
  subscriptionId: string,
  reason: string,
  at: string,
  except?: number,
): Promise<void> {
  let query = db
    .updateTable('webhook_delivery')
    .set({ status: 'FAILED', last_error: reason.slice(0, 500), lease_owner: null, lease_until: null, updated_at: at })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'PENDING');
  if (except !== undefined) query = query.where('id', '!=', except);
  await query.execute();
}

/**
 * A new signing secret; the previous one keeps signing (a second v1 in the
 * signature header) until `previousValidUntil`, so receivers can switch
 * without dropping deliveries. Returns the updated subscription, or null.
 */
export async function rotateSubscriptionSecret(
  db: Kysely<DatabaseSchema>,
  clientId: string,
  subscriptionId: string,
  sealedSecret: string,
  previousValidUntil: Date,
  now: Date,
): Promise<WebhookSubscription | null> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('webhook_subscription')
      .select(['secret_ciphertext'])
      .where('subscription_id', '=', subscriptionId)
      .where('client_id', '=', clientId)
      .where('status', '!=', 'DELETED')
      .where('kind', '=', WEBHOOK)
      .executeTakeFirst();
    if (!row) return null;
    await trx
      .updateTable('webhook_subscription')
      .set({
        secret_ciphertext: sealedSecret,
        previous_secret_ciphertext: row.secret_ciphertext,
        previous_secret_expires_at: previousValidUntil.toISOString(),
        updated_at: now.toISOString(),
      })
      .where('subscription_id', '=', subscriptionId)
      .execute();
    const updated = await trx
      .selectFrom('webhook_subscription')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .executeTakeFirstOrThrow();
    return toSubscription(updated);
  });
}

/** An operator's view: every subscription (not deleted), with its owner; newest first. */
export async function listAllSubscriptions(
  db: Kysely<DatabaseSchema>,
  filter: { clientId?: string; status?: SubscriptionStatus; limit: number },
): Promise<(WebhookSubscription & { clientID: string; accountID: string })[]> {
  let query = db.selectFrom('webhook_subscription').selectAll().where('status', '!=', 'DELETED');
  if (filter.clientId) query = query.where('client_id', '=', filter.clientId);
  if (filter.status) query = query.where('status', '=', filter.status);
  const rows = await query.orderBy('created_at', 'desc').orderBy('subscription_id').limit(filter.limit).execute();
  return rows.map((row) => ({ ...toSubscription(row), clientID: row.client_id, accountID: row.account_id }));
}

/** A client's active subscriptions (the per-client cap). */
export async function countActiveSubscriptions(db: Kysely<DatabaseSchema>, clientId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_subscription')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('client_id', '=', clientId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every sealed signing secret, for a pepper rotation (docs/operating.md "Rotating TT_SECRET_PEPPER"). */
export async function listSealedSubscriptionSecrets(db: Kysely<DatabaseSchema>) {
  return db
    .selectFrom('webhook_subscription')
    .select(['subscription_id', 'secret_ciphertext', 'previous_secret_ciphertext'])
    .where('status', '!=', 'DELETED')
    .orderBy('subscription_id')
    .execute();
}

export async function updateSealedSubscriptionSecrets(
  db: Kysely<DatabaseSchema>,
  subscriptionId: string,
  set: { secret_ciphertext?: string; previous_secret_ciphertext?: string },
): Promise<void> {
  await db.updateTable('webhook_subscription').set(set).where('subscription_id', '=', subscriptionId).execute();
}

/** What sending to one of the client's subscriptions outside the outbox needs (a test delivery, a redelivery). */
export interface SendingSubscription {
  subscriptionId: string;
  clientId: string;
  accountId: string;
  /** The shipment, or ACCOUNT_WIDE. */
  shipmentId: number;
  callbackUrl: string;
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: string | null;
}

/** One of the client's webhook subscriptions (not deleted) with its sealed secrets, or null. */
export async function getSendingSubscription(
  db: Kysely<DatabaseSchema>,
  clientId: string,
  subscriptionId: string,
): Promise<SendingSubscription | null> {
  const row = await db
    .selectFrom('webhook_subscription')
    .select([
      'subscription_id',
      'client_id',
      'account_id',
      'shipment_id',
      'callback_url',
      'secret_ciphertext',
      'previous_secret_ciphertext',
      'previous_secret_expires_at',
    ])
    .where('subscription_id', '=', subscriptionId)
    .where('client_id', '=', clientId)
    .where('status', '!=', 'DELETED')
    .where('kind', '=', WEBHOOK)
    .executeTakeFirst();
  if (!row) return null;
  return {
    subscriptionId: row.subscription_id,
    clientId: row.client_id,
    accountId: row.account_id,
    shipmentId: row.shipment_id,
    callbackUrl: row.callback_url,
    secretCiphertext: row.secret_ciphertext,
    previousSecretCiphertext: row.previous_secret_ciphertext,
    previousSecretExpiresAt: row.previous_secret_expires_at,
  };
}
