import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { passesTriggerFilter, triggerFilterOf, type AccessTriggerType } from '../../domain/push/push-triggers.js';
import { chunks } from '../batching/chunks.js';
import { storedChangeShipmentId } from '../encoding/change-log-forms.js';
import { deliveryRow } from '../push/push-outbox.js';
import { ACCOUNT_WIDE, WEBHOOK_KIND } from '../push/webhook-subscriptions.js';

/**
 * Grants and revokes are changes (docs/account-feed.md): written by whoever changes shipment_account (an ingest
 * naming accounts, src/store/shipment-writes/write-shipments.ts; an operator, src/store/access/shipment-access.ts), in the same
 * transaction, so a committed grant has its change and a rolled-back one none.
 *
 * Each is one change_log row carrying its account (src/store/changes/change-log.ts gives it to that account's readers
 * only, in commit order with every other change: the writer holds the shipment's row, as writers of the
 * shipment's own changes do) and one delivery per active account-wide webhook subscription of that account
 * whose filters it passes. A per-shipment subscription never gets them: it needs the access a GRANTED gives,
 * and a revoke disables it. DCSA event subscriptions get a granted shipment's past events instead
 * (src/store/push/dcsa-outbox.ts, enqueueGrantedEvents).
 */

export interface AccessChange {
  shipmentId: number;
  accountId: string;
  triggerType: AccessTriggerType;
}

export async function recordAccessChanges(
  db: Kysely<DatabaseSchema>,
  changes: readonly AccessChange[],
  now: Date,
): Promise<{ changes: number; deliveries: number }> {
  if (changes.length === 0) return { changes: 0, deliveries: 0 };
  const at = now.toISOString();
  const rows = changes.map((c) => ({
    // Held until the upgrade is finished: release 0.4.0 never reads it (src/store/encoding/change-log-forms.ts).
    shipment_id: storedChangeShipmentId(db, c.shipmentId, c.triggerType),
    account_id: c.accountId,
    trigger_type: c.triggerType,
    triggered_by_event: null,
    exception_id: null,
    created_at: at,
  }));
  for (const batch of chunks(rows, 500)) await db.insertInto('change_log').values(batch).execute();

  const accounts = [...new Set(changes.map((c) => c.accountId))];
  const subscriptions = [];
  for (const batch of chunks(accounts)) {
    subscriptions.push(
      ...(await db
        .selectFrom('webhook_subscription')
        .select(['subscription_id', 'account_id', 'trigger_types', 'exception_types', 'carrier_codes'])
        .where('kind', '=', WEBHOOK_KIND)
        .where('status', '=', 'ACTIVE')
        .where('shipment_id', '=', ACCOUNT_WIDE)
        .where('account_id', 'in', batch)
        .orderBy('subscription_id')
        .execute()),
    );
  }
  if (subscriptions.length === 0) return { changes: rows.length, deliveries: 0 };
  const carriers = new Map<number, string>();
  for (const ids of chunks([...new Set(changes.map((c) => c.shipmentId))])) {
    const shipments = await db.selectFrom('shipment').select(['id', 'carrier_code']).where('id', 'in', ids).execute();
    for (const s of shipments) carriers.set(s.id, s.carrier_code);
  }
  const deliveries: ReturnType<typeof deliveryRow>[] = [];
  for (const c of changes) {
    const trigger = { triggerType: c.triggerType, eventID: null, exceptionID: null };
    for (const s of subscriptions) {
      if (s.account_id !== c.accountId) continue;
      if (passesTriggerFilter(triggerFilterOf(s), trigger, carriers.get(c.shipmentId))) {
        deliveries.push(deliveryRow(s.subscription_id, c.shipmentId, trigger, at));
      }
    }
  }
  for (const batch of chunks(deliveries, 500)) await db.insertInto('webhook_delivery').values(batch).execute();
  return { changes: rows.length, deliveries: deliveries.length };
}

/** What a REVOKED change says of its shipment: its identifiers, nothing more (by shipment id). */
export async function shipmentIdentifiers(
  db: Kysely<DatabaseSchema>,
  ids: readonly number[],
): Promise<Map<number, { carrierCode: string; carrierBookingReference: string; billOfLadingNumber: string | null }>> {
  const out = new Map<number, { carrierCode: string; carrierBookingReference: string; billOfLadingNumber: string | null }>();
  for (const batch of chunks([...ids])) {
    const rows = await db
      .selectFrom('shipment')
      .select(['id', 'carrier_code', 'carrier_booking_reference', 'bill_of_lading_number'])
      .where('id', 'in', batch)
      .execute();
    for (const r of rows) {
      out.set(r.id, {
        carrierCode: r.carrier_code,
        carrierBookingReference: r.carrier_booking_reference,
        billOfLadingNumber: r.bill_of_lading_number,
      });
    }
  }
  return out;
}
