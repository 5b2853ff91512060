import { createHash } from 'node:crypto';

/**
 * Conditional polling (RFC 9110 sections 8.8.3 and 13.1.2). A lookup's
 * entity tag names what its `shipmentTracking` shows: the shipment, its
 * version (bumped by every ingest, evaluation or clear that changes it, the
 * key of the snapshot cache too), the selection (REST's fixed document) and
 * the format of the service's rendering. A poller that sends it back in
 * `If-None-Match` gets 304 with no body while none of these changed.
 *
 * The tag is weak (`W/`): the transmission header (a new transmissionID and
 * time on every 200) changes even when the shipment does not, so two 200s
 * are equivalent, not byte-identical. It is opaque: a digest, which shows
 * neither the internal shipment id nor how often it changed.
 */

/** Bump when the same stored shipment would render differently (a changed field, ordering, rule). */
export const RENDERING_FORMAT = 1;

/** Names a selection (a fixed document) in an entity tag: computed once per document, not per request. */
export function selectionKey(document: string): string {
  return createHash('sha256').update(`${RENDERING_FORMAT}\u0000${document}`).digest('base64url');
}

export function shipmentEtag(shipmentId: number, version: number, selectionKey: string): string {
  const digest = createHash('sha256').update(`${selectionKey}\u0000${shipmentId}\u0000${version}`).digest('base64url');
  return `W/"${digest.slice(0, 27)}"`;
}

/**
 * The tag of an answer that adds `part` (JSON text) to what `etag` names: a lookup with an opt-in part that moves
 * on its own (`include=predictedArrival`), so that the default answer keeps its tag and this one changes with the part.
 */
export function etagWithPart(etag: string, part: string): string {
  const digest = createHash('sha256').update(`${etag}\u0000${part}`).digest('base64url');
  return `W/"${digest.slice(0, 27)}"`;
}

/**
 * Whether an `If-None-Match` field value matches `etag` by weak comparison:
 * `*`, or any listed tag with the same opaque part, `W/` or not. A malformed
 * value matches nothing (the poll is simply answered in full).
 */
export function ifNoneMatchMatches(fieldValue: string | null, etag: string): boolean {
  if (fieldValue === null) return false;
  const value = fieldValue.trim();
  if (value === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  // Entity tags are quoted strings without inner quotes: split on the tags themselves, not on commas.
  for (const match of value.matchAll(/(?:W\/)?"[^"]*"/g)) {
    if (match[0].replace(/^W\//, '') === opaque) return true;
  }
  return false;
}

/**
 * The caching fields of a conditional lookup's answer (200 or 304): private,
 * the body is for this client alone; no-cache, a cache must ask again (with
 * the tag) before reusing it.
 */
export function conditionalHeaders(etag: string | undefined): Record<string, string> {
  return { 'Cache-Control': 'private, no-cache', ...(etag ? { ETag: etag } : {}) };
}
