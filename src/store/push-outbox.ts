import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';
import type { PushTrigger, PushTriggerType } from '../domain/push/push-triggers.js';
import { chunks } from './chunked-state.js';

/**
 * The transactional outbox of push delivery (docs/architecture.md, Push). Called in
 * the transaction that caused the triggers (ingest, evaluation, an operator
 * clear), so a committed change has its deliveries and a rolled-back one has
 * none: one change_log row per trigger (what live GraphQL subscriptions
 * tail) and one webhook_delivery row per trigger per active subscription of
 * the shipment that asked for its triggerType.
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
      shipment_id: shipmentId,
      trigger_type: t.triggerType,
      triggered_by_event: t.eventID,
      exception_id: t.exceptionID,
      created_at: at,
    })),
  );
  for (const batch of chunks(changes, 500)) await db.insertInto('change_log').values(batch).execute();

  const deliveries = [];
  for (const ids of chunks(shipmentIds)) {
    const subscriptions = await db
      .selectFrom('webhook_subscription')
      .select(['subscription_id', 'shipment_id', 'trigger_types'])
      .where('shipment_id', 'in', ids)
      .where('status', '=', 'ACTIVE')
      // By shipment: the deliveries of one shipment get neighbouring ids, so a worker's round (claimed in id
      // order) holds few shipments and renders each snapshot once for all their subscribers.
      .orderBy('shipment_id')
      .orderBy('subscription_id')
      .execute();
    for (const s of subscriptions) {
      const wanted = new Set(s.trigger_types.split(',') as PushTriggerType[]);
      for (const t of triggersByShipment.get(s.shipment_id) ?? []) {
        if (!wanted.has(t.triggerType)) continue;
        deliveries.push(deliveryRow(s.subscription_id, s.shipment_id, t, at));
      }
    }
  }
  for (const batch of chunks(deliveries, 500)) await db.insertInto('webhook_delivery').values(batch).execute();
  return { changes: changes.length, deliveries: deliveries.length };
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
