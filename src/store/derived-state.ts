import type { Kysely } from 'kysely';
import { DEFAULT_THRESHOLDS, type ExceptionThresholds } from '../config/config.js';
import type { SqlDialect } from '../db/dialect.js';
import type { DatabaseSchema } from '../db/schema.js';
import { computeSchedule, splitByType } from '../domain/snapshot.js';
import { containerLastEventTimes, loadShipmentStates, type ShipmentState } from './chunked-state.js';
import { computeExceptions, loadExceptionInputs, writeExceptions } from './exception-state.js';

/**
 * Derived state per shipment, recomputed from the append-only event store
 * whenever ingest (or the clock) touches a shipment, so that reads never
 * recompute: etd/eta on the shipment row, each container's last event time,
 * the persisted exceptions, and the version that snapshot caches key on.
 */

export interface RefreshOptions {
  /**
   * True when the caller changed the shipment's master data or events, so its
   * version must move even if no derived value did. Default true.
   */
  contentChanged?: boolean;
  /** Exception thresholds; default DESIGN section 6. */
  thresholds?: ExceptionThresholds;
}

/**
 * Recomputes the derived state of the given shipments inside the caller's
 * transaction. Returns the ids whose version was bumped.
 */
export async function refreshShipments(
  db: Kysely<DatabaseSchema>,
  _dialect: SqlDialect,
  shipmentIds: readonly number[],
  now: Date,
  options: RefreshOptions = {},
): Promise<number[]> {
  const contentChanged = options.contentChanged ?? true;
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
  const states = await loadShipmentStates(db, shipmentIds);
  const exceptionInputs = await loadExceptionInputs(db, [...states.keys()]);
  const updatedAt = now.toISOString();
  const bumped: number[] = [];
  for (const state of states.values()) {
    const schedule = computeSchedule(state.master, splitByType(state.events).transport);
    const scheduleChanged = schedule.etd !== state.etd || schedule.eta !== state.eta;
    for (const [containerNumber, lastEventAt] of containerLastEventTimes(state)) {
      if (state.containerLastEventAt.get(containerNumber) === lastEventAt) continue;
      await db
        .updateTable('shipment_container')
        .set({ last_event_at: lastEventAt })
        .where('shipment_id', '=', state.id)
        .where('container_number', '=', containerNumber)
        .execute();
    }
    const exceptions = computeExceptions(state, exceptionInputs, now, thresholds);
    const exceptionsChanged = await writeExceptions(
      db,
      state.id,
      exceptionInputs.stored.get(state.id) ?? [],
      exceptions,
      now,
    );
    const clockSensitive = isClockSensitive(state) ? 1 : 0;
    if (!contentChanged && !scheduleChanged && !exceptionsChanged && clockSensitive === state.clockSensitive) continue;
    await db
      .updateTable('shipment')
      .set((eb) => ({
        etd: schedule.etd,
        eta: schedule.eta,
        clock_sensitive: clockSensitive,
        version: eb('version', '+', 1),
        updated_at: updatedAt,
      }))
      .where('id', '=', state.id)
      .execute();
    bumped.push(state.id);
  }
  return bumped;
}

/**
 * Whether the shipment's exceptions can change with the clock alone: some
 * container has a free-time expiry and has not yet been returned empty, so a
 * demurrage or detention window may open or pass without any new event.
 */
export function isClockSensitive(state: ShipmentState): boolean {
  const returned = new Set(
    state.events
      .filter(
        (e) =>
          e.eventType === 'EQUIPMENT' &&
          e.eventClassifierCode === 'ACT' &&
          e.equipmentEventTypeCode === 'GTIN' &&
          e.emptyIndicatorCode === 'EMPTY',
      )
      .map((e) => (e.eventType === 'EQUIPMENT' ? e.equipmentReference : '')),
  );
  return state.containers.some((c) => c.references.free_time_exp_dt && !returned.has(c.containerNumber));
}
