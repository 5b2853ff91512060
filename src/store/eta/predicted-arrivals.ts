import type { Db } from '../../db/connect.js';
import { predictArrival, type PredictedArrival, type VoyageFacts } from '../../domain/eta/predictor.js';
import { loadVoyageFacts } from './eta-history.js';
import { EtaModelCache } from './eta-model.js';

/**
 * A shipment's predicted arrival as lookups serve it (docs/predicted-arrival.md, How it is served): the current
 * model (EtaModelCache: one cheap version check every few seconds, a load only when it moved) and the voyage's
 * history (every stored version of its events, loadVoyageFacts), given to the pure predictor at the request's
 * time. Only a lookup that selects `predictedArrival` (GraphQL) or asks for it (REST `include=predictedArrival`)
 * comes here: nobody else pays for it.
 *
 * The history of a version is the same on every read, so it is kept in memory keyed on (shipment, version),
 * bounded by events held: a client polling a shipment reads its events once per version, and each poll then
 * costs the prediction's arithmetic. The prediction itself is not kept: it moves with the clock (the horizon).
 */
export class PredictedArrivals {
  readonly models: EtaModelCache;
  private readonly voyages = new Map<number, { version: number; voyage: VoyageFacts | null; events: number }>();
  private heldEvents = 0;

  constructor(
    private readonly db: Db,
    private readonly options: { modelCheckMs: number; maxEventsHeld?: number },
  ) {
    this.models = new EtaModelCache(db, { checkMs: options.modelCheckMs });
  }

  /**
   * The prediction for the shipment at this version, as of `asOf`; null when there is nothing to predict from.
   * A value, not a promise, when the model and the voyage are held (a poll's usual case): the lookup's answer then
   * waits no extra turn of the event loop for arithmetic.
   */
  forShipment(shipment: { id: number; version: number }, asOf: Date): PredictedArrival | null | Promise<PredictedArrival | null> {
    const stored = this.models.get();
    const held = this.heldVoyage(shipment);
    if (!(stored instanceof Promise) && held !== undefined) return held && predictArrival(stored?.model ?? null, held, asOf.toISOString());
    // A voyage held as unknown (null) is held too: only one not held at all is read.
    return Promise.all([stored, held !== undefined ? held : this.voyageOf(shipment)]).then(([model, voyage]) =>
      voyage ? predictArrival(model?.model ?? null, voyage, asOf.toISOString()) : null,
    );
  }

  /** The shipment's voyage at this version (kept in memory per version, as for lookups); null for an unknown shipment. */
  async voyageOf(shipment: { id: number; version: number }): Promise<VoyageFacts | null> {
    const held = this.heldVoyage(shipment);
    if (held !== undefined) return held;
    const voyage = await loadVoyageFacts(this.db, shipment.id);
    this.hold(shipment, voyage);
    return voyage;
  }

  /** The voyage held for this very version (null: held as unknown), or undefined when none is held. */
  private heldVoyage(shipment: { id: number; version: number }): VoyageFacts | null | undefined {
    const held = this.voyages.get(shipment.id);
    if (!held || held.version !== shipment.version) return undefined;
    // Most recently used last: Map keeps insertion order, and the oldest go first.
    this.voyages.delete(shipment.id);
    this.voyages.set(shipment.id, held);
    return held.voyage;
  }

  private hold(shipment: { id: number; version: number }, voyage: VoyageFacts | null): void {
    const max = this.options.maxEventsHeld ?? 200_000;
    const events = (voyage?.events.length ?? 0) + 1;
    if (events > max) return;
    const before = this.voyages.get(shipment.id);
    if (before) {
      this.voyages.delete(shipment.id);
      this.heldEvents -= before.events;
    }
    this.voyages.set(shipment.id, { version: shipment.version, voyage, events });
    this.heldEvents += events;
    for (const [id, entry] of this.voyages) {
      if (this.heldEvents <= max) break;
      this.voyages.delete(id);
      this.heldEvents -= entry.events;
    }
  }
}
