import { readFileSync } from 'node:fs';
import {
  buildSchema,
  getIntrospectionQuery,
  graphqlSync,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  type GraphQLScalarType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
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
      'Error',
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

  it('serves live updates as the subscription root, its only field shipmentUpdates; push types never take its name', () => {
    expect(introspection.__schema.subscriptionType?.name).toBe('Subscription');
    const root = introspection.__schema.types.find((t) => t.name === 'Subscription');
    expect(root && 'fields' in root ? root.fields?.map((f) => f.name) : []).toEqual(['shipmentUpdates']);
    expect(introspection.__schema.types.map((t) => t.name)).toContain('WebhookSubscription');
  });
});

/** Every type, field, argument and enum value of `s` without a description (built-in scalars and introspection aside). */
function undocumented(s: GraphQLSchema): string[] {
  const missing: string[] = [];
  const check = (path: string, description: string | null | undefined) => {
    if (!description?.trim()) missing.push(path);
  };
  for (const type of Object.values(s.getTypeMap())) {
    if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
    check(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        check(`${type.name}.${field.name}`, field.description);
        for (const arg of field.args) check(`${type.name}.${field.name}(${arg.name})`, arg.description);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) check(`${type.name}.${field.name}`, field.description);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) check(`${type.name}.${value.name}`, value.description);
    }
  }
  return missing;
}

describe('documentation in the schema (what GraphiQL and other explorers show)', () => {
  it('describes every type, field, argument and enum value', () => {
    expect(undocumented(schema)).toEqual([]);
  });

  it('the check finds what is missing', () => {
    const sample = buildSchema(`
      "Reads." type Query { "A." a(x: Int): E  b: String }
      enum E { "One." ONE TWO }
      input I { c: Int }
    `);
    expect(undocumented(sample)).toEqual(['Query.a(x)', 'Query.b', 'E', 'E.TWO', 'I', 'I.c']);
  });
});

describe('DateTime', () => {
  const dateTime = schema.getType('DateTime') as GraphQLScalarType;

  it('serializes the stored canonical UTC string unchanged, and nothing else', () => {
    expect(dateTime.serialize('2026-11-20T12:00:00.000Z')).toBe('2026-11-20T12:00:00.000Z');
    expect(() => dateTime.serialize('2026-11-20T13:00:00+01:00')).toThrow(/canonical UTC/);
    expect(() => dateTime.serialize(new Date())).toThrow(/canonical UTC/);
  });

  it('parses an input with any offset to UTC and refuses one without an offset', () => {
    expect(dateTime.parseValue('2026-11-20T13:00:00+01:00')).toBe('2026-11-20T12:00:00.000Z');
    expect(() => dateTime.parseValue('2026-11-20T12:00:00')).toThrow(/with a UTC offset/);
  });
});
