import type { ColumnType, Generated } from 'kysely';

/** One reference fetched from one carrier, shared by every tracking request for it (migration 014). */
export interface TrackingFetchTable {
  id: Generated<number>;
  carrier_code: string;
  /** TRD (bill of lading), BKG (carrier booking), EQ (container). */
  reference_kind: string;
  reference: string;
  /** PENDING, TRACKING, AWAITING_CARRIER_DATA, FAILED, STOPPED. */
  status: string;
  /** Why it FAILED (or the last fetch error while it waits). */
  status_reason: string | null;
  /** When STOPPED: COMPLETED or GIVEN_UP (DELETED is a request's own). */
  stop_reason: string | null;
  status_changed_at: string;
  /** The shipment the carrier's events made or matched, once found. */
  shipment_id: number | null;
  /** The newest eventCreatedDateTime received; the next fetch asks from it minus the overlap. */
  watermark: string | null;
  /** Distinct events received for the reference so far. */
  events_seen: ColumnType<number, number | undefined, number>;
  /** When it was (last) asked for: the give-up time counts from here. */
  requested_at: string;
  found_at: string | null;
  /** When a fetch last brought a new event. */
  last_change_at: string | null;
  /** The best expected time of the next milestone not yet actual (src/domain/tracking-cadence.ts), from the shipment's events. */
  next_milestone_at: string | null;
  /** When the shipment arrived at its port of discharge (an actual), else null. */
  arrived_at: string | null;
  next_fetch_at: string;
  lease_owner: string | null;
  lease_until: string;
  consecutive_failures: ColumnType<number, number | undefined, number>;
  last_fetched_at: string | null;
  last_error: string | null;
  fetches: ColumnType<number, number | undefined, number>;
}

/** One client's tracking request (migration 014). */
export interface TrackingRequestTable {
  /** UUID, served as trackingRequestID. */
  id: string;
  client_id: string;
  /** JSON array of the client's account ids when it asked: the accounts the shipment is granted to. */
  account_ids: string;
  fetch_id: number;
  carrier_code: string;
  reference_kind: string;
  reference: string;
  /** '-' while active; the request's id once stopped (one active request per client and reference). */
  active_key: string;
  created_at: string;
  updated_at: string;
  stopped_at: string | null;
  /** DELETED when the client stopped it. */
  stop_reason: string | null;
}
