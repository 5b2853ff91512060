import type { Kysely } from 'kysely';
import type { ExceptionThresholds } from '../config/config.js';
import type { DatabaseSchema } from '../db/schema.js';
import { evaluateExceptions, type EvaluatedException, type ManualClear } from '../domain/exception-engine.js';
import type { TrackingException } from '../domain/types.js';
import { chunks, type ShipmentState } from './chunked-state.js';

/**
 * Persistence of the exception engine's results. The engine is a pure
 * function of the shipment, its event history and the clock; this module
 * loads what it needs, keeps the first detection time of an episode across
 * recomputations, and writes only what changed.
 */

export interface StoredException {
  exceptionID: string;
  episode: string;
  body: TrackingException;
}

export interface ExceptionInputs {
  stored: Map<number, StoredException[]>;
  clears: Map<string, ManualClear>;
}

/** Stored exceptions and operator clears of the given shipments: two queries per chunk. */
export async function loadExceptionInputs(
  db: Kysely<DatabaseSchema>,
  shipmentIds: readonly number[],
): Promise<ExceptionInputs> {
  const stored = new Map<number, StoredException[]>();
  const clears = new Map<string, ManualClear>();
  for (const ids of chunks([...new Set(shipmentIds)])) {
    const rows = await db
      .selectFrom('tracking_exception')
      .select(['exception_id', 'shipment_id', 'episode', 'body_json'])
      .where('shipment_id', 'in', ids)
      .execute();
    for (const row of rows) {
      const list = stored.get(row.shipment_id) ?? [];
      list.push({ exceptionID: row.exception_id, episode: row.episode, body: JSON.parse(row.body_json) as TrackingException });
      stored.set(row.shipment_id, list);
    }
    const clearRows = await db
      .selectFrom('exception_clear')
      .innerJoin('tracking_exception', 'tracking_exception.exception_id', 'exception_clear.exception_id')
      .select(['exception_clear.exception_id', 'exception_clear.episode', 'exception_clear.note', 'exception_clear.cleared_at'])
      .where('tracking_exception.shipment_id', 'in', ids)
      .execute();
    for (const c of clearRows) {
      clears.set(c.exception_id, { exceptionID: c.exception_id, episode: c.episode, note: c.note, clearedAt: c.cleared_at });
    }
  }
  return { stored, clears };
}

/**
 * The engine's view of a shipment now. detectedDateTime needs no stored
 * state to stay "when first raised": the engine derives it from the history
 * (the step that opened the episode), so recomputation gives the same value.
 */
export function computeExceptions(
  state: ShipmentState,
  inputs: ExceptionInputs,
  now: Date,
  thresholds: ExceptionThresholds,
): EvaluatedException[] {
  const previous = new Set((inputs.stored.get(state.id) ?? []).map((e) => e.exceptionID));
  return evaluateExceptions({
    shipment: state.master,
    containers: state.containers,
    events: state.events,
    now: now.toISOString(),
    thresholds,
    manualClears: [...inputs.clears.values()].filter((c) => previous.has(c.exceptionID)),
  });
}

function served(e: EvaluatedException): TrackingException {
  const { episode: _episode, ...body } = e;
  return body;
}

/** Writes the shipment's exceptions when they differ from the stored ones; returns whether anything changed. */
export async function writeExceptions(
  db: Kysely<DatabaseSchema>,
  shipmentId: number,
  stored: readonly StoredException[],
  next: readonly EvaluatedException[],
  now: Date,
): Promise<boolean> {
  const fingerprint = (list: readonly { exceptionID: string; episode: string; body: TrackingException }[]) =>
    JSON.stringify([...list].sort((a, b) => (a.exceptionID < b.exceptionID ? -1 : 1)).map((e) => [e.exceptionID, e.episode, e.body]));
  const nextStored = next.map((e) => ({ exceptionID: e.exceptionID, episode: e.episode, body: served(e) }));
  if (fingerprint(stored) === fingerprint(nextStored)) return false;
  await db.deleteFrom('tracking_exception').where('shipment_id', '=', shipmentId).execute();
  if (nextStored.length > 0) {
    await db
      .insertInto('tracking_exception')
      .values(
        nextStored.map((e) => ({
          exception_id: e.exceptionID,
          shipment_id: shipmentId,
          exception_type: e.body.exceptionType,
          status: e.body.status,
          episode: e.episode,
          body_json: JSON.stringify(e.body),
          updated_at: now.toISOString(),
        })),
      )
      .execute();
  }
  return true;
}
