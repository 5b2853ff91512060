import { decodeMarked, encodeMarked } from '../encoding/marked-deflate.js';

/**
 * The stored form of a shipment's milestone index (docs/architecture.md, Event storage: Shipment rows), the
 * JSON text derived-state.ts compares a refresh's milestones with (a new milestone, a flip to ACT). It is read at
 * ingest only, but it sat in the shipment row every lookup reads by index: about 5.5 KB of JSON in a row of 1 KB
 * otherwise. `shipment.milestones` (migration 023) holds that text compressed behind a format byte, as
 * event-payload.ts does for events, so that a row can never be read under rules other than those it was written
 * with:
 *
 * - `0x01`: raw deflate (RFC 1951), the JSON text exactly as `JSON.stringify` wrote it.
 *
 * Rows written before migration 023 and not yet converted by its backfill keep the plain text in
 * `milestones_json` (null once `milestones` holds it); both null means no index yet (a shipment stored before
 * push delivery). An unknown marker is an error, never a guess.
 */

export const DEFLATE_MILESTONES_V1 = 0x01;

const V1 = { level: 9, memLevel: 8 } as const;

/** The stored bytes of a milestone index's JSON text. */
export function encodeMilestonesJson(json: string): Buffer {
  return encodeMarked(DEFLATE_MILESTONES_V1, json, V1);
}

/** A shipment row's milestone columns, as either driver returns them. */
export interface StoredMilestones {
  milestones: Uint8Array | null;
  milestones_json: string | null;
}

/** The milestone index's JSON text, byte for byte what the last refresh wrote; null when there is none yet. */
export function decodeMilestonesJson(row: StoredMilestones): string | null {
  const { milestones } = row;
  if (milestones === null || milestones === undefined) return row.milestones_json;
  return decodeMarked(milestones, DEFLATE_MILESTONES_V1, {}, 'stored milestone index');
}
