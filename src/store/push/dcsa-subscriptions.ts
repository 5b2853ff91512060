import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import type { WebhookSubscriptionTable } from '../../db/tables/push.js';
import type { EventFilter } from '../../domain/dcsa/dcsa-event-filter.js';
import { deleteSubscriptionOfKind } from './webhook-subscriptions.js';
import { inTransaction } from '../../db/retry-transaction.js';

/**
 * DCSA Track & Trace 2.2 event subscriptions (docs/dcsa-events.md: Consuming the service as a DCSA publisher), kept in
 * webhook_subscription with kind DCSA so that their notifications ride the webhook outbox. A subscription is its
 * owner client's alone: other clients, even of the same account, do not see it (as webhook subscriptions).
 */

export const DCSA_KIND = 'DCSA';
/** webhook_subscription.trigger_types and webhook_delivery.trigger_type of DCSA notifications. */
export const DCSA_NOTIFICATION = 'DCSA_NOTIFICATION';

export interface DcsaSubscription {
  subscriptionID: string;
  callbackUrl: string;
  filter: EventFilter;
  status: 'ACTIVE' | 'DISABLED';
  createdDateTime: string;
  updatedDateTime: string;
}

type Row = Selectable<WebhookSubscriptionTable>;

function toSubscription(row: Row): DcsaSubscription {
  return {
    subscriptionID: row.subscription_id,
    callbackUrl: row.callback_url,
    filter: JSON.parse(row.filters_json ?? '{}') as EventFilter,
    status: row.status as DcsaSubscription['status'],
    createdDateTime: row.created_at,
    updatedDateTime: row.updated_at,
  };
}

export async function createDcsaSubscription(
  db: Kysely<DatabaseSchema>,
  input: { clientId: string; accountId: string; callbackUrl: string; filter: EventFilter; sealedSecret: string; now: Date },
): Promise<DcsaSubscription> {
  const at = input.now.toISOString();
  const row: Row = {
    subscription_id: randomUUID(),
    client_id: input.clientId,
    account_id: input.accountId,
    // Not one shipment's: every shipment the account sees (the webhook outbox never matches shipment 0).
    shipment_id: 0,
    carrier_code: null,
    carrier_booking_reference: null,
    bill_of_lading_number: null,
    equipment_reference: null,
    callback_url: input.callbackUrl,
    trigger_types: DCSA_NOTIFICATION,
    scheduled_interval_seconds: null,
    next_scheduled_at: null,
    status: 'ACTIVE',
    disabled_reason: null,
    secret_ciphertext: input.sealedSecret,
    previous_secret_ciphertext: null,
    previous_secret_expires_at: null,
    created_at: at,
    updated_at: at,
    kind: DCSA_KIND,
    filters_json: JSON.stringify(input.filter),
    callback_checked_at: null,
    exception_types: null,
    carrier_codes: null,
    predicted_shift_hours: null,
    predicted_lateness_hours: null,
  };
  await db.insertInto('webhook_subscription').values(row).execute();
  return toSubscription(row);
}

function owned(db: Kysely<DatabaseSchema>, clientId: string) {
  return db
    .selectFrom('webhook_subscription')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('kind', '=', DCSA_KIND)
    .where('status', '!=', 'DELETED');
}

export type DcsaSubscriptionSort = { field: 'subscriptionID' | 'callbackUrl' | 'createdDateTime'; descending: boolean }[];

/** A page of the client's subscriptions (not deleted), and how many there are in all. */
export async function listDcsaSubscriptions(
  db: Kysely<DatabaseSchema>,
  clientId: string,
  page: { offset: number; limit: number; sort: DcsaSubscriptionSort },
): Promise<{ subscriptions: DcsaSubscription[]; total: number }> {
  const column = { subscriptionID: 'subscription_id', callbackUrl: 'callback_url', createdDateTime: 'created_at' } as const;
  let query = owned(db, clientId);
  for (const key of page.sort) query = query.orderBy(column[key.field], key.descending ? 'desc' : 'asc');
  const rows = await query.orderBy('subscription_id').offset(page.offset).limit(page.limit).execute();
  const count = await db
    .selectFrom('webhook_subscription')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('client_id', '=', clientId)
    .where('kind', '=', DCSA_KIND)
    .where('status', '!=', 'DELETED')
    .executeTakeFirstOrThrow();
  return { subscriptions: rows.map(toSubscription), total: Number(count.n) };
}

export async function getDcsaSubscription(db: Kysely<DatabaseSchema>, clientId: string, id: string): Promise<DcsaSubscription | null> {
  const row = await owned(db, clientId).where('subscription_id', '=', id).executeTakeFirst();
  return row ? toSubscription(row) : null;
}

/**
 * Replaces a subscription's callback and filters (DCSA PUT). A subscription disabled by its receiver (410) is
 * active again; a new callback URL is checked again (HEAD) before its first delivery. Null when unknown.
 */
export async function updateDcsaSubscription(
  db: Kysely<DatabaseSchema>,
  clientId: string,
  id: string,
  change: { callbackUrl: string; filter: EventFilter; now: Date },
): Promise<DcsaSubscription | null> {
  return inTransaction(db, async (trx) => {
    const current = await owned(trx, clientId).where('subscription_id', '=', id).executeTakeFirst();
    if (!current) return null;
    await trx
      .updateTable('webhook_subscription')
      .set({
        callback_url: change.callbackUrl,
        filters_json: JSON.stringify(change.filter),
        status: 'ACTIVE',
        disabled_reason: null,
        ...(current.callback_url !== change.callbackUrl ? { callback_checked_at: null } : {}),
        updated_at: change.now.toISOString(),
      })
      .where('subscription_id', '=', id)
      .execute();
    const updated = await owned(trx, clientId).where('subscription_id', '=', id).executeTakeFirstOrThrow();
    return toSubscription(updated);
  });
}

/** Deletes (hides and stops) a subscription; its pending notifications are given up. False when unknown. */
export async function deleteDcsaSubscription(db: Kysely<DatabaseSchema>, clientId: string, id: string, now: Date): Promise<boolean> {
  return deleteSubscriptionOfKind(db, DCSA_KIND, clientId, id, now);
}

/** A new secret (DCSA PUT …/secret): notifications are signed with it from the next one on. False when unknown. */
export async function updateDcsaSecret(
  db: Kysely<DatabaseSchema>,
  clientId: string,
  id: string,
  sealedSecret: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_subscription')
    .set({ secret_ciphertext: sealedSecret, updated_at: now.toISOString() })
    .where('subscription_id', '=', id)
    .where('client_id', '=', clientId)
    .where('kind', '=', DCSA_KIND)
    .where('status', '!=', 'DELETED')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Records that the callback URL answered the HEAD check (unless it changed meanwhile). */
export async function markCallbackChecked(db: Kysely<DatabaseSchema>, id: string, callbackUrl: string, now: Date): Promise<void> {
  await db
    .updateTable('webhook_subscription')
    .set({ callback_checked_at: now.toISOString() })
    .where('subscription_id', '=', id)
    .where('callback_url', '=', callbackUrl)
    .execute();
}
