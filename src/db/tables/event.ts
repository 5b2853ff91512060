import type { Generated } from 'kysely';

/** Append-only store of every event version ever ingested. */
export interface EventTable {
  seq: Generated<number>;
  event_id: string;
  carrier_code: string;
  event_type: string;
  event_date_time: string;
  event_created_date_time: string;
  /** The normalized event (spec spelling) as JSON. */
  payload_json: string;
  ingested_at: string;
}

/**
 * The keys an event can be linked to a shipment by (docs/architecture.md, Ingest bundle): kept so
 * that an event arriving before its shipment is linked when the shipment comes.
 * kind: BKG (carrier booking reference), TRD (bill of lading), EQ (container, used
 * only for equipment events without document references).
 */
export interface EventReferenceTable {
  event_seq: number;
  carrier_code: string;
  kind: 'BKG' | 'TRD' | 'EQ';
  value: string;
}

/** Resolved link between a shipment and an event. */
export interface ShipmentEventTable {
  shipment_id: number;
  event_seq: number;
}
