import type { Generated } from 'kysely';

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
  version: number;
  updated_at: string;
}

/** A container on a shipment; a container number may be reused across shipments. */
export interface ShipmentContainerTable {
  shipment_id: number;
  container_number: string;
  /** ContainerMaster as JSON (isoType, references). */
  master_json: string;
  /** Ordinal within the shipment's ingest, so containers are served in the order given. */
  position: number;
}

/** Which accounts' clients may see a shipment. */
export interface ShipmentAccountTable {
  shipment_id: number;
  account_id: string;
}
