import type { EquipmentEvent, EventClassifierCode, Location, TrackingEvent, TransportCall, TransportEvent } from './types.js';

/**
 * A milestone is one thing that happens (or is planned to) in a shipment's
 * life: (event type, its type code, transport call or location, container).
 * Carriers publish several versions of a milestone over time (PLN, then EST
 * revisions, then ACT); the snapshot shows only the best one (docs/architecture.md, Snapshot rules).
 */

const CLASSIFIER_RANK: Record<EventClassifierCode, number> = { PLN: 0, EST: 1, ACT: 2 };

/**
 * Identity of a transport call across versions (docs/architecture.md, Snapshot rules): the DCSA
 * transportCallID when the carrier sends one; otherwise the port, the call's
 * sequence number and the vessel (IMO number, or the mode of transport).
 *
 * @NOTE Nothing a carrier adds as a call becomes actual may be part of the
 * identity: an ACT version typically adds the terminal (facilityCode) and the
 * import voyage, and must still replace the PLN/EST version of the same call.
 * The vessel is kept in the fallback because a call rebooked onto another
 * vessel is another call, not a new version of the first one.
 */
export function transportCallKey(call: TransportCall | undefined): string {
  if (!call) return '';
  if (call.transportCallID) return `id:${call.transportCallID}`;
  const carriage = call.vessel?.vesselIMONumber || call.modeOfTransport;
  return ['at', call.unLocationCode, call.transportCallSequenceNumber ?? '', carriage].join('/');
}

function locationKey(location: Location | undefined): string {
  if (!location) return '';
  return [location.unLocationCode ?? '', location.facilityCode ?? '', location.locationName ?? ''].join('/');
}

/**
 * The milestone an event is a version of. The empty/laden flag is not part of
 * it: a box planned to gate in empty and reported gated in laden is one gate-in.
 */
export function milestoneKey(event: TrackingEvent): string {
  switch (event.eventType) {
    case 'SHIPMENT':
      return ['SHIPMENT', event.shipmentEventTypeCode, event.documentTypeCode, event.documentID].join('|');
    case 'TRANSPORT':
      return ['TRANSPORT', event.transportEventTypeCode, transportCallKey(event.transportCall)].join('|');
    case 'EQUIPMENT':
      return [
        'EQUIPMENT',
        event.equipmentEventTypeCode,
        event.transportCall ? transportCallKey(event.transportCall) : locationKey(event.eventLocation),
        event.equipmentReference,
      ].join('|');
  }
}

/**
 * Total order of versions: ACT over EST over PLN, then the latest
 * eventCreatedDateTime, then eventID so that the choice never depends on
 * the order events were ingested in. Returns > 0 when `a` is better.
 */
export function compareVersions(a: TrackingEvent, b: TrackingEvent): number {
  const rank = CLASSIFIER_RANK[a.eventClassifierCode] - CLASSIFIER_RANK[b.eventClassifierCode];
  if (rank !== 0) return rank;
  if (a.eventCreatedDateTime !== b.eventCreatedDateTime) {
    return a.eventCreatedDateTime > b.eventCreatedDateTime ? 1 : -1;
  }
  return a.eventID === b.eventID ? 0 : a.eventID > b.eventID ? 1 : -1;
}

/** The best version among candidates, or null for none. */
export function bestVersion<E extends TrackingEvent>(events: Iterable<E>): E | null {
  let best: E | null = null;
  for (const event of events) {
    if (best === null || compareVersions(event, best) > 0) best = event;
  }
  return best;
}

/** One event per milestone (its best version), ordered by eventDateTime then milestone key. */
export function bestVersionPerMilestone<E extends TrackingEvent>(events: Iterable<E>): E[] {
  const byKey = new Map<string, E>();
  for (const event of events) {
    const key = milestoneKey(event);
    const current = byKey.get(key);
    if (current === undefined || compareVersions(event, current) > 0) byKey.set(key, event);
  }
  return [...byKey.entries()]
    .sort(([ka, a], [kb, b]) =>
      a.eventDateTime !== b.eventDateTime ? (a.eventDateTime < b.eventDateTime ? -1 : 1) : ka < kb ? -1 : ka > kb ? 1 : 0,
    )
    .map(([, event]) => event);
}

/**
 * When an event's fact became true in the world (docs/architecture.md, Exception rules: detection
 * is based on event times, whatever order the events were reported in):
 * - ACT: when the milestone happened, its eventDateTime; never later than
 *   the carrier's own eventCreatedDateTime (an actual cannot be reported
 *   before it happens; such a stamp is a carrier clock or data error);
 * - PLN/EST: when the plan or estimate was made, its eventCreatedDateTime:
 *   an estimate's eventDateTime is a forecast, not something that happened.
 */
export function factTime(event: TrackingEvent): string {
  if (event.eventClassifierCode !== 'ACT') return event.eventCreatedDateTime;
  return event.eventDateTime < event.eventCreatedDateTime ? event.eventDateTime : event.eventCreatedDateTime;
}

/** Events in the order their facts became true (`factTime`), then by eventID: independent of ingestion order. */
export function byFactTime<E extends TrackingEvent>(a: E, b: E): number {
  const fa = factTime(a);
  const fb = factTime(b);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a.eventID < b.eventID ? -1 : a.eventID > b.eventID ? 1 : 0;
}

export function isTransportEvent(event: TrackingEvent): event is TransportEvent {
  return event.eventType === 'TRANSPORT';
}

export function isEquipmentEvent(event: TrackingEvent): event is EquipmentEvent {
  return event.eventType === 'EQUIPMENT';
}

/** UN/LOCODE of where a transport or equipment event happens. */
export function eventUnLocationCode(event: TransportEvent | EquipmentEvent): string | undefined {
  if (event.eventType === 'TRANSPORT') return event.transportCall.unLocationCode;
  return event.transportCall?.unLocationCode ?? event.eventLocation?.unLocationCode;
}

/** Best departure at the port of loading (`etd`) and best arrival at the port of discharge (`eta`). */
export function scheduleEndpoints(
  transportEvents: readonly TransportEvent[],
  portOfLoading: string | undefined,
  portOfDischarge: string | undefined,
): { etd: TransportEvent | null; eta: TransportEvent | null } {
  const at = (code: string, port: string | undefined) =>
    bestVersion(
      transportEvents.filter((e) => port !== undefined && e.transportEventTypeCode === code && e.transportCall.unLocationCode === port),
    );
  return { etd: at('DEPA', portOfLoading), eta: at('ARRI', portOfDischarge) };
}
