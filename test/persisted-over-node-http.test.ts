import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { ServerAdapterPlugin } from '@whatwg-node/server';
import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPMENT_DOCUMENT } from '../src/executor/shipment-document.js';
import { createHttpServer, type HttpServer } from '../src/http/http-server.js';
import { answerType } from '../src/http/persisted-server.js';
import { documentHash } from '../src/http/trusted-documents.js';
import { createLogger } from '../src/observability/logger.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { maeuBundle } from './support/fixture-bundle.js';

/**
 * Persisted queries by hash straight on node:http (src/http/persisted-server.ts): the requests it takes, and for
 * each of them the answer Yoga gives the same request (app.fetch runs Yoga in-process): status, the headers a
 * client reads, and the body, up to what differs between any two requests (the transmission's id and time, the
 * quota left). What it does not take reaches Yoga unchanged.
 */

const ORIGIN = 'https://app.example';
const BL = 'MAEU1001BL';
const ETA = /* GraphQL */ `
  query Eta($bl: String) {
    shipment(billOfLadingNumber: $bl) {
      shipmentTracking {
        eta
      }
    }
  }
  query Header($bl: String) {
    shipment(billOfLadingNumber: $bl) {
      transmissionHeader {
        senderID
      }
    }
  }
`;
const DEFERRED = /* GraphQL */ `
  query Deferred($bl: String) {
    shipment(billOfLadingNumber: $bl) {
      ... @defer {
        shipmentTracking {
          eta
        }
      }
    }
  }
`;
const HEADERS = [
  'content-type',
  'www-authenticate',
  'retry-after',
  'access-control-allow-origin',
  'vary',
  'cache-control',
  'ratelimit-limit',
  'x-request-id',
];

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
}

describe.each(dialects)('persisted queries over node:http on $name', ({ name, enabled }) => {
  let f: TestApp;
  let http: HttpServer;
  let port: number;
  let token: string;
  let sequence = 0;
  const lines: Record<string, unknown>[] = [];
  const destination = { write: (text: string) => void lines.push(JSON.parse(text) as Record<string, unknown>) } as DestinationStream;

  beforeAll(async () => {
    if (!enabled) return;
    const config = testConfig({ TT_CORS_ORIGINS: ORIGIN });
    // An HTTP plugin that fails on a marker header: what a taken request answers when a shared plugin throws.
    const failing: ServerAdapterPlugin = {
      onRequest({ request }) {
        if (request.headers.get('x-test-fail')) throw new Error('plugin failure /secret/path.ts:1');
      },
    };
    f = await createTestApp(name, { config, logger: createLogger('debug', destination), httpPlugins: [failing] });
    await f.ingest(maeuBundle());
    ({ token } = await f.tokenFor('acct-a'));
    http = createHttpServer(f.app.listener, { config, log: () => undefined });
    port = await http.listen(0, '127.0.0.1');
    for (const query of [SHIPMENT_DOCUMENT, ETA, DEFERRED]) {
      const register = await f.app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, Accept: 'multipart/mixed, application/json' },
        body: JSON.stringify({
          query,
          variables: { bl: BL, billOfLadingNumber: BL },
          operationName: query === ETA ? 'Eta' : undefined,
          extensions: persistedQuery(query),
        }),
      });
      expect(register.status, await register.clone().text()).toBe(200);
      await register.arrayBuffer();
    }
  });
  afterAll(async () => {
    await new Promise((resolve) => http?.server.close(resolve));
    await f?.destroy();
  });

  function persistedQuery(query: string) {
    return { persistedQuery: { version: 1, sha256Hash: documentHash(query) } };
  }

  /** The request over the socket (the node:http listener) and in-process through Yoga, with one request id. */
  async function both(headers: Record<string, string>, body: string, path = '/graphql'): Promise<[Answer, Answer]> {
    const id = `persisted-${++sequence}`;
    const all = { 'Content-Type': 'application/json', Origin: ORIGIN, 'X-Request-ID': id, ...headers };
    const socket = await post(port, all, body, path);
    const response = await f.app.fetch(`${BASE}${path}`, { method: 'POST', headers: all, body });
    const yoga = {
      status: response.status,
      headers: pick((h) => response.headers.get(h) ?? undefined),
      body: parsed(await response.text()),
    };
    return [socket, yoga];
  }

  /** Whether the persisted server takes a request with these headers and body (as node:http hands it over). */
  function taken(headers: Record<string, string>, body: string, path = '/graphql'): boolean {
    const lower = Object.fromEntries(
      Object.entries({ 'content-type': 'application/json', ...headers }).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const req = { method: 'POST', url: path, headers: lower, body: Buffer.from(body) } as unknown as IncomingMessage;
    return f.app.persisted.take(req) !== undefined;
  }

  const auth = () => ({ Authorization: `Bearer ${token}` });
  const byHash = (query: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ variables: { bl: BL, billOfLadingNumber: BL }, extensions: persistedQuery(query), ...extra });

  const cases: [string, () => Record<string, string>, () => string][] = [
    ['the full snapshot, no Accept', auth, () => byHash(SHIPMENT_DOCUMENT)],
    [
      'the full snapshot, Accept application/graphql-response+json',
      () => ({ ...auth(), Accept: 'application/graphql-response+json' }),
      () => byHash(SHIPMENT_DOCUMENT),
    ],
    [
      "Apollo Client's Accept",
      () => ({ ...auth(), Accept: 'application/graphql-response+json,application/json;q=0.9' }),
      () => byHash(SHIPMENT_DOCUMENT),
    ],
    ['Accept */*', () => ({ ...auth(), Accept: '*/*' }), () => byHash(SHIPMENT_DOCUMENT)],
    ['one operation of two, by name', auth, () => byHash(ETA, { operationName: 'Header' })],
    [
      'an unknown bill of lading',
      auth,
      () => JSON.stringify({ variables: { bl: 'NOPE0001' }, operationName: 'Eta', extensions: persistedQuery(ETA) }),
    ],
    ['no token', () => ({}), () => byHash(ETA, { operationName: 'Eta' })],
    ['an invalid token', () => ({ Authorization: 'Bearer not-a-token' }), () => byHash(ETA, { operationName: 'Eta' })],
    [
      'a variable of the wrong type, JSON',
      auth,
      () => JSON.stringify({ variables: { bl: 5 }, operationName: 'Eta', extensions: persistedQuery(ETA) }),
    ],
    [
      'a variable of the wrong type, graphql-response+json',
      () => ({ ...auth(), Accept: 'application/graphql-response+json' }),
      () => JSON.stringify({ variables: { bl: 5 }, operationName: 'Eta', extensions: persistedQuery(ETA) }),
    ],
  ];

  it.skipIf(!enabled).each(cases)('taken: %s, answered as Yoga answers it', async (_name, headers, body) => {
    expect(taken(headers(), body())).toBe(true);
    const [socket, yoga] = await both(headers(), body());
    expect(socket.status).toBe(yoga.status);
    expect(socket.headers).toEqual(yoga.headers);
    expect(comparable(socket.body)).toEqual(comparable(yoga.body));
  });

  const others: [string, () => Record<string, string>, () => string, string?][] = [
    [
      'a registration (the document with its hash)',
      auth,
      () =>
        JSON.stringify({ query: SHIPMENT_DOCUMENT, variables: { billOfLadingNumber: BL }, extensions: persistedQuery(SHIPMENT_DOCUMENT) }),
    ],
    ['a hash this instance does not hold', auth, () => byHash('{ __typename }')],
    ['a document with @defer', () => ({ ...auth(), Accept: 'multipart/mixed' }), () => byHash(DEFERRED)],
    ['an event stream', () => ({ ...auth(), Accept: 'text/event-stream' }), () => byHash(SHIPMENT_DOCUMENT)],
    ['an operation name the document lacks', auth, () => byHash(ETA, { operationName: 'Nope' })],
    ['two operations and no name', auth, () => byHash(ETA)],
    [
      'another extension beside the hash',
      auth,
      () => JSON.stringify({ extensions: { ...persistedQuery(ETA), other: 1 }, operationName: 'Eta' }),
    ],
    ['a query string on the endpoint', auth, () => byHash(SHIPMENT_DOCUMENT), '/graphql?x=1'],
    ['not JSON', auth, () => '{"variables":'],
  ];

  it.skipIf(!enabled).each(others)('left to Yoga: %s', async (_name, headers, body, path) => {
    expect(taken(headers(), body(), path)).toBe(false);
    const [socket, yoga] = await both(headers(), body(), path);
    expect(socket.status).toBe(yoga.status);
    expect(socket.headers['content-type']).toBe(yoga.headers['content-type']);
    expect(comparable(socket.body)).toEqual(comparable(yoga.body));
  });

  it.skipIf(!enabled)('a taken request is logged once, with its client, as Yoga logs it', async () => {
    const [socket] = await both({ ...auth(), 'X-Request-ID': 'persisted-logged' }, byHash(SHIPMENT_DOCUMENT));
    expect(socket.status).toBe(200);
    const access = lines.filter((l) => l.correlationId === 'persisted-logged' && l.message === 'request');
    // One line for the socket's request (the persisted server), one for app.fetch's (Yoga): the same fields.
    expect(access).toHaveLength(2);
    const [taken, yoga] = access.map(({ time: _t, durationMs: _d, ...rest }) => rest);
    expect(taken).toMatchObject({ method: 'POST', status: 200, clientId: expect.any(String) });
    expect(taken).toEqual(yoga);
  });

  it.skipIf(!enabled)('a shared HTTP plugin that throws: a 500 in the GraphQL error body, without the cause', async () => {
    const headers = { ...auth(), 'Content-Type': 'application/json', 'X-Test-Fail': '1' };
    expect(taken(headers, byHash(SHIPMENT_DOCUMENT))).toBe(true);
    const answer = await post(port, headers, byHash(SHIPMENT_DOCUMENT));
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toMatch(/json/);
    expect(JSON.stringify(answer.body)).not.toMatch(/secret|plugin failure|\.ts:/);
  });

  it.skipIf(!enabled)('a content type other than JSON is left to Yoga', () => {
    expect(taken({ ...auth(), 'Content-Type': 'text/plain' }, byHash(SHIPMENT_DOCUMENT))).toBe(false);
    expect(taken({ ...auth(), 'Content-Type': 'application/json; charset=latin1' }, byHash(SHIPMENT_DOCUMENT))).toBe(false);
    expect(taken({ ...auth(), 'Content-Type': 'application/json; charset=UTF-8' }, byHash(SHIPMENT_DOCUMENT))).toBe(true);
  });
});

describe.each(dialects)('trusted documents only, over node:http on $name', ({ name, enabled }) => {
  let f: TestApp;
  let http: HttpServer;
  let port: number;
  let token: string;

  beforeAll(async () => {
    if (!enabled) return;
    const own = new URL('../trusted-documents.json', import.meta.url).pathname;
    const config = testConfig({ TT_GRAPHQL_TRUSTED_DOCUMENTS: own });
    f = await createTestApp(name, { config });
    await f.ingest(maeuBundle());
    ({ token } = await f.tokenFor('acct-a'));
    http = createHttpServer(f.app.listener, { config, log: () => undefined });
    port = await http.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await new Promise((resolve) => http?.server.close(resolve));
    await f?.destroy();
  });

  it.skipIf(!enabled)(
    'a manifest document by hash is taken and answered as Yoga answers it; any other hash is refused by Yoga',
    async () => {
      const body = (query: string) =>
        JSON.stringify({
          variables: { billOfLadingNumber: BL },
          extensions: { persistedQuery: { version: 1, sha256Hash: documentHash(query) } },
        });
      const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` };
      const take = (text: string) =>
        f.app.persisted.take({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json' },
          body: Buffer.from(text),
        } as unknown as IncomingMessage);

      expect(take(body(SHIPMENT_DOCUMENT))).toBeDefined();
      const socket = await post(port, headers, body(SHIPMENT_DOCUMENT));
      const yoga = await f.app.fetch(`${BASE}/graphql`, { method: 'POST', headers, body: body(SHIPMENT_DOCUMENT) });
      expect(socket.status).toBe(200);
      expect(comparable(socket.body)).toEqual(comparable(await yoga.json()));

      expect(take(body(ETA))).toBeUndefined();
      const refused = await post(port, headers, body(ETA));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ errors: [{ extensions: { code: 'TRUSTED_DOCUMENTS_ONLY' } }] });
    },
  );
});

describe('the answer type of an Accept header, as Yoga picks it', () => {
  it('takes the first JSON type listed; any other type or charset is left to Yoga', () => {
    expect(answerType(undefined)).toBe('application/json');
    expect(answerType('*/*')).toBe('application/json');
    expect(answerType('application/graphql-response+json, application/json;q=0.9')).toBe('application/graphql-response+json');
    expect(answerType('application/json, application/graphql-response+json')).toBe('application/json');
    expect(answerType('*/*, application/graphql-response+json')).toBe('application/json');
    expect(answerType('application/json; charset=iso-8859-1')).toBeUndefined();
    expect(answerType('multipart/mixed, application/json')).toBeUndefined();
    expect(answerType('text/html')).toBeUndefined();
  });
});

/** A POST over a socket to the node:http listener. */
function post(port: number, headers: Record<string, string>, body: string, path = '/graphql'): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: pick((h) => res.headers[h] as string | undefined),
          body: parsed(Buffer.concat(chunks).toString()),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

function pick(read: (header: string) => string | undefined): Record<string, string | undefined> {
  return Object.fromEntries(HEADERS.map((h) => [h, read(h)]));
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The body without what differs between two requests: the transmission's id and time, the quota left and reset. */
function comparable(body: unknown): unknown {
  // A streamed answer (multipart, event stream) is text with JSON parts in it.
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.replace(/"(transmissionID|transmissionDateTime|remaining|resetAt)":("[^"]*"|\d+)/g, '"$1":"<varies>"');
}
