import type { Kysely } from 'kysely';
import { writesCompact } from './write-forms.js';

/**
 * How a change_log row names its shipment (docs/upgrading.md, Expand, then contract: access changes).
 *
 * Release 0.4.0 reads change_log too, and knows only the changes of a shipment it had (EVENT_TRIGGER, the two
 * exception triggers): its account feed serializes every row of a shipment the account sees through a GraphQL
 * enum without GRANTED, REVOKED or SHIPMENT_MERGED (the page fails), and it ignores `account_id` (one account's
 * GRANTED would show in every account's feed). Every 0.4.0 reader finds rows by their shipment: the account feed
 * by `shipment_account.shipment_id = change_log.shipment_id`, live updates by the followers of `shipment_id`.
 *
 * So until the upgrade is finished (write-forms.ts), a change of these kinds is stored *held*: with its shipment id
 * negated. No shipment has a negative id, so no 0.4.0 reader ever meets the row, while it keeps its place in
 * the one commit order (0.4.0's ordering batches number it like any row) and this release's readers take either
 * form (changeShipmentId). Once finished, the plain form is written, and the contract step 032-plain-access-changes
 * (src/store/changes/held-changes.ts) turns the held rows plain.
 */
export const HELD_CHANGE_TYPES: ReadonlySet<string> = new Set(['GRANTED', 'REVOKED', 'SHIPMENT_MERGED']);

/** The shipment_id a change of `triggerType` is stored with into `db` now: negated (held) until the finish. */
export function storedChangeShipmentId(db: Kysely<any>, shipmentId: number, triggerType: string): number {
  return !writesCompact(db) && HELD_CHANGE_TYPES.has(triggerType) ? -shipmentId : shipmentId;
}

/** The shipment of a stored change_log row, held or plain. */
export function changeShipmentId(stored: number): number {
  return Math.abs(stored);
}

/** The stored shipment_id values a change of these shipments may have: plain and held. */
export function storedShipmentIdsOf(shipmentIds: readonly number[]): number[] {
  return [...shipmentIds, ...shipmentIds.map((id) => -id)];
}
