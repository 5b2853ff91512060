import type { ContainerMaster, ShipmentMaster, TrackingEvent } from './types.js';

/**
 * A validated, normalized ingest bundle (docs/architecture.md, Ingest bundle). The raw JSON may
 * use DCSA 2.2 spellings (UNLocationCode, offsets on timestamps); after
 * validation every field uses the spec's spelling and timestamps are
 * canonical UTC.
 */
export interface IngestBundle {
  /** The carrier that published `events`; required when events are present. */
  carrierCode?: string;
  /**
   * When the bundle's shipment data was true (its `generatedDateTime`, canonical
   * UTC): the time of its statements (src/domain/statements.ts). Absent: the
   * time it is ingested.
   */
  generatedDateTime?: string;
  shipments: ShipmentInput[];
  events: TrackingEvent[];
}

export interface ShipmentInput extends ShipmentMaster {
  /** Account ids whose clients may see the shipment. */
  accounts: string[];
  containers: ContainerMaster[];
  /** When this entry's data was true (canonical UTC); overrides the bundle's generatedDateTime. Not stored with the master data. */
  updatedDateTime?: string;
  /**
   * Only on a shipment derived from its carrier's events (src/domain/shipment-from-events.ts), never parsed from a
   * bundle: `STAND_IN` when carrierBookingReference is the tracked reference standing in for a booking the events
   * never named, `STORED` when it is the booking of the stored shipment the reference matched. Absent: the booking
   * is the carrier's own. Not part of the statement (src/store/shipments/shipment-identity.ts).
   */
  derivedBooking?: 'STAND_IN' | 'STORED';
}

/** One validation problem, with the JSON path of the offending field (e.g. `events[3].eventDateTime`). */
export interface BundleIssue {
  path: string;
  message: string;
}

export type ParseBundleResult = { ok: true; bundle: IngestBundle } | { ok: false; issues: BundleIssue[] };
