import { eventFacts, type EventFacts } from '../../domain/dcsa/dcsa-events.js';
import type { TrackingEvent } from '../../domain/types.js';

/**
 * The event row's columns of the DCSA 2.2 filters (GET /v2/events, DCSA subscriptions: src/db/tables/event.ts),
 * both ways: written at ingest (write-events.ts) and read back as EventFacts by the DCSA outbox
 * (dcsa-outbox.ts). One list, so a new filter column is added once.
 */
export const FACT_COLUMNS = [
  'type_code',
  'document_type_code',
  'transport_call_id',
  'vessel_imo_number',
  'export_voyage_number',
  'carrier_service_code',
  'call_location_code',
  'event_location_code',
  'equipment_reference',
] as const;

type FactRow = { [C in (typeof FACT_COLUMNS)[number]]: string | null };

/** The fact columns of an event, with `dcsa_publishable`. */
export function factColumns(event: TrackingEvent): FactRow & { dcsa_publishable: 0 | 1 } {
  const f = eventFacts(event);
  return {
    type_code: f.typeCode,
    document_type_code: f.documentTypeCode,
    transport_call_id: f.transportCallID,
    vessel_imo_number: f.vesselIMONumber,
    export_voyage_number: f.exportVoyageNumber,
    carrier_service_code: f.carrierServiceCode,
    call_location_code: f.callLocationCode,
    event_location_code: f.eventLocationCode,
    equipment_reference: f.equipmentReference,
    dcsa_publishable: f.publishable ? 1 : 0,
  };
}

/** The facts of a stored event row's columns (the inverse of factColumns). */
export function factsOfColumns(eventType: string, row: FactRow, publishable: boolean): EventFacts {
  return {
    eventType: eventType as EventFacts['eventType'],
    typeCode: row.type_code ?? '',
    documentTypeCode: row.document_type_code,
    transportCallID: row.transport_call_id,
    vesselIMONumber: row.vessel_imo_number,
    exportVoyageNumber: row.export_voyage_number,
    carrierServiceCode: row.carrier_service_code,
    callLocationCode: row.call_location_code,
    eventLocationCode: row.event_location_code,
    equipmentReference: row.equipment_reference,
    publishable,
  };
}
