import type { Db } from '../db/connect.js';
import { assembleContainers, splitByType, type EventsByType } from '../domain/snapshot.js';
import type { ContainerSnapshot, ShipmentMaster, TrackingException } from '../domain/types.js';
import { parseShipmentMaster } from '../store/json-columns.js';
import type { ShipmentRow } from '../store/shipment-lookup.js';
import { loadContainers, loadEvents, loadExceptions } from '../store/shipment-reader.js';

/**
 * What ShipmentTracking fields resolve from: the looked-up row plus memoized
 * loaders. A query loads only what it selects (asking for `eta` reads the
 * row alone), and each part is one SQL round trip at most once per request,
 * so a full snapshot costs a fixed number of round trips.
 */
export class ShipmentSource {
  readonly master: ShipmentMaster;
  private eventsPromise?: Promise<EventsByType>;
  private containersPromise?: Promise<ContainerSnapshot[]>;
  private exceptionsPromise?: Promise<TrackingException[]>;

  constructor(
    private readonly db: Db,
    readonly row: ShipmentRow,
  ) {
    this.master = parseShipmentMaster(row.master_json);
  }

  events(): Promise<EventsByType> {
    this.eventsPromise ??= loadEvents(this.db, this.row.id).then(splitByType);
    return this.eventsPromise;
  }

  containers(): Promise<ContainerSnapshot[]> {
    this.containersPromise ??= Promise.all([loadContainers(this.db, this.row.id), this.events()]).then(
      ([containers, events]) => assembleContainers(containers, events.equipment),
    );
    return this.containersPromise;
  }

  exceptions(): Promise<TrackingException[]> {
    this.exceptionsPromise ??= loadExceptions(this.db, this.row.id);
    return this.exceptionsPromise;
  }
}
