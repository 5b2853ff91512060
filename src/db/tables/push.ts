import type { ColumnType, Generated } from 'kysely';

/** A webhook subscription (docs/architecture.md, Push): one client's callback for one shipment. */
export interface WebhookSubscriptionTable {
  subscription_id: string;
  /** The API client that owns it; deliveries stop when the client is disabled. */
  client_id: string;
  /** The owner's account at creation: the shipment must stay visible to it. */
  account_id: string;
  /** The shipment the request's lookup resolved to at creation; the subscription follows it. */
  shipment_id: number;
  carrier_code: string | null;
  carrier_booking_reference: string | null;
  bill_of_lading_number: string | null;
  equipment_reference: string | null;
  callback_url: string;
  /** Comma-separated TriggerType values. */
  trigger_types: string;
  scheduled_interval_seconds: number | null;
  next_scheduled_at: string | null;
  /** ACTIVE, DISABLED (the receiver answered 410, or the client was disabled) or DELETED. */
  status: string;
  disabled_reason: string | null;
  /** The signing secret, encrypted (src/auth/secret-box.ts). */
  secret_ciphertext: string;
  /** During a rotation's overlap: the previous secret, still signing until previous_secret_expires_at. */
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /**
   * WEBHOOK (one shipment's Transmissions) or DCSA (a DCSA Track & Trace 2.2 event subscription: events of every
   * shipment its account sees that pass `filters_json`; shipment_id 0). Both ride the same outbox.
   */
  kind: ColumnType<string, string | undefined, string>;
  /** A DCSA subscription's filters (src/domain/dcsa/dcsa-event-filter.ts), as JSON. */
  filters_json: string | null;
  /** When the callback URL last answered the DCSA HEAD check; null until then (and after it changes). */
  callback_checked_at: string | null;
  /** A WEBHOOK subscription's exceptionTypes filter, comma-separated; null: every exception type (migration 011). */
  exception_types: ColumnType<string | null, string | null | undefined, string | null>;
  /** A WEBHOOK subscription's carrierCodes filter, comma-separated; null: every carrier (migration 011). */
  carrier_codes: ColumnType<string | null, string | null | undefined, string | null>;
  /** PREDICTED_ARRIVAL's shift threshold, whole hours; null: none (migration 031). */
  predicted_shift_hours: ColumnType<number | null, number | null | undefined, number | null>;
  /** PREDICTED_ARRIVAL's lateness threshold, whole hours; null: none (migration 031). */
  predicted_lateness_hours: ColumnType<number | null, number | null | undefined, number | null>;
}

/** What was last pushed of the predicted arrival, per subscription and shipment (migration 031): the guard of "once". */
export interface PredictedArrivalMarkTable {
  subscription_id: string;
  shipment_id: number;
  /** The predicted arrival last pushed (or first evaluated), ISO. */
  estimate: string;
  /** 1 when that prediction was late by the subscription's lateness threshold. */
  late: number;
  /** Bumped by every write; a write is conditioned on the revision it read. */
  revision: number;
  updated_at: string;
}

/** The events of one DCSA notification in the outbox (webhook_delivery of a DCSA subscription), in order. */
export interface DcsaNotificationEventTable {
  /** webhook_delivery.id */
  delivery_id: number;
  position: number;
  event_seq: number;
}

/** The outbox: one row per delivery of one transition to one subscription, written with the transition. */
export interface WebhookDeliveryTable {
  /** Order of enqueueing; deliveries of one subscription are sent in this order. */
  id: Generated<number>;
  delivery_id: string;
  subscription_id: string;
  shipment_id: number;
  trigger_type: string;
  triggered_by_event: string | null;
  exception_id: string | null;
  /** Assigned at the first attempt and kept by retries, so receivers de-duplicate on it. */
  transmission_id: string | null;
  /** PENDING, DELIVERED or FAILED. */
  status: string;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  /** The worker holding it while it is being sent, and until when. */
  lease_owner: string | null;
  lease_until: string | null;
  /** HTTP status of the last attempt (null when it got no answer). */
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  updated_at: string;
}

/**
 * Every push transition, written in the transaction that caused it: what every cursor-keeping reader reads
 * (live GraphQL subscriptions of every instance, and later feeds), in (commit_seq, id) order.
 */
export interface ChangeLogTable {
  /** Order of insertion; not commit order (docs/architecture.md, Change log). */
  id: Generated<number>;
  /** The ordering batch that numbered the row once it was committed (src/store/changes/change-order.ts); null until then. */
  commit_seq: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * The shipment; negated for a GRANTED, REVOKED or SHIPMENT_MERGED written before the upgrade to 0.5.0 was
   * finished (held, so that 0.4.0 never reads it: src/store/encoding/change-log-forms.ts).
   */
  shipment_id: number;
  trigger_type: string;
  triggered_by_event: string | null;
  exception_id: string | null;
  created_at: string;
  /** GRANTED and REVOKED: the account the change is for (only its readers get it); null for a change of the shipment. */
  account_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One row (id 1): the last ordering batch of change_log, and the position up to which old rows were pruned. */
export interface ChangeSequenceTable {
  id: number;
  last_seq: number;
  pruned_seq: number;
  pruned_id: number;
}
