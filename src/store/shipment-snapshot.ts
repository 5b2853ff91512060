import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';
import { bestVersionPerMilestone } from '../domain/milestones.js';
import { assembleContainers, splitByType } from '../domain/snapshot.js';
import type {
  ContainerSnapshot,
  EquipmentEvent,
  ShipmentEvent,
  ShipmentMaster,
  TrackingException,
  TransportEvent,
} from '../domain/types.js';
import { parseShipmentMaster } from './json-columns.js';
import { loadParts, type LoadedParts, type PartName } from './shipment-reader.js';

/** The event-derived parts of a snapshot (DESIGN section 5). */
export interface SnapshotEvents {
  /** One event per milestone, its best version, in time order. */
  shipmentEvents: ShipmentEvent[];
  transportEvents: TransportEvent[];
  /**
   * Best versions of the equipment milestones of every container, what the
   * containers are assembled from (a milestone names its container, so these
   * are exactly the best versions per container).
   */
  equipment: EquipmentEvent[];
}

/** What a cache holding a snapshot wants to hear about. */
export interface SnapshotListener {
  /** Parts were loaded: the snapshot grew by `bytes` (see LoadedParts.bytes). */
  onLoad?(bytes: number): void;
  /** A load failed: the snapshot is useless and should be dropped, so the next request retries. */
  onFailure?(): void;
}

/**
 * The snapshot of one shipment at one version, assembled on demand and
 * memoized: each part is loaded and derived at most once, and only when a
 * field asks for it (an `eta`-only query loads nothing here).
 *
 * Parts asked for in the same tick are loaded together in one statement:
 * GraphQL resolves the sibling fields of ShipmentTracking in one synchronous
 * pass, so a full snapshot is one round trip after the lookup.
 *
 * Everything here is a function of the shipment's stored state at `version`
 * (ingest bumps the version on every change to master data, events or
 * exceptions), which is what lets SnapshotCache share one instance between
 * requests.
 */
export class ShipmentSnapshot {
  readonly id: number;
  readonly version: number;
  readonly master: ShipmentMaster;
  readonly #db: Kysely<DatabaseSchema>;
  readonly #listener: SnapshotListener;
  #batch?: { parts: Set<PartName>; result: Promise<Partial<LoadedParts>> };
  #events?: Promise<SnapshotEvents>;
  #containers?: Promise<ContainerSnapshot[]>;
  #exceptions?: Promise<TrackingException[]>;

  /** Characters of stored JSON this snapshot was built from so far (see LoadedParts.bytes). */
  bytes: number;

  constructor(
    db: Kysely<DatabaseSchema>,
    row: { id: number; version: number; master_json: string },
    listener: SnapshotListener = {},
  ) {
    this.id = row.id;
    this.version = row.version;
    this.master = parseShipmentMaster(row.master_json);
    this.bytes = row.master_json.length;
    this.#db = db;
    this.#listener = listener;
  }

  events(): Promise<SnapshotEvents> {
    this.#events ??= this.#part('events').then(({ events = [] }) => {
      const byType = splitByType(events);
      return {
        shipmentEvents: bestVersionPerMilestone(byType.shipment),
        transportEvents: bestVersionPerMilestone(byType.transport),
        equipment: bestVersionPerMilestone(byType.equipment),
      };
    });
    return this.#events;
  }

  containers(): Promise<ContainerSnapshot[]> {
    this.#containers ??= Promise.all([this.#part('containers'), this.events()]).then(([{ containers = [] }, events]) =>
      assembleContainers(containers, events.equipment),
    );
    return this.#containers;
  }

  exceptions(): Promise<TrackingException[]> {
    this.#exceptions ??= this.#part('exceptions').then(({ exceptions = [] }) => exceptions);
    return this.#exceptions;
  }

  /**
   * The raw part, loaded with whatever else is asked for in the current tick.
   * Each part is asked for once per instance (by the memoized accessor that
   * derives from it), and only the derived values are kept.
   */
  #part(name: PartName): Promise<Partial<LoadedParts>> {
    this.#batch ??= this.#startBatch();
    this.#batch.parts.add(name);
    return this.#batch.result;
  }

  #startBatch(): { parts: Set<PartName>; result: Promise<Partial<LoadedParts>> } {
    const parts = new Set<PartName>();
    // A microtask later, the resolvers of this pass have all asked for their parts.
    const result = Promise.resolve()
      .then(() => {
        this.#batch = undefined;
        return loadParts(this.#db, this.id, parts);
      })
      .then((loaded) => {
        this.bytes += loaded.bytes;
        this.#listener.onLoad?.(loaded.bytes);
        return loaded;
      });
    result.catch(() => this.#listener.onFailure?.());
    return { parts, result };
  }
}
