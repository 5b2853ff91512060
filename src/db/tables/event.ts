import type { ColumnType, Generated } from 'kysely';

/** Append-only store of every event version ever ingested. */
export interface EventTable {
  seq: Generated<number>;
  event_id: string;
  carrier_code: string;
  event_type: string;
  event_date_time: string;
  event_created_date_time: string;
  /**
   * The normalized event (spec spelling) as JSON, for rows stored before migration 021 and not yet converted;
   * '' once `payload` holds it. Read through src/store/events/event-payload.ts, never directly.
   */
  payload_json: string;
  /** The event's JSON compressed, behind a format byte (src/store/events/event-payload.ts); null on unconverted rows. */
  payload: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  ingested_at: string;
  /**
   * What the DCSA 2.2 filters select on (src/domain/dcsa/dcsa-events.ts, eventFacts): the event's type code, a
   * shipment event's documentTypeCode, its transport call's ID (or derived identity), vessel, export voyage,
   * service and UN/LOCODE, an equipment event's location and container. Null where the event has none.
   */
  type_code: string | null;
  document_type_code: string | null;
  transport_call_id: string | null;
  vessel_imo_number: string | null;
  export_voyage_number: string | null;
  carrier_service_code: string | null;
  call_location_code: string | null;
  event_location_code: string | null;
  equipment_reference: string | null;
  /** 1 when every code of the event is in the DCSA 2.2 enums, so GET /v2/events may publish it. */
  dcsa_publishable: ColumnType<number, number | undefined, number>;
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
