import type { ColumnType, Generated } from 'kysely';

/** A carrier configured as an event source (migrations 006, 009, 014, 017, 019). */
export interface CarrierSourceTable {
  /** SCAC / carrier code, as events of this carrier are stored under. */
  carrier_code: string;
  name: string;
  /** ACTIVE or DISABLED. */
  status: string;
  /** The DCSA notification secret (Base64), sealed (src/auth/secret-box.ts). */
  notification_secret_ciphertext: string;
  /** The carrier's DCSA `GET /v2/events` address; null when it only pushes. */
  events_url: string | null;
  /** Sealed JSON of the events endpoint's credentials (EventsAuth), null for none. */
  events_auth_ciphertext: string | null;
  poll_interval_seconds: number;
  created_at: string;
  updated_at: string;
  secret_rotated_at: string;
  disabled_at: string | null;
  /** After a rotation with an overlap: the previous notification secret, verifying until previous_secret_expires_at. */
  previous_secret_ciphertext: ColumnType<string | null, string | null | undefined, string | null>;
  previous_secret_expires_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** After new events credentials with an overlap: the previous ones, tried when the new are refused, until previous_auth_expires_at. */
  previous_auth_ciphertext: ColumnType<string | null, string | null | undefined, string | null>;
  previous_auth_expires_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Prefixes (comma-separated) by which a tracked reference names this carrier (migration 014); null: its carrier code. */
  reference_prefixes: ColumnType<string | null, string | null | undefined, string | null>;
  /** No call to the carrier before this time, on any instance (migration 017): its Retry-After, or our back-off after repeated 5xx. */
  backoff_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why the back-off holds (the carrier's answer). */
  backoff_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** Calls in a row whose tries were spent on 5xx or no answer (the service's own back-off doubles with each). */
  backoff_failures: ColumnType<number, number | undefined, number>;
  /** The EDI formats the carrier sends, comma-separated (`x12-315`, `iftsta`; migration 019); null: DCSA only. */
  edi_formats: ColumnType<string | null, string | null | undefined, string | null>;
  /** How its EDI times without a zone code are read (migration 025): `utc`; null: the local time of the location. */
  edi_times: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An EDI interchange taken in (migration 019): a re-sent one (same format, sender and control number) is a no-op. */
export interface EdiInterchangeTable {
  id: Generated<number>;
  /** `x12-315` or `iftsta`. */
  format: string;
  /** ISA05:ISA06 or UNB 0004(:0007), trimmed. */
  sender_id: string;
  /** ISA13 or UNB 0020. */
  control_number: string;
  carrier_code: string;
  received_at: string;
  transactions: number;
  transactions_rejected: number;
  events_stored: number;
}

/** The poller's state of one carrier, shared by every instance. */
export interface CarrierPollStateTable {
  carrier_code: string;
  /** eventCreatedDateTime up to which every event is stored; the next poll asks from here minus the overlap. */
  watermark: string;
  next_poll_at: string;
  /** The poller holding the carrier, until lease_until (an expired lease is free). */
  lease_owner: string | null;
  lease_until: string;
  consecutive_failures: number;
  last_polled_at: string | null;
  last_error: string | null;
  /** Events received by polls so far (stored or already stored). */
  events_polled: number;
}
