import type { ShipmentMaster } from '../domain/types.js';
import type { ShipmentRow } from '../store/shipments/shipment-lookup.js';
import type { ShipmentSnapshot } from '../store/shipments/shipment-snapshot.js';

/**
 * What ShipmentTracking fields resolve from: the row the lookup just read
 * (identifiers, etd/eta derived at ingest) and the shipment's snapshot at
 * that row's version. A query loads only what it selects: `eta` reads the
 * row alone, and the snapshot loads the parts its fields ask for, together,
 * in one round trip (see ShipmentSnapshot), or none when SnapshotCache
 * already holds them for this version.
 */
export class ShipmentSource {
  constructor(
    readonly row: ShipmentRow,
    readonly snapshot: ShipmentSnapshot,
  ) {}

  get master(): ShipmentMaster {
    return this.snapshot.master;
  }
}
