import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../src/http/http-server.js';
import { createLogger } from '../src/observability/logger.js';
import { LOOKUP_PARAMETERS } from '../src/executor/shipment-document.js';
import { dialects } from './support/databases.js';
import { createSandboxApp, SANDBOX_LOOKUPS, type SandboxApp } from './support/sandbox-app.js';

/**
 * Generated requests against a real listening server (the HTTP edge of
 * serve plus the app), on both stores: REST lookups, /oauth/token bodies and
 * headers, GraphQL documents, and raw request lines and Host headers over a
 * socket. Whatever is sent, the answer is never a 5xx, never carries a stack
 * trace or a path of the code, and has the route's error body.
 *
 * TT_FUZZ_RUNS multiplies the runs (default 1: about 2,000 requests per
 * store, a few seconds); e.g. TT_FUZZ_RUNS=20 for a long run.
 */
const SCALE = Math.max(1, Number(process.env.TT_FUZZ_RUNS ?? 1));
const runs = (n: number) => ({ numRuns: Math.round(n * SCALE) });

/** Stack frames, code paths, driver internals: nothing of the process's insides may be answered. */
const LEAK = /\bat .*\(.*:\d+:\d+\)|\bat [\w.<>]+ \(|node_modules|\/work\/|\/src\/[\w/-]+\.(?:ts|js)|ECONNREFUSED|SQLITE_|ER_[A-Z_]+/;

/** encodeURIComponent, or undefined for a lone surrogate (which no URL can carry). */
function encode(text: string, raw = false): string | undefined {
  try {
    return raw ? encodeURI(text) : encodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function checkNoLeak(text: string, what: string): void {
  expect(LEAK.test(text), `${what} leaks: ${text.slice(0, 300)}`).toBe(false);
}

/** A string with the characters attackers like: percent signs, separators, unicode, control-ish. */
const nasty = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ maxLength: 12, unit: 'grapheme' }),
  fc.constantFrom(
    '',
    ' ',
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '+',
    '&',
    '=',
    '==',
    '\u0000',
    '\uD800',
    '../..',
    'MAEU',
    'MAEU262150002',
    '262150001',
    'MSKU1357908',
    'msku1357908',
    'A'.repeat(300),
  ),
);

describe.each(dialects)('HTTP fuzz on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  let http: HttpServer;
  let base: string;
  let port: number;
  let sent = 0;
  /** Every log line written at info or above while the fuzz runs. */
  const logged: string[] = [];

  beforeAll(async () => {
    if (!enabled) return;
    const logger = createLogger('info', { write: (line: string) => void logged.push(line) });
    f = await createSandboxApp(name, { logger });
    http = createHttpServer(f.app.listener, { config: f.config, log: logger.log });
    port = await http.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (http) await http.drain(1000);
    await f?.destroy();
    if (enabled) console.log(`${name}: ${sent} generated requests`);
  });

  async function send(path: string, init: RequestInit = {}): Promise<{ status: number; text: string; response: Response }> {
    sent++;
    const response = await fetch(`${base}${path}`, init);
    const text = await response.text();
    expect(response.status, `${init.method ?? 'GET'} ${path}: ${text.slice(0, 200)}`).toBeLessThan(500);
    if (response.status >= 300) checkNoLeak(text, path);
    return { status: response.status, text, response };
  }

  function expectDcsaError(status: number, text: string, response: Response): void {
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body).toMatchObject({ statusCode: status, providerCorrelationReference: expect.any(String), errors: expect.any(Array) });
    expect(body.providerCorrelationReference).toBe(response.headers.get('x-correlation-id'));
  }

  it.skipIf(!enabled)('REST lookups: any query string', async () => {
    const key = fc.oneof(fc.constantFrom(...LOOKUP_PARAMETERS), nasty);
    const pair = fc.tuple(key, nasty, fc.boolean());
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { maxLength: 5 }), fc.constantFrom(f.token, null, 'garbage'), async (pairs, token) => {
        // Either properly encoded, or raw with only what a URL cannot carry escaped (malformed escapes stay).
        const query = pairs.map(([k, v, raw]) => `${encode(k, raw)}=${encode(v, raw)}`).join('&');
        if (query.includes('undefined')) return;
        let path: string;
        try {
          path = `/v2/shipments?${query}`;
          new URL(path, base);
        } catch {
          return;
        }
        const { status, text, response } = await send(path, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
        if (status === 200) expect(JSON.parse(text)).toHaveProperty('transmissionHeader');
        else expectDcsaError(status, text, response);
      }),
      runs(500),
    );
  });

  it.skipIf(!enabled)('/oauth/token: any form body and headers', async () => {
    const key = fc.oneof(fc.constantFrom('grant_type', 'client_id', 'client_secret', 'scope'), nasty);
    const value = fc.oneof(fc.constantFrom('client_credentials', f.demo.client_id, f.demo.client_secret, 'track-and-trace.read'), nasty);
    const authorization = fc.oneof(
      fc.constant(undefined),
      fc.tuple(nasty, nasty).map(([id, secret]) => `Basic ${Buffer.from(`${encode(id) ?? ''}:${secret}`).toString('base64')}`),
      fc.constantFrom(
        `Basic ${Buffer.from(`${f.demo.client_id}:${f.demo.client_secret}`).toString('base64')}`,
        'Basic',
        'Basic !!!',
        'Bearer x',
      ),
    );
    const contentType = fc.constantFrom(
      'application/x-www-form-urlencoded',
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded; charset=utf-8',
      undefined,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(key, value), { maxLength: 6 }),
        authorization,
        contentType,
        fc.constantFrom('POST', 'GET', 'PUT'),
        async (pairs, auth, type, method) => {
          const body = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
          if (auth?.includes('undefined') || body.includes('undefined')) return;
          const headers: Record<string, string> = {};
          if (auth) headers.Authorization = auth;
          if (type) headers['Content-Type'] = type;
          const { status, text } = await send('/oauth/token', { method, headers, ...(method === 'GET' ? {} : { body }) });
          const json = JSON.parse(text) as Record<string, unknown>;
          if (status === 200) expect(json).toHaveProperty('access_token');
          else expect(json).toEqual({ error: expect.any(String), error_description: expect.any(String) });
        },
      ),
      runs(500),
    );
  });

  it.skipIf(!enabled)('/graphql: any document, variables and operation name', async () => {
    const field = fc.oneof(
      fc.constantFrom(
        'shipment',
        'transmissionHeader',
        'transmissionID',
        '__typename',
        'containers',
        'exceptions',
        'eta',
        'webhookSubscriptions',
        '__schema',
      ),
      fc.stringMatching(/^[_A-Za-z][_0-9A-Za-z]{0,8}$/),
    );
    const argValue = fc.oneof(
      fc.json({ maxDepth: 1 }).map((j) => j),
      fc.constantFrom('"MAEU262150002"', '$v', '"MSKU1357908"', 'null', '1', '[]', '{}'),
    );
    const selection: fc.Arbitrary<string> = fc.letrec<{ sel: string }>((tie) => ({
      sel: fc.oneof(
        { depthSize: 'small' },
        field,
        fc
          .tuple(field, fc.array(fc.tuple(fc.constantFrom(...LOOKUP_PARAMETERS, 'x'), argValue), { maxLength: 2 }), tie('sel'))
          .map(([name, args, inner]) => `${name}${args.length ? `(${args.map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''} { ${inner} }`),
        fc.tuple(tie('sel'), tie('sel')).map(([a, b]) => `${a} ${b}`),
      ),
    })).sel;
    const document = fc.oneof(
      selection.map((s) => `{ ${s} }`),
      fc
        .tuple(fc.constantFrom('query', 'mutation', 'subscription', 'query Q($v: String)', 'fragment F on Transmission'), selection)
        .map(([op, s]) => `${op} { ${s} }`),
      nasty,
    );
    await fc.assert(
      fc.asyncProperty(
        document,
        fc.option(fc.jsonValue({ maxDepth: 2 })),
        fc.option(nasty),
        fc.boolean(),
        async (query, variables, operationName, withToken) => {
          const headers: Record<string, string> = { 'Content-Type': 'application/json' };
          if (withToken) headers.Authorization = `Bearer ${f.token}`;
          const { text } = await send('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables, operationName }) });
          const json = JSON.parse(text) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
          expect('data' in json || Array.isArray(json.errors), text.slice(0, 200)).toBe(true);
          for (const error of json.errors ?? []) expect(typeof error.message).toBe('string');
        },
      ),
      runs(300),
    );
  });

  it.skipIf(!enabled)('raw request lines and Host headers over a socket', async () => {
    const method = fc.oneof(
      fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'get', 'CONNECT', 'TRACE'),
      fc.stringMatching(/^[A-Z]{1,8}$/),
    );
    const target = fc.oneof(
      fc.constantFrom(
        '*',
        '/',
        '//evil/x',
        'http://evil/v2/shipments',
        'https://x:99999/',
        '/%',
        '/%zz',
        '/v2/shipments?%',
        '/graphql?query=%7B__typename%7D',
        '/oauth/token',
        '/ready',
        '/health',
        '/v2/subscriptions/%E0%A4%A',
        '/docs',
        '/openapi.json',
      ),
      fc.constantFrom(...Object.values(SANDBOX_LOOKUPS)).map((q) => `/v2/shipments?${q}`),
      fc.stringMatching(/^\/[\x21-\x7e]{0,40}$/),
      fc.stringMatching(/^[\x21-\x7e]{1,20}$/),
    );
    const host = fc.oneof(
      fc.constantFrom('localhost', 'x:99999', '[', 'a b', 'a@b', '[::1]:80', '127.0.0.1:1', '', ':', 'host:-1', 'h/x', '%00', 'xn--'),
      fc.stringMatching(/^[\x21-\x7e]{0,20}$/),
      fc.constant(null),
    );
    const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/1.1', 'HTTP/2.0', 'HTTP/9', 'http/1.1');
    await fc.assert(
      fc.asyncProperty(method, target, host, version, async (m, t, h, v) => {
        sent++;
        const lines = [`${m} ${t} ${v}`, ...(h === null ? [] : [`Host: ${h}`]), 'Connection: close', '', ''];
        const answer = await rawRequest(port, lines.join('\r\n'));
        const status = Number(/^HTTP\/1\.[01] (\d{3}) /.exec(answer)?.[1]);
        expect(status, `${lines[0]} / Host ${h}: ${answer.slice(0, 200)}`).toBeGreaterThanOrEqual(100);
        expect(status, `${lines[0]} / Host ${h}: ${answer.slice(0, 300)}`).toBeLessThan(500);
        // Error answers only: the OpenAPI document and the docs page name source files on purpose.
        if (status >= 300) checkNoLeak(answer, lines[0]!);
      }),
      runs(400),
    );
  });

  it.skipIf(!enabled)('refused requests are not logged at info, and no secret is logged', async () => {
    // Runs after the generated requests (vitest runs a file's tests in order).
    expect(sent).toBeGreaterThan(1000);
    const lines = logged.map((l) => JSON.parse(l) as { level: string; message: string; status?: number });
    expect(lines.filter((l) => l.message !== 'request' || (l.status ?? 0) >= 400)).toEqual([]);
    for (const secret of [f.demo.client_secret, f.token]) expect(logged.join('\n')).not.toContain(secret);
  });
});

/** Sends bytes on a new connection and reads until the server closes it (requests carry Connection: close). */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${JSON.stringify(text.slice(0, 80))}: ${answer.slice(0, 100)}`));
    }, 5000);
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', () => {});
    // write, not end: a client that half-closes before reading gets no answer from node's server (no httpAllowHalfOpen).
    socket.write(text);
  });
}
