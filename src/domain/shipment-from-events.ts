import { bestVersionPerMilestone } from './milestones.js';
import type { ReferenceKind } from './tracking-reference.js';
import type { Location, TrackingEvent, TransportEvent } from './types.js';

/**
 * A shipment's master data derived from its carrier's events alone (docs/tracking-requests.md, Shipments from
 * events), for a tracked reference no ingest bundle has described: its identifiers, carrier, ports, vessel and
 * containers. The events themselves give the route and calls, as for any shipment. Pure.
 *
 * The statement's time is `1970-01-01T00:00:00Z` plus one second per event it was derived from: earlier than any
 * bundle's, so a bundle always supersedes it (and it never overrides a bundle), while a derivation from more
 * events supersedes an earlier one (src/domain/statements.ts).
 */

export interface DerivedShipment {
  carrierCode: string;
  carrierBookingReference: string;
  billOfLadingNumber?: string;
  vesselName?: string;
  voyageNumber?: string;
  portOfLoading?: Location;
  portOfDischarge?: Location;
  containers: string[];
  /** Where carrierBookingReference comes from when not from the events (ShipmentInput.derivedBooking). */
  derivedBooking?: 'STAND_IN' | 'STORED';
  /** The statement's time (see above). */
  updatedDateTime: string;
}

export interface TrackedReference {
  kind: ReferenceKind;
  reference: string;
}

/** The latest (by eventCreatedDateTime) value of a document reference of the given type among the events. */
function latestDocument(events: readonly TrackingEvent[], type: 'BKG' | 'TRD'): string | undefined {
  let best: { at: string; value: string } | undefined;
  for (const event of events) {
    const values: string[] = [];
    if (event.eventType === 'SHIPMENT' && event.documentTypeCode === type) values.push(event.documentID);
    for (const ref of event.documentReferences ?? []) if (ref.documentReferenceType === type) values.push(ref.documentReferenceValue);
    for (const value of values) if (!best || event.eventCreatedDateTime > best.at) best = { at: event.eventCreatedDateTime, value };
  }
  return best?.value;
}

function portOf(event: TransportEvent): Location {
  const call = event.transportCall;
  return { unLocationCode: call.unLocationCode, ...(call.location?.locationName ? { locationName: call.location.locationName } : {}) };
}

/**
 * The shipment the events describe, or null for no events. `knownBooking`: the booking of a stored shipment the
 * reference already matches (its identity wins). When the events name no booking, the tracked reference stands in
 * as the booking reference (docs/tracking-requests.md), marked so that a statement naming the real booking of the same
 * bill of lading later takes its place on the same shipment (src/store/shipments/shipment-identity.ts).
 */
export function deriveShipment(
  carrierCode: string,
  tracked: TrackedReference,
  events: readonly TrackingEvent[],
  knownBooking?: string,
): DerivedShipment | null {
  if (events.length === 0) return null;
  const named = tracked.kind === 'BKG' ? tracked.reference : latestDocument(events, 'BKG');
  const booking = knownBooking ?? named ?? tracked.reference;
  const derivedBooking = knownBooking !== undefined ? ('STORED' as const) : named === undefined ? ('STAND_IN' as const) : undefined;
  const billOfLading = tracked.kind === 'TRD' ? tracked.reference : latestDocument(events, 'TRD');

  const best = bestVersionPerMilestone(events);
  const vesselMoves = best.filter(
    (e): e is TransportEvent => e.eventType === 'TRANSPORT' && (e.transportCall.modeOfTransport ?? 'VESSEL') === 'VESSEL',
  );
  const departures = vesselMoves.filter((e) => e.transportEventTypeCode === 'DEPA');
  const arrivals = vesselMoves.filter((e) => e.transportEventTypeCode === 'ARRI');
  const firstDeparture = departures[0];
  const lastArrival = arrivals[arrivals.length - 1];

  const containers: string[] = [];
  for (const event of [...events].sort((a, b) => (a.eventDateTime < b.eventDateTime ? -1 : a.eventDateTime > b.eventDateTime ? 1 : 0))) {
    if (event.eventType === 'EQUIPMENT' && !containers.includes(event.equipmentReference)) containers.push(event.equipmentReference);
  }
  if (tracked.kind === 'EQ' && !containers.includes(tracked.reference)) containers.unshift(tracked.reference);

  const seconds = Math.min(new Set(events.map((e) => e.eventID)).size, 86_399);
  return {
    carrierCode,
    carrierBookingReference: booking,
    ...(billOfLading !== undefined ? { billOfLadingNumber: billOfLading } : {}),
    ...(firstDeparture?.transportCall.vessel ? { vesselName: firstDeparture.transportCall.vessel.vesselName } : {}),
    ...(firstDeparture?.transportCall.exportVoyageNumber ? { voyageNumber: firstDeparture.transportCall.exportVoyageNumber } : {}),
    ...(firstDeparture ? { portOfLoading: portOf(firstDeparture) } : {}),
    ...(lastArrival ? { portOfDischarge: portOf(lastArrival) } : {}),
    containers,
    ...(derivedBooking ? { derivedBooking } : {}),
    updatedDateTime: new Date(seconds * 1000).toISOString(),
  };
}
