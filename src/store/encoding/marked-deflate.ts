import { deflateRawSync, inflateRawSync, type ZlibOptions } from 'node:zlib';

/**
 * A stored text as one format byte and the text raw-deflated (RFC 1951) under that format's options: the stored
 * form of event payloads (event-payload.ts) and milestone indexes (milestones-payload.ts). The byte names the
 * rules a value was written with, so that a value is never read under others: an unknown byte is an error, never
 * a guess.
 */
export function encodeMarked(marker: number, text: string, options: ZlibOptions): Buffer {
  const deflated = deflateRawSync(Buffer.from(text, 'utf8'), options);
  const out = Buffer.allocUnsafe(deflated.length + 1);
  out[0] = marker;
  deflated.copy(out, 1);
  return out;
}

/** The text of a value encodeMarked wrote with `marker` and options that inflate it; `what` names it in the error. */
export function decodeMarked(stored: Uint8Array, marker: number, options: ZlibOptions, what: string): string {
  // mysql2 returns a Buffer, better-sqlite3 a Buffer too; a plain Uint8Array is viewed without a copy.
  const bytes = Buffer.isBuffer(stored) ? stored : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (bytes[0] === marker) return inflateRawSync(bytes.subarray(1), options).toString('utf8');
  throw new Error(`${what} has an unknown format (marker byte ${String(bytes[0])})`);
}
