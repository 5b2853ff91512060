import { readFileSync } from 'node:fs';
import { getIntrospectionQuery, graphqlSync, type IntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { renderSchema } from '../src/graphql/print-schema.js';
import { schema } from '../src/graphql/schema/index.js';

describe('schema.graphql', () => {
  it('is the committed print of the Pothos schema (run `npm run schema:print` when this fails)', () => {
    const committed = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(renderSchema());
  });

  it('declares the named schemas of the spec that v1 serves as types', () => {
    const sdl = renderSchema();
    for (const name of [
      'Transmission', 'TransmissionHeader', 'ShipmentTracking', 'Location', 'Vessel', 'TransportCall',
      'DocumentReference', 'ShipmentEvent', 'TransportEvent', 'EquipmentEvent', 'Container', 'Exception',
      'Impact', 'TokenResponse', 'Error',
    ]) {
      expect(sdl).toMatch(new RegExp(`^type ${name} `, 'm'));
    }
  });
});

describe('root operation types', () => {
  const introspection = graphqlSync({ schema, source: getIntrospectionQuery() }).data as unknown as IntrospectionQuery;

  it('serves queries and the token mutation', () => {
    expect(introspection.__schema.queryType?.name).toBe('Query');
    expect(introspection.__schema.mutationType?.name).toBe('Mutation');
  });

  it('has no subscription root until push delivery is served (a type named Subscription would become one)', () => {
    expect(introspection.__schema.subscriptionType).toBeNull();
    expect(introspection.__schema.types.map((t) => t.name)).not.toContain('Subscription');
  });
});
