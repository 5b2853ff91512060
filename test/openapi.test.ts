import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_ASSETS_PATH } from '../src/openapi/docs-page.js';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { OpenApiResponseValidator } from './support/openapi-validator.js';
import { localPageAssets } from './support/page-assets.js';

type Json = Record<string, any>;

const document = buildOpenApiDocument(testConfig()) as Json;

/** Every `content` of every response: where, its media type object. */
function mediaTypes(): [string, Json][] {
  const out: [string, Json][] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      if (method === 'parameters') continue;
      for (const [status, response] of Object.entries((operation as Json).responses as Json)) {
        for (const [type, media] of Object.entries(((response as Json).content ?? {}) as Json)) {
          out.push([`${method.toUpperCase()} ${path} ${status} ${type}`, media as Json]);
        }
      }
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names the environment base address as its server', () => {
    expect(document.servers).toEqual([{ url: BASE, description: 'This sandbox environment.' }]);
    expect(document.components.securitySchemes.clientCredentials.flows.clientCredentials.tokenUrl).toBe(`${BASE}/oauth/token`);
  });

  it('has the contract schemas the spec names', () => {
    for (const name of [
      'Transmission',
      'TransmissionHeader',
      'ShipmentTracking',
      'Location',
      'Vessel',
      'TransportCall',
      'DocumentReference',
      'ShipmentEvent',
      'TransportEvent',
      'EquipmentEvent',
      'Container',
      'Exception',
      'Impact',
      'TokenResponse',
      'OAuthError',
      'Error',
    ]) {
      expect(document.components.schemas).toHaveProperty(name);
    }
  });

  it('gives every JSON response recorded examples that match its schema', () => {
    const validator = new OpenApiResponseValidator(document);
    for (const [where, media] of mediaTypes()) {
      const examples = Object.entries((media.examples ?? {}) as Json);
      expect(examples.length, where).toBeGreaterThan(0);
      const validate = validator.schemaValidator(media.schema as Json);
      for (const [name, example] of examples) expect(validate((example as Json).value), `${where}: ${name}`).toBe(true);
    }
  });

  it('refuses a body with a field it does not document', async () => {
    const example = document.paths['/v2/shipments'].get.responses['200'].content['application/json'].examples;
    const body = structuredClone(Object.values(example as Json)[0].value) as Json;
    body.shipmentTracking.containers[0].sealNumber = 'X1';
    const response = new Response(JSON.stringify(body), {
      headers: {
        'Content-Type': 'application/json',
        'X-Correlation-ID': crypto.randomUUID(),
        'X-Request-ID': crypto.randomUUID(),
        'Cache-Control': 'private, no-cache',
        ETag: 'W/"p8Kq1Jm3YzV0c2Xn4hT6bR9wLsE"',
        'RateLimit-Limit': '600',
        'RateLimit-Remaining': '599',
        'RateLimit-Reset': '60',
        'RateLimit-Policy': '600;w=60',
      },
    });
    const { problems } = await new OpenApiResponseValidator(document).check('GET', '/v2/shipments', response);
    expect(problems).toEqual([expect.stringMatching(/^body\/shipmentTracking\/containers\/0: must NOT have additional properties/)]);
  });
});

describe('GET /openapi.json and /docs', () => {
  let f: TestApp;
  beforeAll(async () => {
    f = await createTestApp('sqlite');
  });
  afterAll(async () => f?.destroy());

  it('serves the document', async () => {
    const response = await f.app.fetch(`${BASE}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('serves the reference page with every asset from this server', async () => {
    const response = await f.app.fetch(`${BASE}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('"url":"/openapi.json"');
    const assets = localPageAssets(html);
    expect(assets).toEqual(expect.arrayContaining([`${DOCS_ASSETS_PATH}/swagger-ui-bundle.js`, `${DOCS_ASSETS_PATH}/swagger-ui.css`]));
    for (const path of assets) expect((await f.app.fetch(`${BASE}${path}`)).status, path).toBe(200);
  });

  it('answers 405 to other methods', async () => {
    expect((await f.app.fetch(`${BASE}/openapi.json`, { method: 'POST' })).status).toBe(405);
  });
});
