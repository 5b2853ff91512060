import { decodeMarked, encodeMarked } from '../encoding/marked-deflate.js';
import type { TrackingEvent } from '../../domain/types.js';
import { EVENT_DICTIONARY_V1 } from './event-payload-dictionary.js';

/**
 * The stored form of an event (docs/architecture.md, Event storage): `event.payload` holds the event's JSON
 * text, exactly as `JSON.stringify` wrote it at ingest, compressed; its first byte says how, so that a stored
 * row can never be read under rules other than those it was written with:
 *
 * - `0x01`: raw deflate (RFC 1951; window 2 KiB) with the preset dictionary EVENT_DICTIONARY_V1. The
 *   dictionary is frozen: a better one is a new marker byte beside this one, and both keep reading.
 *
 * Rows stored before migration 021 and not yet converted by its backfill have no `payload` and keep the plain
 * JSON in `payload_json` (which holds '' once `payload` does). Every reader goes through decodeEventJson.
 *
 * Small JSON texts compress poorly alone (a 550-byte event deflates to about 300 bytes: most of it is key
 * names every event repeats); against a dictionary of typical events it is about 130.
 */

export const DEFLATE_DICTIONARY_V1 = 0x01;

const V1 = { windowBits: 11, memLevel: 4, level: 9, dictionary: EVENT_DICTIONARY_V1 } as const;
const V1_INFLATE = { windowBits: 11, dictionary: EVENT_DICTIONARY_V1 } as const;

/** The stored bytes of an event. */
export function encodeEventPayload(event: TrackingEvent): Buffer {
  return encodeEventJson(JSON.stringify(event));
}

/** The stored bytes of an event's JSON text (the backfill converts stored text without parsing it). */
export function encodeEventJson(json: string): Buffer {
  return encodeMarked(DEFLATE_DICTIONARY_V1, json, V1);
}

/** A stored event row's payload columns, as either driver returns them. */
export interface StoredPayload {
  payload: Uint8Array | null;
  payload_json: string;
}

/** The event's JSON text, byte for byte what ingest stored. */
export function decodeEventJson(row: StoredPayload): string {
  const { payload } = row;
  if (payload === null || payload === undefined) return row.payload_json;
  return decodeMarked(payload, DEFLATE_DICTIONARY_V1, V1_INFLATE, 'stored event payload');
}

/** The stored event. */
export function decodeEvent(row: StoredPayload): TrackingEvent {
  return JSON.parse(decodeEventJson(row)) as TrackingEvent;
}
