import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { passesTriggerFilter, triggerFilterOf, type PushTrigger, type TriggerFilter } from '../../domain/push/push-triggers.js';
import { chunks } from '../batching/chunks.js';
import { storedChangeShipmentId } from '../encoding/change-log-forms.js';
import { ACCOUNT_WIDE, WEBHOOK_KIND } from './webhook-subscriptions.js';

/**
 * The transactional outbox of push delivery (docs/architecture.md, Push). Called in
 * the transaction that caused the triggers (ingest, evaluation, an operator
 * clear), so a committed change has its deliveries and a rolled-back one has
 * none: one change_log row per trigger (what live GraphQL subscriptions
 * tail) and one webhook_delivery row per trigger per active subscription of
 * the shipment, or account-wide subscription of an account that sees it, whose filters it passes.
 */
export async function enqueuePushTriggers(
  db: Kysely<DatabaseSchema>,
  triggersByShipment: ReadonlyMap<number, readonly PushTrigger[]>,
  now: Date,
): Promise<{ changes: number; deliveries: number }> {
  const at = now.toISOString();
  const shipmentIds = [...triggersByShipment.entries()].filter(([, t]) => t.length > 0).map(([id]) => id);
  if (shipmentIds.length === 0) return { changes: 0, deliveries: 0 };

  const changes = shipmentIds.flatMap((shipmentId) =>
    (triggersByShipment.get(shipmentId) ?? []).map((t) => ({
      // A SHIPMENT_MERGED is held until the upgrade is finished (src/store/encoding/change-log-forms.ts).
      shipment_id: storedChangeShipmentId(db, shipmentId, t.triggerType),
      trigger_type: t.triggerType,
      triggered_by_event: t.eventID,
      exception_id: t.exceptionID,
      created_at: at,
    })),
  );
  for (const batch of chunks(changes, 500)) await db.insertInto('change_log').values(batch).execute();

  // Who follows which shipment: its own subscriptions, and the account-wide ones of the accounts that see it.
  const followers: Follower[] = [];
  for (const ids of chunks(shipmentIds)) {
    const subscriptions = await db
      .selectFrom('webhook_subscription')
      .select(['subscription_id', 'shipment_id', 'trigger_types', 'exception_types', 'carrier_codes'])
      .where('shipment_id', 'in', ids)
      .where('status', '=', 'ACTIVE')
      .execute();
    for (const s of subscriptions)
      followers.push({ subscriptionId: s.subscription_id, shipmentId: s.shipment_id, filter: triggerFilterOf(s) });
  }
  followers.push(...(await accountWideFollowers(db, shipmentIds)));
  // The shipments' carriers only when a subscription filters on them.
  const carriers = followers.some((f) => f.filter.carrierCodes) ? await carriersOf(db, shipmentIds) : new Map<number, string>();
  const deliveries: ReturnType<typeof deliveryRow>[] = [];
  for (const f of followers) {
    for (const t of triggersByShipment.get(f.shipmentId) ?? []) {
      if (passesTriggerFilter(f.filter, t, carriers.get(f.shipmentId))) deliveries.push(deliveryRow(f.subscriptionId, f.shipmentId, t, at));
    }
  }
  // By shipment: the deliveries of one shipment get neighbouring ids, so a worker's round (claimed in id
  // order) holds few shipments and renders each snapshot once for all their subscribers. Within a
  // subscription, the triggers keep the order they happened in (a stable sort).
  deliveries.sort((a, b) => a.shipment_id - b.shipment_id || compare(a.subscription_id, b.subscription_id));
  for (const batch of chunks(deliveries, 500)) await db.insertInto('webhook_delivery').values(batch).execute();
  return { changes: changes.length, deliveries: deliveries.length };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Each shipment's carrier (what carrierCodes filters match). */
async function carriersOf(db: Kysely<DatabaseSchema>, shipmentIds: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const ids of chunks([...shipmentIds])) {
    const rows = await db.selectFrom('shipment').select(['id', 'carrier_code']).where('id', 'in', ids).execute();
    for (const r of rows) out.set(r.id, r.carrier_code);
  }
  return out;
}

interface Follower {
  subscriptionId: string;
  shipmentId: number;
  filter: TriggerFilter;
}

/**
 * The account-wide subscriptions following these shipments (docs/account-feed.md): every active WEBHOOK
 * subscription with no shipment whose account sees the shipment now (shipment_account as this transaction
 * sees it, so a shipment linked to the account after the subscription was made is covered).
 */
async function accountWideFollowers(db: Kysely<DatabaseSchema>, shipmentIds: readonly number[]): Promise<Follower[]> {
  // Most changes meet no account-wide subscription at all: one indexed read, and nothing else.
  const any = await db
    .selectFrom('webhook_subscription')
    .select('subscription_id')
    .where('kind', '=', WEBHOOK_KIND)
    .where('status', '=', 'ACTIVE')
    .where('shipment_id', '=', ACCOUNT_WIDE)
    .limit(1)
    .executeTakeFirst();
  if (!any) return [];
  const shipmentsOf = new Map<string, number[]>();
  for (const ids of chunks([...shipmentIds])) {
    const rows = await db.selectFrom('shipment_account').select(['shipment_id', 'account_id']).where('shipment_id', 'in', ids).execute();
    for (const r of rows) shipmentsOf.set(r.account_id, [...(shipmentsOf.get(r.account_id) ?? []), r.shipment_id]);
  }
  const out: Follower[] = [];
  for (const accounts of chunks([...shipmentsOf.keys()])) {
    const subscriptions = await db
      .selectFrom('webhook_subscription')
      .select(['subscription_id', 'account_id', 'trigger_types', 'exception_types', 'carrier_codes'])
      .where('kind', '=', WEBHOOK_KIND)
      .where('status', '=', 'ACTIVE')
      .where('account_id', 'in', accounts)
      .where('shipment_id', '=', ACCOUNT_WIDE)
      .execute();
    for (const s of subscriptions) {
      const filter = triggerFilterOf(s);
      for (const shipmentId of shipmentsOf.get(s.account_id) ?? []) out.push({ subscriptionId: s.subscription_id, shipmentId, filter });
    }
  }
  return out;
}

export function deliveryRow(subscriptionId: string, shipmentId: number, trigger: PushTrigger, at: string) {
  return {
    delivery_id: randomUUID(),
    subscription_id: subscriptionId,
    shipment_id: shipmentId,
    trigger_type: trigger.triggerType,
    triggered_by_event: trigger.eventID,
    exception_id: trigger.exceptionID,
    status: 'PENDING',
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  };
}
