import { deflateRawSync, inflateRawSync } from 'node:zlib';

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
  const deflated = deflateRawSync(Buffer.from(json, 'utf8'), V1);
  const out = Buffer.allocUnsafe(deflated.length + 1);
  out[0] = DEFLATE_MILESTONES_V1;
  deflated.copy(out, 1);
  return out;
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
  const bytes = Buffer.isBuffer(milestones) ? milestones : Buffer.from(milestones.buffer, milestones.byteOffset, milestones.byteLength);
  const marker = bytes[0];
  if (marker === DEFLATE_MILESTONES_V1) return inflateRawSync(bytes.subarray(1)).toString('utf8');
  throw new Error(`stored milestones have an unknown format (marker byte ${String(marker)})`);
}
