import type { ColumnType, Generated } from 'kysely';

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

/** A stored event that links to no shipment yet; the row goes when a shipment arrives that it links to. */
export interface UnlinkedEventTable {
  event_seq: number;
  carrier_code: string;
}

/**
 * An event a poll or a carrier notification refused, kept as received with
 * its error until an operator replays it (`tracking carrier rejected replay`);
 * bounded, oldest dropped first. One row per carrier and exact content.
 */
export interface RejectedEventTable {
  id: Generated<number>;
  carrier_code: string;
  /** `poll` or `notification`. */
  source: string;
  /** SHA-256 of the event's JSON as received. */
  digest: string;
  /** Its eventID when it has a readable one. */
  event_id: string | null;
  event_json: string;
  error: string;
  first_rejected_at: string;
  last_rejected_at: string;
  times_rejected: ColumnType<number, number | undefined, number>;
}
