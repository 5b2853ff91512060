import { detectEpisodes, explainLapse, type ExceptionEngineInput } from '../../src/domain/exception-engine.js';
import { reconcileExceptions, type ExceptionTransition, type LifecycleRow } from '../../src/domain/exception-lifecycle.js';
import type { ContainerMaster, ShipmentMaster, TrackingEvent, TrackingException } from '../../src/domain/types.js';
import { CONTAINERS, containerMaster, shipmentMaster } from './event-builders.js';
import { DEFAULT_THRESHOLDS } from './exception-engine-fixtures.js';

/**
 * A service's memory of one shipment's exceptions, driven the way ingest
 * drives it: each `learn` adds facts, evaluates at a clock and reconciles the
 * stored rows with the episodes of everything known so far (pure; the store
 * tests do the same through the database).
 */
export class ShipmentMemory {
  rows: LifecycleRow[] = [];
  events: TrackingEvent[] = [];
  readonly transitions: ExceptionTransition[] = [];

  constructor(
    public shipment: ShipmentMaster = shipmentMaster(),
    public containers: ContainerMaster[] = [containerMaster(CONTAINERS[0]), containerMaster(CONTAINERS[1])],
  ) {}

  /** Adds `events` (and optionally new master data), evaluated at `now`; returns the served exceptions. */
  learn(events: TrackingEvent[], now: string, master: { containers?: ContainerMaster[] } = {}): TrackingException[] {
    this.events.push(...events);
    if (master.containers) this.containers = master.containers;
    const facts: ExceptionEngineInput = {
      shipment: this.shipment,
      containers: this.containers,
      events: this.events,
      now,
      thresholds: DEFAULT_THRESHOLDS,
    };
    const result = reconcileExceptions({
      shipment: this.shipment,
      stored: this.rows,
      episodes: detectEpisodes(facts),
      now,
      explainLapse: (type, condition) => explainLapse(facts, type, condition),
    });
    this.rows = result.rows;
    this.transitions.push(...result.transitions);
    return this.served();
  }

  served(): TrackingException[] {
    return this.rows.map((r) => r.body).sort((a, b) => (a.exceptionID < b.exceptionID ? -1 : 1));
  }

  byId(id: string): TrackingException {
    const found = this.rows.find((r) => r.exceptionID === id);
    if (!found) throw new Error(`no exception ${id}`);
    return found.body;
  }
}
