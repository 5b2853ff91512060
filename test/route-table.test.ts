import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { bodyLimitFor, matchRoute, routeLabel, ROUTES } from '../src/rest/route-table.js';
import { testConfig } from './support/app-fixture.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('the route table (src/rest/route-table.ts)', () => {
  const config = testConfig();
  const document = buildOpenApiDocument(config) as { paths: Record<string, Record<string, unknown>> };

  it('names exactly the paths and methods the OpenAPI document describes', () => {
    const fromTable = Object.fromEntries(
      ROUTES.filter((r) => r.documented).map((r) => [r.path, [...r.methods].map((m) => m.toLowerCase()).sort()]),
    );
    const fromDocument = Object.fromEntries(
      Object.entries(document.paths).map(([path, item]) => [
        path,
        Object.keys(item)
          .filter((k) => METHODS.includes(k))
          .sort(),
      ]),
    );
    expect(fromTable).toEqual(fromDocument);
  });

  it('gives every REST route a handler and a family, and each path one route', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const route of ROUTES.filter((r) => r.documented && !['/health', '/ready', '/.well-known/jwks.json'].includes(r.path))) {
      expect(route.handler, route.path).toBeTypeOf('function');
    }
  });

  it('matches templated paths with their parameters, ignoring a trailing slash', () => {
    expect(matchRoute('/v2/subscriptions/abc/deliveries/')).toMatchObject({
      route: { path: '/v2/subscriptions/{subscriptionID}/deliveries' },
      params: { subscriptionID: 'abc' },
    });
    expect(matchRoute('/v2/carrier-notifications/MAEU')?.params).toEqual({ carrierCode: 'MAEU' });
    expect(matchRoute('/v2/subscriptions/abc/nope')).toBeUndefined();
    expect(routeLabel('/v2/subscriptions/9f1c/rotate-secret')).toBe('/v2/subscriptions/{subscriptionID}/rotate-secret');
    expect(routeLabel('/no/such/path/123')).toBe('other');
  });

  it("takes each route's body limit from its own configuration", () => {
    const custom = testConfig({ TT_HTTP_MAX_BODY_BYTES: '2048', TT_CARRIER_NOTIFICATION_MAX_BYTES: '3000000' });
    expect(bodyLimitFor('/v2/carrier-notifications/MAEU', custom)).toBe(3_000_000);
    expect(bodyLimitFor('/v2/operator/ingest', custom)).toBe(custom.carriers.operatorIngestMaxBytes);
    expect(bodyLimitFor('/graphql', custom)).toBe(2048);
    expect(bodyLimitFor('/oauth/token', custom)).toBe(2048);
  });
});
