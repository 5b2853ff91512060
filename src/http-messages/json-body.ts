/**
 * Reads a JSON request body of at most `maxBytes`, counting while reading, so
 * a body without Content-Length (chunked) cannot make the service buffer more
 * than the limit.
 */
export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; message: string };

export async function readJsonBody(request: Request, maxBytes: number, options: { optional?: boolean } = {}): Promise<JsonBody> {
  const read = await readBodyText(request, maxBytes);
  if (read === null) return { ok: false, status: 413, message: `the body must be at most ${maxBytes} bytes` };
  const text = read;
  if (text.trim() === '' && options.optional) return { ok: true, value: {} };
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return { ok: false, status: 415, message: 'Content-Type must be application/json' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, status: 400, message: `the body is not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * The body as UTF-8 text, or null when it is larger than `maxBytes`:
 * refused on its Content-Length before reading, else counted while reading
 * and abandoned as soon as it passes the limit.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string | null> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}
