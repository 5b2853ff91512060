import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Request as FetchRequest } from '@whatwg-node/fetch';

/**
 * A body-less request (GET, HEAD) of node:http as the REST handlers and the shared HTTP plugins read a fetch
 * `Request` (docs/architecture.md, Executor): method, url, headers, and a signal when one is asked for.
 *
 * The fetch adapter builds a full `Request` for every request: a `Headers` copy of the node headers, an
 * `AbortController` wired to the response's close, and the URL string, before anything reads them. A
 * conditional poll reads three headers and the method. Here the headers are read from node's own object when
 * asked, and the signal exists only once something asks for it. Requests with a body get a full `Request`
 * (rest-server.ts); only a persisted query's body, read and parsed already, comes with one (persisted-server.ts).
 */
export class NodeRequest {
  readonly headers: Headers;
  readonly body = null;
  readonly bodyUsed = false;
  #controller: AbortController | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    /** The absolute URL, built from the Host header and the request target as the fetch adapter builds it. */
    readonly url: string,
    /** A body the node:http layer read already (a persisted query's: persisted-server.ts); none by default. */
    private readonly content: Buffer = EMPTY,
  ) {
    this.headers = new NodeHeaders(req.headers) as unknown as Headers;
  }

  get method(): string {
    return this.req.method ?? 'GET';
  }

  /** Aborted when the connection closes before the response was written, as the fetch adapter's. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = (this.#controller = new AbortController());
      const res = this.res;
      const closed = () => {
        if (!res.writableFinished && !controller.signal.aborted) controller.abort(res.errored ?? undefined);
      };
      if (res.closed) closed();
      else res.once('close', closed);
    }
    return this.#controller.signal;
  }

  text(): Promise<string> {
    return Promise.resolve(this.content.toString('utf8'));
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.content;
    return Promise.resolve(buffer.slice(byteOffset, byteOffset + byteLength) as ArrayBuffer);
  }

  json(): Promise<unknown> {
    try {
      return Promise.resolve(JSON.parse(this.content.toString('utf8')));
    } catch (err) {
      return Promise.reject(err);
    }
  }
}

const EMPTY = Buffer.alloc(0);

/** Fetch `Headers` read straight from node's header object (lower-case names; only set-cookie is an array). */
class NodeHeaders {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }

  set(name: string, value: string): void {
    this.raw[name.toLowerCase()] = value;
  }

  append(name: string, value: string): void {
    const current = this.get(name);
    this.raw[name.toLowerCase()] = current === null ? value : `${current}, ${value}`;
  }

  delete(name: string): void {
    delete this.raw[name.toLowerCase()];
  }

  getSetCookie(): string[] {
    const value = this.raw['set-cookie'];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  }

  forEach(callback: (value: string, name: string, headers: NodeHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw).sort()) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** A fetch Request of a node request that may have a body (the REST server's body routes). */
export function fetchRequestOf(req: IncomingMessage, res: ServerResponse, url: string, body: Buffer | undefined): Request {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished && !controller.signal.aborted) controller.abort(res.errored ?? undefined);
  });
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.push([name, v]);
    else headers.push([name, value]);
  }
  return new FetchRequest(url, {
    method: req.method,
    headers,
    signal: controller.signal,
    // Read already by the node:http layer (src/http/http-server.ts), else (the listener mounted on a plain node
    // server) the stream itself, as the fetch adapter passes it.
    ...(body ? (body.length > 0 ? { body: body as Uint8Array<ArrayBuffer> } : {}) : { body: req as never, duplex: 'half' }),
  } as RequestInit) as Request;
}
