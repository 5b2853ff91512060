import { bestVersionPerMilestone, scheduleEndpoints } from './milestones.js';
import type {
  ContainerMaster,
  ContainerSnapshot,
  EquipmentEvent,
  ShipmentEvent,
  ShipmentMaster,
  ShipmentTracking,
  TrackingEvent,
  TrackingException,
  TransportEvent,
} from './types.js';

/**
 * The snapshot of docs/architecture.md, Snapshot rules, as pure functions over the stored
 * event versions. Each piece is a separate function so that a GraphQL query
 * computes only what it selects.
 */

export interface EventsByType {
  shipment: ShipmentEvent[];
  transport: TransportEvent[];
  equipment: EquipmentEvent[];
}

export function splitByType(events: readonly TrackingEvent[]): EventsByType {
  const out: EventsByType = { shipment: [], transport: [], equipment: [] };
  for (const event of events) {
    if (event.eventType === 'SHIPMENT') out.shipment.push(event);
    else if (event.eventType === 'TRANSPORT') out.transport.push(event);
    else out.equipment.push(event);
  }
  return out;
}

/** `etd`/`eta` as served: the eventDateTime of the best departure at POL / arrival at POD. */
export function computeSchedule(
  master: Pick<ShipmentMaster, 'portOfLoading' | 'portOfDischarge'>,
  transportEvents: readonly TransportEvent[],
): { etd: string | null; eta: string | null } {
  const { etd, eta } = scheduleEndpoints(transportEvents, master.portOfLoading?.unLocationCode, master.portOfDischarge?.unLocationCode);
  return { etd: etd?.eventDateTime ?? null, eta: eta?.eventDateTime ?? null };
}

/**
 * `latestEvent`: the most recent actual event; before any actual, the next
 * estimated or planned one. `history` must already be best versions.
 */
export function latestContainerEvent(history: readonly EquipmentEvent[]): EquipmentEvent | null {
  let latestActual: EquipmentEvent | null = null;
  let nextExpected: EquipmentEvent | null = null;
  for (const event of history) {
    if (event.eventClassifierCode === 'ACT') {
      if (latestActual === null || event.eventDateTime >= latestActual.eventDateTime) latestActual = event;
    } else if (nextExpected === null || event.eventDateTime < nextExpected.eventDateTime) {
      nextExpected = event;
    }
  }
  return latestActual ?? nextExpected;
}

export function assembleContainer(master: ContainerMaster, equipmentEvents: readonly EquipmentEvent[]): ContainerSnapshot {
  const history = bestVersionPerMilestone(equipmentEvents.filter((e) => e.equipmentReference === master.containerNumber));
  return { ...master, latestEvent: latestContainerEvent(history), eventHistory: history };
}

export function assembleContainers(
  containers: readonly ContainerMaster[],
  equipmentEvents: readonly EquipmentEvent[],
): ContainerSnapshot[] {
  // Group once so that assembly stays linear in the number of events.
  const byContainer = new Map<string, EquipmentEvent[]>();
  for (const event of equipmentEvents) {
    const list = byContainer.get(event.equipmentReference);
    if (list) list.push(event);
    else byContainer.set(event.equipmentReference, [event]);
  }
  return containers.map((c) => assembleContainer(c, byContainer.get(c.containerNumber) ?? []));
}

/**
 * The event-derived parts of a snapshot as they are stored at each change
 * (src/store/shipments/stored-snapshots.ts), so that a lookup parses them and assembles
 * nothing: best versions only, containers with their histories.
 */
export interface SnapshotTrackingParts {
  shipmentEvents: ShipmentEvent[];
  transportEvents: TransportEvent[];
  containers: ContainerSnapshot[];
}

export function snapshotTrackingParts(containers: readonly ContainerMaster[], events: readonly TrackingEvent[]): SnapshotTrackingParts {
  const byType = splitByType(events);
  return {
    shipmentEvents: bestVersionPerMilestone(byType.shipment),
    transportEvents: bestVersionPerMilestone(byType.transport),
    containers: assembleContainers(containers, bestVersionPerMilestone(byType.equipment)),
  };
}

/** The whole ShipmentTracking body, for callers that want everything at once. */
export function assembleSnapshot(
  master: ShipmentMaster,
  containers: readonly ContainerMaster[],
  events: readonly TrackingEvent[],
  exceptions: readonly TrackingException[],
): ShipmentTracking {
  const byType = splitByType(events);
  return {
    ...master,
    ...computeSchedule(master, byType.transport),
    shipmentEvents: bestVersionPerMilestone(byType.shipment),
    transportEvents: bestVersionPerMilestone(byType.transport),
    containers: assembleContainers(containers, byType.equipment),
    exceptions: [...exceptions],
  };
}
