import { request as httpRequest } from 'node:http';
import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../src/http/http-server.js';
import { createLogger } from '../src/observability/logger.js';
import { createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { maeuBundle } from './support/fixture-bundle.js';

/**
 * The REST routes as node:http serves them (src/http/rest-server.ts: straight on node:http, the shared HTTP
 * plugins run without the fetch adapter): over a real socket, the statuses, headers, bodies and access-log
 * lines a client relies on, and the same answers app.fetch gives in-process.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

type Line = Record<string, unknown>;

const ORIGIN = 'https://app.example';
const LOOKUP = '/v2/shipments?billOfLadingNumber=MAEU1001BL';

describe.each(dialects)('REST over node:http on $name', ({ name, enabled }) => {
  let f: TestApp;
  let http: HttpServer;
  let port: number;
  let token: string;
  let clientId: string;
  let clientSecret: string;
  const lines: Line[] = [];
  const destination = { write: (text: string) => void lines.push(JSON.parse(text) as Line) } as DestinationStream;

  beforeAll(async () => {
    if (!enabled) return;
    const config = testConfig({ TT_CORS_ORIGINS: ORIGIN });
    f = await createTestApp(name, { config, logger: createLogger('debug', destination) });
    await f.ingest(maeuBundle());
    ({ token, clientId, clientSecret } = await f.tokenFor('acct-a'));
    http = createHttpServer(f.app.listener, { config, log: () => undefined });
    port = await http.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await new Promise((resolve) => http?.server.close(resolve));
    await f?.destroy();
  });

  function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  const auth = () => ({ Authorization: `Bearer ${token}` });

  it.skipIf(!enabled)('a lookup: 200 with the ETag, caching, correlation, RateLimit and CORS headers, as app.fetch answers', async () => {
    const answer = await send('GET', LOOKUP, { ...auth(), 'X-Request-ID': 'node-lookup-1', Origin: ORIGIN });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['etag']).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(answer.headers['cache-control']).toBe('private, no-cache');
    expect(answer.headers['x-request-id']).toBe('node-lookup-1');
    expect(answer.headers['x-correlation-id']).toBe('node-lookup-1');
    expect(answer.headers['ratelimit-limit']).toEqual(expect.any(String));
    expect(answer.headers['ratelimit-remaining']).toEqual(expect.any(String));
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(answer.headers['vary']).toContain('Origin');
    const body = JSON.parse(answer.body) as { transmissionHeader: unknown; shipmentTracking: unknown };

    const inProcess = await f.get(LOOKUP, token, { Origin: ORIGIN });
    expect(inProcess.status).toBe(200);
    const expected = (await inProcess.json()) as typeof body;
    expect(body.shipmentTracking).toEqual(expected.shipmentTracking);
    expect(Object.keys(body.transmissionHeader as object)).toEqual(Object.keys(expected.transmissionHeader as object));
    for (const header of ['etag', 'cache-control', 'content-type', 'access-control-allow-origin', 'vary', 'ratelimit-limit']) {
      expect(answer.headers[header], header).toBe(inProcess.headers.get(header));
    }

    const access = lines.filter((l) => l.correlationId === 'node-lookup-1' && l.message === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ level: 'info', method: 'GET', route: '/v2/shipments', status: 200, clientId });
  });

  it.skipIf(!enabled)('a conditional poll: 304 with no body and the same tag', async () => {
    const etag = (await send('GET', LOOKUP, auth())).headers['etag'] as string;
    const answer = await send('GET', LOOKUP, { ...auth(), 'If-None-Match': etag, 'X-Request-ID': 'node-304' });
    expect(answer.status).toBe(304);
    expect(answer.body).toBe('');
    expect(answer.headers['etag']).toBe(etag);
    expect(answer.headers['cache-control']).toBe('private, no-cache');
    expect(answer.headers['x-request-id']).toBe('node-304');
    expect(answer.headers['ratelimit-remaining']).toEqual(expect.any(String));
    expect(lines).toContainEqual(expect.objectContaining({ correlationId: 'node-304', message: 'request', status: 304 }));
  });

  it.skipIf(!enabled)('refusals: 401, 404, 400 and 405 in the DCSA error body with the correlation id', async () => {
    const unauthenticated = await send('GET', LOOKUP, { 'X-Request-ID': 'node-401' });
    expect(unauthenticated.status).toBe(401);
    expect(JSON.parse(unauthenticated.body)).toMatchObject({ statusCode: 401, providerCorrelationReference: 'node-401' });

    const missing = await send('GET', '/v2/shipments?billOfLadingNumber=NOPE0001', { ...auth(), 'X-Request-ID': 'node-404' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ statusCode: 404, providerCorrelationReference: 'node-404' });
    expect(lines).toContainEqual(expect.objectContaining({ correlationId: 'node-404', message: 'request', level: 'debug', status: 404 }));

    const bad = await send('GET', '/v2/shipments?nope=1', auth());
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ statusCode: 400, errors: [expect.objectContaining({ property: 'nope' })] });

    const wrongMethod = await send('DELETE', LOOKUP, auth());
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers['allow']).toBe('GET');
    expect(JSON.parse(wrongMethod.body)).toMatchObject({ statusCode: 405 });
  });

  it.skipIf(!enabled)('HEAD answers with the headers of its GET and no body; a preflight gets the CORS answer', async () => {
    const head = await send('HEAD', '/.well-known/jwks.json');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['cache-control']).toBe('public, max-age=300');

    const preflight = await send('OPTIONS', LOOKUP, { Origin: ORIGIN, 'Access-Control-Request-Method': 'GET' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(preflight.headers['access-control-allow-methods']).toContain('GET');
  });

  it.skipIf(!enabled)('a body route: the token grant reads its form body', async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString();
    const answer = await send('POST', '/oauth/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, form);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
  });
});
