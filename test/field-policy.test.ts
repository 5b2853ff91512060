import { GraphQLObjectType, GraphQLSchema, GraphQLString, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { READ_SCOPE, SUBSCRIBE_SCOPE } from '../src/auth/scopes.js';
import { createExecutor } from '../src/executor/executor.js';
import { fieldPolicy, type FieldPolicy } from '../src/executor/field-policy.js';
import { runDocument } from '../src/executor/run-document.js';
import { useAuthentication } from '../src/executor/use-authentication.js';
import { schema } from '../src/graphql/schema/index.js';

const ROOTS = ['query', 'mutation', 'subscription'] as const;

/** Every root field of the schema, with the operation type it belongs to. */
function rootFieldsOf(target: GraphQLSchema): [string, (typeof ROOTS)[number]][] {
  return ROOTS.flatMap((operation) => {
    const type = target.getRootType(operation as never);
    return type && isObjectType(type)
      ? Object.keys(type.getFields()).map((name) => [name, operation] as [string, (typeof ROOTS)[number]])
      : [];
  });
}

describe('field policies (src/executor/field-policy.ts)', () => {
  it('are declared by every root field of the schema', () => {
    const missing = rootFieldsOf(schema).filter(([name, operation]) => !fieldPolicy(schema, operation, name));
    expect(missing).toEqual([]);
  });

  it('say what each root field needs and costs', () => {
    const all = Object.fromEntries(rootFieldsOf(schema).map(([name, operation]) => [name, fieldPolicy(schema, operation, name)]));
    expect(all.shipment).toEqual({ access: { scope: READ_SCOPE }, quota: 'lookups', conditional: true } satisfies FieldPolicy);
    expect(all.shipmentUpdates).toMatchObject({ access: { scope: READ_SCOPE }, quota: 'lookups' });
    expect(all.issueToken).toEqual({ access: 'public' });
    // Asking what is left of the quota needs a token (a quota is a client's) and spends none of it.
    expect(all.rateLimit).toEqual({ access: { scope: READ_SCOPE } } satisfies FieldPolicy);
    for (const name of Object.keys(all).filter((n) => /webhook/i.test(n))) {
      expect(all[name], name).toMatchObject({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' });
    }
  });

  it('refuse a root field that declares none, before it runs (fail closed)', async () => {
    let ran = false;
    const bare = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: {
          secret: {
            type: GraphQLString,
            resolve: () => {
              ran = true;
              return 'leaked';
            },
          },
        },
      }),
    });
    const logged: string[] = [];
    const executor = createExecutor({
      schema: bare,
      context: () => ({
        services: { log: (_level: string, message: string) => logged.push(message) },
        correlationId: 'test',
        principal: () => Promise.reject(new Error('no token')),
      }),
      plugins: [useAuthentication()],
      maskError: (error) => error as Error,
      onMasked: () => {},
    });
    const result = await runDocument<{ secret: string }>(executor, {
      request: new Request('http://test/graphql'),
      query: '{ secret }',
      operationName: '',
      variables: {},
    });
    expect(ran).toBe(false);
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(logged).toContain('root field without a policy refused');
  });
});
