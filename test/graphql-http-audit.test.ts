import type { AddressInfo } from 'node:net';
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../src/http/http-server.js';
import { createLogger } from '../src/observability/logger.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';

/**
 * The GraphQL-over-HTTP audit of `graphql-http` (its own judgement, not a copy of its checks), against the app
 * served by the node:http server as `tracking serve` runs it, with persisted operations, @defer and the cost
 * plugins in place: every MUST and every SHOULD audit passes.
 */
describe('GraphQL over HTTP (graphql-http serverAudits)', () => {
  let f: TestApp;
  let http: HttpServer;
  let url: string;

  beforeAll(async () => {
    f = await createTestApp('sqlite');
    http = createHttpServer(f.app.listener, { config: f.config, log: createLogger('silent').log });
    await http.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    if (http) await http.drain(1000);
    await f?.destroy();
  });

  it('passes every MUST and SHOULD audit', async () => {
    const audits = serverAudits({
      url: () => url,
      // GETs must carry the CSRF header (docs/graphql.md, Browsers: CORS and CSRF), as every non-browser client may.
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
        const headers = new Headers(init?.headers);
        headers.set('X-GraphQL-Yoga-CSRF', '1');
        return fetch(input, { ...init, headers });
      },
    });
    const results = await Promise.all(audits.map(async (audit) => ({ name: audit.name, result: await audit.fn() })));
    const failed = results
      .filter(({ name }) => /^(MUST|SHOULD)\b/.test(name))
      .filter(({ result }) => result.status !== 'ok')
      .map(({ name, result }) => `${name}: ${'reason' in result ? result.reason : result.status}`);
    expect(failed).toEqual([]);
    expect(results.filter(({ name }) => name.startsWith('MUST')).length).toBeGreaterThanOrEqual(13);
    expect(results.filter(({ name }) => name.startsWith('SHOULD')).length).toBeGreaterThanOrEqual(23);
  });
});
