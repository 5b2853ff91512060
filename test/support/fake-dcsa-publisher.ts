import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A carrier's DCSA Track & Trace 2.2 publisher on loopback (node:http), after
 * the OpenAPI's `GET /v2/events`: the `eventCreatedDateTime:gte` filter,
 * `limit`, an opaque `cursor` (DCSA's example cursors are Base64 of the
 * offset and limit; here of the whole query) announced in the `Next-Page`
 * header (or `Next-Page-Cursor`, or a link), `Current-Page`, `API-Version`;
 * errors in the DCSA error body. The reference filters (`transportDocumentReference`, `carrierBookingReference`,
 * `equipmentReference`) select the events that carry the reference. Optionally it wants an API key or an OAuth2
 * bearer token from its own client-credentials token endpoint.
 *
 * `script` answers events requests by number (0-based) with a failure
 * instead, e.g. `{ 2: { status: 429, retryAfter: '1' } }`.
 */

type Json = Record<string, unknown>;

export interface PublisherFailure {
  status: number;
  retryAfter?: string;
}

export interface FakePublisherOptions {
  /** How the next page is announced. Default `Next-Page` with a bare cursor (DCSA 2.2's example). */
  nextPage?: 'Next-Page' | 'Next-Page-Cursor' | 'Next-Page-Link';
  apiKey?: { header: string; value: string };
  oauth?: { clientId: string; clientSecret: string };
  /** Serve events in this order instead of eventCreatedDateTime order. */
  unordered?: boolean;
}

interface Query {
  gte: string | null;
  limit: number;
  offset: number;
  /** DCSA 2.2 reference filters: transportDocumentReference, carrierBookingReference, equipmentReference. */
  refs?: Record<string, string>;
}

/** The reference filters of GET /v2/events (DCSA 2.2) this publisher honours. */
const REFERENCE_FILTERS = ['transportDocumentReference', 'carrierBookingReference', 'equipmentReference'] as const;

/** Whether an event carries the reference a filter asks for (its documentReferences, its document, its container). */
function carries(e: Json, filter: string, value: string): boolean {
  if (filter === 'equipmentReference') return e.equipmentReference === value;
  const type = filter === 'transportDocumentReference' ? 'TRD' : 'BKG';
  if (e.eventType === 'SHIPMENT' && e.documentTypeCode === type && e.documentID === value) return true;
  const refs = (e.documentReferences ?? []) as { documentReferenceType?: string; documentReferenceValue?: string }[];
  return refs.some((r) => r.documentReferenceType === type && r.documentReferenceValue === value);
}

export class FakeDcsaPublisher {
  events: Json[] = [];
  /** Failures by events-request number. */
  script: Record<number, PublisherFailure> = {};
  /** Every events request's path and query, in order. */
  readonly requests: string[] = [];
  tokensIssued = 0;
  readonly #server: Server;
  #options: FakePublisherOptions;
  #eventsRequests = 0;

  private constructor(server: Server, options: FakePublisherOptions) {
    this.#server = server;
    this.#options = options;
  }

  static async start(options: FakePublisherOptions = {}): Promise<FakeDcsaPublisher> {
    let publisher: FakeDcsaPublisher | undefined;
    const server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => (publisher as FakeDcsaPublisher).handle(req, res, Buffer.concat(parts).toString('utf8')));
    });
    publisher = new FakeDcsaPublisher(server, options);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return publisher;
  }

  /** The carrier changes the API key it accepts (a key rotation on its side). */
  acceptApiKey(apiKey: { header: string; value: string }): void {
    this.#options = { ...this.#options, apiKey };
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  get eventsUrl(): string {
    return `${this.origin}/v2/events`;
  }

  get tokenUrl(): string {
    return `${this.origin}/oauth/token`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const url = new URL(req.url ?? '/', this.origin);
    if (req.method === 'POST' && url.pathname === '/oauth/token') return this.#token(res, body);
    if (req.method !== 'GET' || url.pathname !== '/v2/events') return error(res, req, 404, 'notFound');
    const n = this.#eventsRequests++;
    this.requests.push(`${url.pathname}${url.search}`);
    if (!this.#authorized(req)) return error(res, req, 401, 'unauthorized');
    const failure = this.script[n];
    if (failure)
      return error(res, req, failure.status, 'scripted failure', failure.retryAfter ? { 'Retry-After': failure.retryAfter } : {});

    let query: Query;
    const cursor = url.searchParams.get('cursor');
    if (cursor !== null) {
      try {
        query = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Query;
      } catch {
        return error(res, req, 400, 'invalid cursor');
      }
    } else {
      const raw = url.searchParams.get('eventCreatedDateTime:gte');
      if (raw !== null && Number.isNaN(Date.parse(raw))) return error(res, req, 400, 'invalid eventCreatedDateTime');
      const refs: Record<string, string> = {};
      for (const filter of REFERENCE_FILTERS) {
        const value = url.searchParams.get(filter);
        if (value !== null) refs[filter] = value;
      }
      query = { gte: raw, limit: Number(url.searchParams.get('limit') ?? '100'), offset: 0, refs };
    }
    const refs = Object.entries(query.refs ?? {});
    const matching = this.#matching(query.gte).filter((e) => refs.every(([filter, value]) => carries(e, filter, value)));
    const page = matching.slice(query.offset, query.offset + query.limit);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'API-Version': '2.2.0',
      'Current-Page': encode(query),
    };
    if (query.offset + query.limit < matching.length) {
      const next = encode({ ...query, offset: query.offset + query.limit });
      const mode = this.#options.nextPage ?? 'Next-Page';
      if (mode === 'Next-Page-Link') headers['Next-Page'] = `/v2/events?cursor=${next}`;
      else headers[mode] = next;
    }
    res.writeHead(200, headers).end(JSON.stringify(page));
  }

  #matching(gte: string | null): Json[] {
    const from = gte === null ? -Infinity : Date.parse(gte);
    return this.#ordered()
      .filter(({ at }) => at >= from)
      .map(({ e }) => e);
  }

  #sorted: { source: Json[]; length: number; list: { e: Json; at: number }[] } | undefined;

  /** The feed in eventCreatedDateTime order (or as given when unordered), sorted once per change of `events`. */
  #ordered(): { e: Json; at: number }[] {
    if (this.#sorted?.source === this.events && this.#sorted.length === this.events.length) return this.#sorted.list;
    const list = this.events.map((e) => ({ e, at: Date.parse(String(e.eventCreatedDateTime)) }));
    if (!this.#options.unordered) list.sort((a, b) => a.at - b.at || String(a.e.eventID).localeCompare(String(b.e.eventID)));
    this.#sorted = { source: this.events, length: this.events.length, list };
    return list;
  }

  #authorized(req: IncomingMessage): boolean {
    const { apiKey, oauth } = this.#options;
    if (apiKey && req.headers[apiKey.header.toLowerCase()] !== apiKey.value) return false;
    if (oauth && req.headers.authorization !== `Bearer token-${this.tokensIssued}`) return false;
    return true;
  }

  #token(res: ServerResponse, body: string): void {
    const form = new URLSearchParams(body);
    const oauth = this.#options.oauth;
    if (
      !oauth ||
      form.get('grant_type') !== 'client_credentials' ||
      form.get('client_id') !== oauth.clientId ||
      form.get('client_secret') !== oauth.clientSecret
    ) {
      res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' }));
      return;
    }
    this.tokensIssued += 1;
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ access_token: `token-${this.tokensIssued}`, token_type: 'Bearer', expires_in: 3600 }));
  }
}

function encode(query: Query): string {
  return Buffer.from(JSON.stringify(query)).toString('base64url');
}

/** The DCSA error response (ERROR_DOMAIN 4.0). */
function error(res: ServerResponse, req: IncomingMessage, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'API-Version': '2.2.0', ...headers }).end(
    JSON.stringify({
      httpMethod: req.method,
      requestUri: req.url,
      statusCode: status,
      statusCodeText: String(status),
      errorDateTime: new Date().toISOString(),
      errors: [{ reason: 'scripted', message }],
    }),
  );
}
