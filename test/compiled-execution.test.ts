import { execute, getIntrospectionQuery, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema/index.js';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { maeuBundle } from './support/fixture-bundle.js';

/**
 * Execution is compiled (graphql-jit, src/executor/use-compiled-execution.ts).
 * Compiled operations are cached per document AND operation name: one
 * document may hold several operations (GraphiQL's default holds a mutation
 * and a query), and each must run as itself.
 */
describe('compiled execution', () => {
  let f: TestApp;
  let token: string;
  let credentials: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    f = await createTestApp('sqlite');
    await f.ingest(maeuBundle());
    const issued = await f.tokenFor('acct-a');
    token = issued.token;
    credentials = issued;
  });
  afterAll(async () => f?.destroy());

  async function run(query: string, operationName: string, bearer?: string) {
    const response = await f.app.fetch(`${BASE}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify({ query, operationName }),
    });
    return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
  }

  it('runs the named operation of a document with several, each time', async () => {
    const document = `
      mutation Token {
        issueToken(grant_type: "client_credentials", client_id: "${credentials.clientId}", client_secret: "${credentials.clientSecret}") {
          token_type
        }
      }
      query Eta { shipment(billOfLadingNumber: "MAEU1001BL") { shipmentTracking { eta } } }
    `;
    for (let i = 0; i < 2; i++) {
      const token1 = await run(document, 'Token');
      expect(token1.body.data).toEqual({ issueToken: { token_type: 'Bearer' } });
      const eta = await run(document, 'Eta', token);
      expect(eta.body.data).toEqual({ shipment: { shipmentTracking: { eta: '2026-12-01T09:00:00.000Z' } } });
    }
  });

  it('keeps resolver errors as the interpreter reports them: code, details and HTTP status', async () => {
    const missing = await run('query Missing { shipment(billOfLadingNumber: "NOPE") { shipmentTracking { eta } } }', 'Missing', token);
    expect(missing.status).toBe(404);
    expect(missing.body.data).toEqual({ shipment: null });
    expect(missing.body.errors?.[0]).toMatchObject({
      path: ['shipment'],
      extensions: { code: 'NOT_FOUND', details: [{ errorCode: 8005 }] },
    });
  });

  it('answers introspection (GraphiQL, codegen) as the interpreter does', async () => {
    const query = getIntrospectionQuery();
    const compiled = await run(query, 'IntrospectionQuery');
    const interpreted = await execute({ schema, document: parse(query) });
    expect(compiled.body.errors).toBeUndefined();
    expect(compiled.body.data).toEqual(JSON.parse(JSON.stringify(interpreted.data)));
  });
});
