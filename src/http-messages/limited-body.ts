/**
 * Request (or response) bodies read with a byte limit enforced while
 * reading: a body without Content-Length (chunked) cannot make the service
 * buffer more than the limit.
 */

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`the body must be at most ${maxBytes} bytes`);
  }
}

/** The chunks of `body`, throwing BodyTooLargeError as soon as more than `maxBytes` arrived (the stream is cancelled). */
export async function* limitedChunks(body: ReadableStream<Uint8Array> | null, maxBytes: number): AsyncGenerator<Buffer> {
  if (!body) return;
  const reader = body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new BodyTooLargeError(maxBytes);
      }
      yield Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  } finally {
    reader.releaseLock();
  }
}

/** The whole body as bytes; BodyTooLargeError past `maxBytes` (also when a Content-Length announces more). */
export async function readLimitedBytes(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  declaredLength?: string | null,
): Promise<Buffer> {
  if (declaredLength && Number(declaredLength) > maxBytes) throw new BodyTooLargeError(maxBytes);
  const chunks: Buffer[] = [];
  for await (const chunk of limitedChunks(body, maxBytes)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
