import type { ColumnType, Generated } from 'kysely';

/** One shipment, keyed by (carrier_code, carrier_booking_reference). */
export interface ShipmentTable {
  id: Generated<number>;
  carrier_code: string;
  carrier_booking_reference: string;
  booking_reference: string | null;
  bill_of_lading_number: string | null;
  /** The ShipmentMaster as JSON (locations, references, names). */
  master_json: string;
  /** Derived at ingest from the event store so that an `eta`-only query is one round trip. */
  etd: string | null;
  eta: string | null;
  /** Bumped on every change to the shipment, its events or its exceptions. */
  version: ColumnType<number, number | undefined, number>;
  /**
   * 1 while a container has a free-time date and has not been returned empty:
   * only such shipments can change with the clock alone, so `tracking evaluate`
   * re-runs the time-based rules for these and no others.
   */
  clock_sensitive: ColumnType<number, number | undefined, number>;
  updated_at: string;
  /**
   * The milestones of the last refresh (see domain/milestone-changes.ts): what
   * a new milestone or a flip to ACT is detected against, for push delivery.
   */
  milestones_json: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The same milestones compressed behind a format byte (migration 023; src/store/shipments/milestones-payload.ts): new
   * refreshes write this and null in milestones_json. Read both through decodeMilestonesJson.
   */
  milestones: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  /**
   * When the master data held was true: the time of the statement that set it
   * (docs/architecture.md, Ingest bundle). Null on shipments stored before
   * migration 009.
   */
  stated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * 1 while carrier_booking_reference is a tracked reference standing in for a booking the carrier's events never
   * named (migration 016; src/store/shipments/shipment-identity.ts).
   */
  booking_stand_in: ColumnType<number, number | undefined, number>;
}

/** A booking reference a shipment was known by and is no more: it keeps naming that shipment (migration 016). */
export interface ShipmentAliasTable {
  carrier_code: string;
  carrier_booking_reference: string;
  shipment_id: number;
  created_at: string;
}

/** A bill of lading of a carrier that an ingest created or re-keyed a shipment under: what such ingests serialize on. */
export interface ShipmentBillOfLadingTable {
  carrier_code: string;
  bill_of_lading_number: string;
  writes: ColumnType<number, number | undefined, number>;
}

/**
 * Digests of the statements about a shipment that carry no time of their own
 * (or a clamped future one), so that a replay of one is recognised.
 */
export interface ShipmentStatementTable {
  shipment_id: number;
  digest: string;
  stated_at: string;
}

/** An account's access to a shipment that an operator took back: no ingest grants it again. */
export interface ShipmentAccountRevocationTable {
  shipment_id: number;
  account_id: string;
  reason: string;
  revoked_at: string;
}

/** A container on a shipment; a container number may be reused across shipments. */
export interface ShipmentContainerTable {
  shipment_id: number;
  container_number: string;
  /** ContainerMaster as JSON (isoType, references). */
  master_json: string;
  /** Ordinal within the shipment's ingest, so containers are served in the order given. */
  position: number;
  /**
   * Latest eventDateTime of this container's events on this shipment, derived at
   * ingest: a lookup by container number alone picks the shipment where the
   * container moved last, so a backfilled old shipment does not hide the current one.
   */
  last_event_at: string | null;
}

/** Which accounts' clients may see a shipment. */
export interface ShipmentAccountTable {
  shipment_id: number;
  account_id: string;
}

/**
 * A shipment's snapshot as of `version` (see src/store/shipments/stored-snapshots.ts):
 * what lookups serve, built at each change instead of at each read.
 */
export interface ShipmentSnapshotTable {
  shipment_id: number;
  version: number;
  /** SnapshotTrackingParts as JSON: best-version shipment and transport events, assembled containers. */
  tracking_json: string;
  /** The served exceptions as JSON, oldest detection first. */
  exceptions_json: string;
  /**
   * How the row is stored (migration 020): 0, the two JSON text columns above; from 1 on, the compressed columns
   * below (the text columns empty). See src/store/shipments/stored-snapshots.ts.
   */
  stored_form: ColumnType<number, number | undefined, number>;
  /** tracking_json, compressed (stored_form 1 on). */
  tracking_z: Buffer | null;
  /** exceptions_json, compressed (stored_form 1 on). */
  exceptions_z: Buffer | null;
  /** REST's `shipmentTracking` as served (src/domain/rest-tracking.ts), compressed; null when it could not be made. */
  rest_tracking_z: Buffer | null;
}
