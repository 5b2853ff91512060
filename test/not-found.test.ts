import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { OpenApiResponseValidator } from './support/openapi-validator.js';

/** Issue 27: every error has a body, a path of no route included. */
describe('a path of no route', () => {
  let f: TestApp;
  let validator: OpenApiResponseValidator;
  beforeAll(async () => {
    f = await createTestApp('sqlite');
    validator = new OpenApiResponseValidator(buildOpenApiDocument(f.config) as never);
  });
  afterAll(() => f.destroy());

  it.each(['/no/such/path', '/v2/shipment', '/v2/subscriptions/abc/nope', '/v3/shipments'])(
    'answers 404 %s with the DCSA error body and the correlation id',
    async (path) => {
      const response = await f.app.fetch(`${BASE}${path}?x=1`, { headers: { 'X-Request-ID': `probe${path.replaceAll('/', '.')}` } });
      expect(response.status).toBe(404);
      const correlationId = response.headers.get('x-correlation-id');
      expect(correlationId).toBe(`probe${path.replaceAll('/', '.')}`);
      const body = (await response.json()) as Record<string, unknown>;
      expect(validator.schemaValidator({ $ref: '#/components/schemas/Error' })(body)).toBe(true);
      expect(body).toMatchObject({
        statusCode: 404,
        httpMethod: 'GET',
        requestUri: `${path}?x=1`,
        providerCorrelationReference: correlationId,
        errors: [{ errorCodeText: 'notFound' }],
      });
    },
  );

  it('answers HEAD with 404 and no body, and leaves the routes alone', async () => {
    const head = await f.app.fetch(`${BASE}/no/such/path`, { method: 'HEAD' });
    expect(head.status).toBe(404);
    expect(await head.text()).toBe('');
    expect((await f.app.fetch(`${BASE}/health`)).status).toBe(200);
    expect((await f.app.fetch(`${BASE}/v2/shipments?billOfLadingNumber=X`)).status).toBe(401);
  });
});
