import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The compression of stored snapshot columns (stored-snapshots.ts, stored_form 1 on): raw deflate at level 1.
 *
 * Chosen by measurement on the bench's shipments (bench/README.md, Compact stored snapshots): ~10 KB of snapshot JSON
 * became ~860 bytes in ~45 µs, and inflates in ~18 µs; level 6 saved another 14 % for half again the time,
 * brotli at quality 1 was about as small and as fast to write but slower to read, and from quality 4 on several
 * times slower to write. Ingest writes a snapshot per changed shipment, and a first lookup reads one, so both
 * sides count; raw deflate has no header or checksum to pay for (the database keeps its own).
 */
export function compressText(text: string): Buffer {
  return compressBytes(Buffer.from(text, 'utf8'));
}

/** A column compressText wrote, as text; an empty one (null) reads as empty text. */
export function decompressText(data: Uint8Array | null | undefined): string {
  if (!data) return '';
  return inflateRawSync(data).toString('utf8');
}

/**
 * Bytes compressText wrote, inflated to the UTF-8 bytes of the text: for text that is only ever written out again
 * (renderings: src/store/shipments/shipment-snapshot.ts), outside the V8 heap and never decoded.
 */
export function decompressBytes(data: Uint8Array): Buffer {
  return inflateRawSync(data);
}

/**
 * UTF-8 bytes (a rendering) compressed as compressText compresses text. The result is a view of zlib's 16 KiB
 * output chunk: to be kept, it is copied (ownBytes).
 */
export function compressBytes(bytes: Uint8Array): Buffer {
  return deflateRawSync(bytes, { level: 1 });
}

/**
 * The bytes to keep for long (a cached rendering: src/store/shipments/shipment-snapshot.ts) as a buffer of their own size,
 * copied only when they are a view of a larger one: zlib's sync output is a view of its 16 KiB output chunk, a
 * driver's value of its packet, a small Buffer.from of Node's shared 8 KiB pool. Kept as they came, a 1 to 2 KB
 * rendering held 16 KiB outside the V8 heap that the cache never counted.
 */
export function ownBytes(bytes: Buffer): Buffer {
  return bytes.byteLength < bytes.buffer.byteLength ? ownCopy(bytes) : bytes;
}

/**
 * The bytes in a buffer of their own, for keeping: a driver's value may be a view of a larger buffer (a whole
 * result's packet), which a kept view would keep alive; and a small Buffer.from lands in Node's shared pool, whose
 * 8 KiB slab any one kept value would hold.
 */
export function ownCopy(bytes: Uint8Array): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  copy.set(bytes);
  return copy;
}
