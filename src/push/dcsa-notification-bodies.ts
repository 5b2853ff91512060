import type { Kysely } from 'kysely';
import { READ_SCOPE } from '../auth/scopes.js';
import type { DatabaseSchema } from '../db/schema.js';
import { toDcsaEvent } from '../domain/dcsa/dcsa-events.js';
import { EVENTS_DOCUMENT } from '../executor/event-documents.js';
import type { Executor } from '../executor/executor.js';
import { runDocument } from '../executor/run-document.js';
import { notificationEventIds } from '../store/push/dcsa-outbox.js';
import { DCSA_KIND } from '../store/push/dcsa-subscriptions.js';
import type { ClaimedDelivery } from '../store/push/delivery-queue.js';
import type { DeliveryWorkerOptions } from './delivery-worker.js';
import type { PushBody } from './transmission-bodies.js';

/**
 * The bodies of DCSA notifications (docs/dcsa-events.md: Consuming the service as a DCSA publisher): the JSON array of the
 * notification's events in 2.2 spelling, rendered when sent by the `events` field, as the subscription's owner,
 * so the tenant rule holds at every send (an event whose shipment the account no longer sees is left out; a
 * notification left with none is given up, the subscription goes on). Webhook deliveries go to `webhooks`.
 */

const NOTIFICATION_REQUEST = 'http://push.internal/v2/events';

export function withDcsaNotifications(
  webhooks: DeliveryWorkerOptions['bodies'],
  executor: Executor,
  db: Kysely<DatabaseSchema>,
): DeliveryWorkerOptions['bodies'] {
  return async (deliveries, pace) => {
    const dcsa = deliveries.filter((d) => d.kind === DCSA_KIND);
    const bodies = new Map<number, PushBody | Promise<PushBody>>(
      await webhooks(
        deliveries.filter((d) => d.kind !== DCSA_KIND),
        pace,
      ),
    );
    if (dcsa.length === 0) return bodies;
    const eventIds = await notificationEventIds(
      db,
      dcsa.map((d) => d.id),
    );
    for (const d of dcsa) bodies.set(d.id, render(d, eventIds.get(d.id) ?? [], pace));
    return bodies;
  };

  async function render(delivery: ClaimedDelivery, eventIDs: string[], pace: () => Promise<void>): Promise<PushBody> {
    await pace();
    try {
      const result = await runDocument<{ events: { events: Record<string, unknown>[] } }>(executor, {
        request: new Request(NOTIFICATION_REQUEST),
        ...EVENTS_DOCUMENT,
        variables: { eventIDs, limit: Math.max(1, eventIDs.length) },
        context: { asPrincipal: { clientId: delivery.clientId, accountIds: [delivery.accountId], scopes: [READ_SCOPE] } },
      });
      const error = result.errors?.[0];
      if (error || !result.data) return { ok: false, permanent: false, reason: `notification failed: ${error?.message ?? 'no data'}` };
      // In the order they were stored (the notification's order), not the page's.
      const byId = new Map(result.data.events.events.map((e) => [e.eventID as string, e]));
      const events = eventIDs.flatMap((id) => {
        const event = byId.get(id);
        return event ? [toDcsaEvent(event)] : [];
      });
      if (events.length === 0) {
        return { ok: false, permanent: false, final: true, reason: "none of its events is visible to the subscription's account any more" };
      }
      return { ok: true, body: JSON.stringify(events) };
    } catch (err) {
      return { ok: false, permanent: false, reason: `notification failed: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
}
