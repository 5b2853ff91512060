import type { TrackingEvent } from './types.js';

/**
 * The keys an event links to shipments by (docs/architecture.md, Ingest bundle), stored in
 * event_reference so that an event arriving before its shipment is linked
 * when the shipment comes:
 * - BKG: a carrier booking reference (a shipment event about document BKG,
 *   or a BKG document reference);
 * - TRD: a bill of lading number (document TRD, or a TRD document reference);
 * - EQ: the container number, only for equipment events that carry no
 *   document reference at all. A container is reused across shipments, so
 *   when the carrier says which booking or bill of lading a move belongs to,
 *   that is the link, not the container.
 */
export type EventReferenceKind = 'BKG' | 'TRD' | 'EQ';

export interface EventReference {
  kind: EventReferenceKind;
  value: string;
}

export function eventReferences(event: TrackingEvent): EventReference[] {
  const refs = new Map<string, EventReference>();
  const add = (kind: EventReferenceKind, value: string) => refs.set(`${kind} ${value}`, { kind, value });
  if (event.eventType === 'SHIPMENT' && (event.documentTypeCode === 'BKG' || event.documentTypeCode === 'TRD')) {
    add(event.documentTypeCode, event.documentID);
  }
  for (const ref of event.documentReferences ?? []) {
    if (ref.documentReferenceType === 'BKG' || ref.documentReferenceType === 'TRD') {
      add(ref.documentReferenceType, ref.documentReferenceValue);
    }
  }
  if (event.eventType === 'EQUIPMENT' && (event.documentReferences ?? []).length === 0) {
    add('EQ', event.equipmentReference);
  }
  return [...refs.values()];
}
