import { gunzipSync } from 'node:zlib';
import { parse, validate, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningJwk } from '../src/auth/signing-keys.js';
import { GRAPHIQL_ASSETS_PATH } from '../src/http/graphiql/assets.js';
import { graphiqlDefaultDocument } from '../src/http/graphiql/default-document.js';
import { schema } from '../src/graphql/schema/index.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { localPageAssets } from './support/page-assets.js';
import { createSandboxApp, type SandboxApp } from './support/sandbox-app.js';

/** GET /graphql as a browser asks for it. */
async function graphiqlPage(f: TestApp): Promise<{ response: Response; html: string; options: Record<string, unknown> }> {
  const response = await f.app.fetch(`${BASE}/graphql`, { headers: { Accept: 'text/html' } });
  const html = await response.text();
  const rendered = /renderYogaGraphiQL\([^,]+, (\{.*\})\);/.exec(html)?.[1];
  return { response, html, options: rendered ? (JSON.parse(rendered) as Record<string, unknown>) : {} };
}

describe.each([true, false])('the default document (with the demo token: %s)', (withDemoToken) => {
  const source = graphiqlDefaultDocument({ withDemoToken });
  const document = parse(source);
  const operations = document.definitions
    .filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
    .map((d) => d.name?.value);

  it('is valid against the schema', () => {
    expect(validate(schema, document)).toEqual([]);
  });

  it('names in its comments only operations it has', () => {
    const comments = source
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .join('\n');
    const named = comments.match(/\b(?:[A-Z][a-z]+){2,}\b/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(operations).toContain(name);
  });
});

describe('GraphiQL in the sandbox', () => {
  let f: SandboxApp;
  beforeAll(async () => {
    f = await createSandboxApp('sqlite');
  });
  afterAll(async () => f?.destroy());

  it('loads every asset from this server', async () => {
    const { response, html } = await graphiqlPage(f);
    expect(response.status).toBe(200);
    const assets = localPageAssets(html);
    expect(assets).toEqual(expect.arrayContaining([`${GRAPHIQL_ASSETS_PATH}/yoga-graphiql.js`, `${GRAPHIQL_ASSETS_PATH}/graphiql.css`]));
    for (const path of [...assets, `${GRAPHIQL_ASSETS_PATH}/editor.worker.js`, `${GRAPHIQL_ASSETS_PATH}/graphql.worker.js`]) {
      const asset = await f.app.fetch(`${BASE}${path}`);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('pre-fills the Headers tab with a working token of the demo client, kept out of caches and storage', async () => {
    const { response, options } = await graphiqlPage(f);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(options).toMatchObject({ shouldPersistHeaders: false });
    const headers = JSON.parse(options.defaultHeaders as string) as Record<string, string>;
    expect(headers.Authorization).toMatch(/^Bearer ey/);
    expect(options.defaultQuery).toBe(graphiqlDefaultDocument({ withDemoToken: true }));
    const lookup = await f.app.fetch(`${BASE}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ query: options.defaultQuery, operationName: 'ShipmentEta' }),
    });
    const body = (await lookup.json()) as { data: { shipment: { shipmentTracking: { eta: string } } } };
    expect(body.data.shipment.shipmentTracking.eta).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('pre-fills nothing once the demo client is disabled', async () => {
    const other = await createSandboxApp('sqlite');
    try {
      await other.app.clients.disableClient(other.demo.client_id);
      const { options } = await graphiqlPage(other);
      expect(options).not.toHaveProperty('defaultHeaders');
      expect(options.defaultQuery).toBe(graphiqlDefaultDocument({ withDemoToken: false }));
    } finally {
      await other.destroy();
    }
  });

  it('serves the assets gzipped to clients that accept it', async () => {
    const path = `${BASE}${GRAPHIQL_ASSETS_PATH}/graphiql.css`;
    const plain = Buffer.from(await (await f.app.fetch(path)).arrayBuffer());
    const response = await f.app.fetch(path, { headers: { 'Accept-Encoding': 'gzip, deflate' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).equals(plain)).toBe(true);
    expect((await f.app.fetch(`${BASE}${GRAPHIQL_ASSETS_PATH}/nope.js`)).status).toBe(404);
  });
});

describe('GraphiQL outside the sandbox', () => {
  it('production with TT_GRAPHIQL=true serves GraphiQL without a token, even beside a sandbox demo client', async () => {
    const sandbox = await createSandboxApp('sqlite');
    try {
      const config = testConfig({
        TT_ENVIRONMENT: 'production',
        TT_SIGNING_KEY: JSON.stringify(await generateSigningJwk()),
        TT_SECRET_PEPPER: 'p'.repeat(32),
        TT_GRAPHIQL: 'true',
      });
      const production = await createTestApp('sqlite', { config, testDatabase: sandbox.t });
      const { response, options } = await graphiqlPage(production);
      expect(response.status).toBe(200);
      expect(options).not.toHaveProperty('defaultHeaders');
      expect(options.defaultQuery).toBe(graphiqlDefaultDocument({ withDemoToken: false }));
    } finally {
      await sandbox.destroy();
    }
  });

  it('TT_GRAPHIQL=false serves neither the page nor its assets', async () => {
    const f = await createTestApp('sqlite', { config: testConfig({ TT_GRAPHIQL: 'false' }) });
    try {
      const { html } = await graphiqlPage(f);
      expect(html).not.toContain('renderYogaGraphiQL');
      expect((await f.app.fetch(`${BASE}${GRAPHIQL_ASSETS_PATH}/yoga-graphiql.js`)).status).toBe(404);
    } finally {
      await f.destroy();
    }
  });
});
