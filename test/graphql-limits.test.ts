import { performance } from 'node:perf_hooks';
import { getIntrospectionQuery, Kind, parse, print, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationCache } from '../src/executor/use-compiled-execution.js';
import { introspects, withoutSuggestion } from '../src/executor/use-introspection-policy.js';
import { generateSigningJwk } from '../src/auth/signing-keys.js';
import { ConfigError, DEFAULT_GRAPHQL_LIMITS, loadConfig } from '../src/config/config.js';
import { graphiqlDefaultDocument } from '../src/http/graphiql/default-document.js';
import { SHIPMENT_DOCUMENT } from '../src/executor/shipment-document.js';
import { SUBSCRIPTION_DOCUMENTS } from '../src/executor/subscription-documents.js';
import { ISSUE_TOKEN } from '../src/executor/token-document.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { createTestDatabase } from './support/databases.js';
import { createSandboxApp, type SandboxApp } from './support/sandbox-app.js';
import { documentationText } from './support/docs.js';

/**
 * GraphQL documents are bounded before they are compiled or run
 * (src/executor/use-graphql-limits.ts, docs/architecture.md, Limits and failure), introspection and
 * suggestions follow TT_GRAPHQL_INTROSPECTION (use-introspection-policy.ts),
 * /graphql refuses what a cross-site form could send (use-csrf-prevention.ts),
 * and CORS is an allow-list (cors-policy.ts). Plain HTTP behaviour: SQLite
 * only.
 */

type Body = { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };

async function post(
  f: TestApp,
  query: string,
  token?: string,
  operationName?: string,
): Promise<{ status: number; body: Body; ms: number }> {
  const started = performance.now();
  const response = await f.app.fetch(`${BASE}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, ...(operationName ? { operationName } : {}) }),
  });
  const body = (await response.json()) as Body;
  return { status: response.status, body, ms: performance.now() - started };
}

/** The lookup's full selection (the REST document's), aliased `count` times. */
function aliasBomb(count: number): string {
  const open = SHIPMENT_DOCUMENT.indexOf('{', SHIPMENT_DOCUMENT.indexOf('shipment('));
  const fragmentAt = SHIPMENT_DOCUMENT.indexOf('fragment EquipmentEventFields');
  const selection = SHIPMENT_DOCUMENT.slice(open, SHIPMENT_DOCUMENT.lastIndexOf('}', fragmentAt - 1)).trim();
  const aliases = Array.from({ length: count }, (_, i) => `a${i}: shipment(billOfLadingNumber: "MAEU262150002") ${selection}`);
  return `query Bomb {\n${aliases.join('\n')}\n}\n${SHIPMENT_DOCUMENT.slice(fragmentAt)}`;
}

function nestedInlineFragments(levels: number): string {
  return `{ ${'... on Query { '.repeat(levels)}__typename${' }'.repeat(levels)} }`;
}

async function productionApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig({
    TT_ENVIRONMENT: 'production',
    TT_SIGNING_KEY: JSON.stringify(await generateSigningJwk()),
    TT_SECRET_PEPPER: 'p'.repeat(32),
    ...overrides,
  });
  return createTestApp('sqlite', { config });
}

function expectLimitError(result: { status: number; body: Body }, message: RegExp) {
  expect(result.status).toBe(400);
  expect(result.body.data).toBeUndefined();
  expect(result.body.errors?.[0]?.message).toMatch(message);
  expect(result.body.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_LIMIT_EXCEEDED', correlationId: expect.any(String) });
}

/** Each operation of a document on its own, with the document's fragments (limits are per operation). */
function operationsOf(source: string): string[] {
  const document = parse(source);
  const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  return document.definitions
    .filter((d) => d.kind === Kind.OPERATION_DEFINITION)
    .map((operation) => print({ kind: Kind.DOCUMENT, definitions: [operation, ...fragments] } as DocumentNode));
}

/** The GraphQL of the README: its graphql code blocks and the queries of its curl examples. */
function readmeDocuments(): string[] {
  const readme = documentationText();
  const blocks = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const curls = [...readme.matchAll(/-d '(\{"query":[^']*\})'/g)].map((m) => (JSON.parse(m[1] as string) as { query: string }).query);
  return [...blocks, ...curls];
}

describe("the service's own documents stay within the default limits", () => {
  let f: TestApp;
  beforeAll(async () => {
    f = await createTestApp('sqlite');
  });
  afterAll(async () => f?.destroy());

  const documents: [string, string][] = [
    ['the REST lookup and push body (RestShipmentLookup)', SHIPMENT_DOCUMENT],
    ['the token grant (RestIssueToken)', ISSUE_TOKEN],
    ...Object.entries(SUBSCRIPTION_DOCUMENTS).map(([name, d]): [string, string] => [`REST subscriptions: ${name}`, d.query]),
    ["GraphiQL's default document (sandbox)", graphiqlDefaultDocument({ withDemoToken: true })],
    ["GraphiQL's default document (production)", graphiqlDefaultDocument({ withDemoToken: false })],
    // What GraphiQL sends for its docs explorer, with every option it may turn on.
    [
      "GraphiQL's introspection query",
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      }),
    ],
    ...readmeDocuments().map((d, i): [string, string] => [`README example ${i + 1}`, d]),
  ];

  it('finds the README examples', () => {
    expect(readmeDocuments().length).toBeGreaterThanOrEqual(3);
  });

  it.each(documents)('%s', (_name, source) => {
    for (const operation of operationsOf(source)) {
      const enveloped = f.app.yoga.getEnveloped({ request: new Request(`${BASE}/graphql`, { method: 'POST' }) });
      // The app's own parse and validate: the token limit, the Armor rules and the schema's rules.
      const errors = enveloped.validate(enveloped.schema, enveloped.parse(operation));
      expect(
        errors.map((e: { message: string }) => e.message),
        operation,
      ).toEqual([]);
    }
  });
});

describe('limits on /graphql', () => {
  let f: SandboxApp;
  beforeAll(async () => {
    f = await createSandboxApp('sqlite');
  });
  afterAll(async () => f?.destroy());

  // No wall-clock bounds here (timing belongs in `npm run bench`): what is asserted is where a document is
  // refused (by its message: the parser's token count, the validation rules) and that it never runs.
  it('refuses a 1,000-alias full-snapshot lookup at the token limit, and a concurrent lookup is answered', async () => {
    const bomb = aliasBomb(1000);
    const lookup = '{ shipment(billOfLadingNumber: "MAEU262150002") { shipmentTracking { eta containers { containerNumber } } } }';
    await post(f, lookup, f.token); // compiled once, as a client's repeated query is
    const [refused, concurrent] = await Promise.all([post(f, bomb, f.token), post(f, lookup, f.token)]);
    console.log(
      `1,000-alias lookup (${(bomb.length / 1e6).toFixed(1)} MB): refused in ${refused.ms.toFixed(1)} ms; ` +
        `concurrent lookup: ${concurrent.ms.toFixed(1)} ms`,
    );
    // The token limit stops the parser at the 1,001st token: the rest of the document is never read.
    expectLimitError(refused, /^Token limit of 1000 exceeded\.$/);
    expect(concurrent.status).toBe(200);
    expect(concurrent.body.data.shipment.shipmentTracking.eta).toBeDefined();
  });

  it('refuses the same document on aliases and cost when the token limit is raised, before compiling or running it', async () => {
    let executions = 0;
    const raised = await createTestApp('sqlite', {
      config: testConfig({ TT_GRAPHQL_MAX_TOKENS: '1000000' }),
      plugins: [{ onExecute: () => void executions++ }],
    });
    try {
      const { token } = await raised.tokenFor('acct');
      const before = executions;
      const refused = await post(raised, aliasBomb(1000), token);
      expectLimitError(refused, /^Aliases limit of 15 exceeded, found 1000\.$/);
      expect(refused.body.errors?.map((e: { message: string }) => e.message)).toContainEqual(
        expect.stringMatching(/^Query Cost limit of 5000 exceeded/),
      );
      // Refused in validation: it never reached execution, where it would be compiled (that took 30 to 60 s).
      expect(executions).toBe(before);
      expect((await post(raised, '{ __typename }', token)).status).toBe(200);
      expect(executions).toBe(before + 1);
    } finally {
      await raised.destroy();
    }
  });

  it('refuses 16 aliases, 51 directives, depth 13 and three full snapshots, each with its own message', async () => {
    // (GraphQL Armor does not count aliases of __typename.)
    const aliases = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: shipment(billOfLadingNumber: "B${i}") { etd }`).join(' ')} }`;
    expectLimitError(await post(f, aliases), /^Aliases limit of 15 exceeded, found 16\.$/);
    const directives = `{ ${Array.from({ length: 51 }, () => '__typename @include(if: true)').join(' ')} }`;
    expectLimitError(await post(f, directives), /^Directives limit of 50 exceeded, found 51\.$/);
    expectLimitError(await post(f, nestedInlineFragments(13)), /^Query depth limit of 12 exceeded, found 14\.$/);
    expectLimitError(await post(f, aliasBomb(3), f.token), /^Query Cost limit of 5000 exceeded, found \d+/);
  });

  it('takes what the limits allow: two full snapshots, nesting 11', async () => {
    const two = await post(f, aliasBomb(2), f.token);
    expect(two.status).toBe(200);
    expect(two.body.data.a1.shipmentTracking.containers.length).toBeGreaterThan(0);
    const nested = await post(f, nestedInlineFragments(10));
    expect(nested.status).toBe(200);
  });

  it('answers 5,000 nested inline fragments with 400, with the default token limit or a raised one', async () => {
    expectLimitError(await post(f, nestedInlineFragments(5000)), /^Token limit of 1000 exceeded\.$/);
    const raised = await createTestApp('sqlite', { config: testConfig({ TT_GRAPHQL_MAX_TOKENS: '1000000' }) });
    try {
      for (const levels of [5000, 50_000]) {
        const result = await post(raised, nestedInlineFragments(levels));
        expect(result.status, `${levels} levels`).toBe(400);
        expect(result.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_LIMIT_EXCEEDED');
      }
      // Deeper than the parser's stack: its RangeError, an unexpected 500 before, is this 400 now.
      expect((await post(raised, nestedInlineFragments(50_000))).body.errors?.[0]?.message).toBe('The document is nested too deeply.');
    } finally {
      await raised.destroy();
    }
  });
});

describe('introspection and suggestions', () => {
  const introspection = getIntrospectionQuery();
  const typo = '{ shipmnt(billOfLadingNumber: "MAEU262150002") { transmissionHeader { transmissionID } } }';

  describe('in production (default: a token is needed)', () => {
    let f: TestApp;
    let token: string;
    beforeAll(async () => {
      f = await productionApp();
      token = (await f.tokenFor('acct')).token;
    });
    afterAll(async () => f?.destroy());

    it('refuses introspection without a valid token: 401, saying why', async () => {
      for (const query of [
        introspection,
        '{ __type(name: "Query") { name } }',
        'query { ...F } fragment F on Query { __schema { queryType { name } } }',
      ]) {
        for (const bearer of [undefined, 'not-a-token']) {
          const refused = await post(f, query, bearer);
          expect(refused.status).toBe(401);
          expect(refused.body.data).toBeUndefined();
          expect(refused.body.errors?.[0]?.message).toMatch(/^GraphQL introspection requires a valid access token: /);
          expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED', correlationId: expect.any(String) });
        }
      }
    });

    it('answers introspection with a token, and __typename without one', async () => {
      const allowed = await post(f, introspection, token);
      expect(allowed.status).toBe(200);
      expect(allowed.body.data.__schema.queryType.name).toBe('Query');
      expect((await post(f, '{ __typename }')).body.data).toEqual({ __typename: 'Query' });
    });

    it('refuses a 300-alias introspection document without a token at the token limit', async () => {
      const aliases = Array.from({ length: 300 }, (_, i) => `s${i}: __schema { ...FullType }`).join('\n');
      const query = `query { ${aliases} }\n${introspection.slice(introspection.indexOf('fragment FullType'))}`;
      const refused = await post(f, query);
      // Stopped by the parser's token count, before any introspection runs.
      expectLimitError(refused, /^Token limit of 1000 exceeded\.$/);
    });

    it('hides "Did you mean" without a token and shows it with one', async () => {
      const anonymous = await post(f, typo);
      expect(anonymous.body.errors?.[0]?.message).toBe('Cannot query field "shipmnt" on type "Query".');
      expect(anonymous.body.errors?.[0]?.extensions?.correlationId).toEqual(expect.any(String));
      const enumTypo = '{ webhookDeliveries(subscriptionID: "x", status: DELIVERD) { deliveryID } }';
      expect((await post(f, enumTypo)).body.errors?.[0]?.message).toBe('Value "DELIVERD" does not exist in "WebhookDeliveryStatus" enum.');
      const withToken = await post(f, typo, token);
      expect(withToken.body.errors?.[0]?.message).toBe(
        'Cannot query field "shipmnt" on type "Query". Did you mean "shipment" or "shipments"?',
      );
      // Yoga caches validation errors per document: hiding one copy must not change the next answer.
      expect((await post(f, typo)).body.errors?.[0]?.message).not.toMatch(/Did you mean/);
    });
  });

  it('in sandbox, introspection and suggestions are open (GraphiQL)', async () => {
    const f = await createTestApp('sqlite');
    try {
      expect((await post(f, introspection)).body.data.__schema.queryType.name).toBe('Query');
      expect((await post(f, typo)).body.errors?.[0]?.message).toMatch(/Did you mean "shipment" or "shipments"\?$/);
    } finally {
      await f.destroy();
    }
  });

  it('TT_GRAPHQL_INTROSPECTION=off refuses introspection and hides suggestions even with a token', async () => {
    const f = await createTestApp('sqlite', { config: testConfig({ TT_GRAPHQL_INTROSPECTION: 'off' }) });
    try {
      const { token } = await f.tokenFor('acct');
      const refused = await post(f, introspection, token);
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0]).toMatchObject({
        message: 'GraphQL introspection is disabled on this service.',
        extensions: { code: 'INTROSPECTION_DISABLED' },
      });
      expect((await post(f, typo, token)).body.errors?.[0]?.message).toBe('Cannot query field "shipmnt" on type "Query".');
    } finally {
      await f.destroy();
    }
  });

  it('TT_GRAPHQL_INTROSPECTION=public opens production', async () => {
    const f = await productionApp({ TT_GRAPHQL_INTROSPECTION: 'public' });
    try {
      expect((await post(f, introspection)).status).toBe(200);
      expect((await post(f, typo)).body.errors?.[0]?.message).toMatch(/Did you mean "shipment" or "shipments"\?$/);
    } finally {
      await f.destroy();
    }
  });
});

describe('CSRF: /graphql takes only what a cross-site page cannot forge', () => {
  let f: TestApp;
  let credentials: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    f = await createTestApp('sqlite');
    credentials = await f.tokenFor('acct');
  });
  afterAll(async () => f?.destroy());

  const mutation = () =>
    `mutation { issueToken(grant_type: "client_credentials", client_id: "${credentials.clientId}", client_secret: "${credentials.clientSecret}") { access_token } }`;

  it('refuses a form-encoded or multipart mutation with 415, even with the CSRF header', async () => {
    const form = new URLSearchParams({ query: mutation() }).toString();
    for (const headers of [{}, { 'X-GraphQL-Yoga-CSRF': '1' }] as Record<string, string>[]) {
      const response = await f.app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: form,
      });
      expect(response.status).toBe(415);
      const body = (await response.json()) as Body;
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]?.message).toBe(
        'POST /graphql takes a JSON body (Content-Type: application/json), not application/x-www-form-urlencoded.',
      );
      expect(body.errors?.[0]?.extensions?.correlationId).toEqual(expect.any(String));
    }
    const multipart = new FormData();
    multipart.set('operations', JSON.stringify({ query: mutation() }));
    const response = await f.app.fetch(`${BASE}/graphql`, { method: 'POST', body: multipart });
    expect(response.status).toBe(415);
  });

  it('refuses a text/plain POST and a GET without the CSRF header (403)', async () => {
    const plain = await f.app.fetch(`${BASE}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ query: mutation() }),
    });
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as Body).errors?.[0]?.message).toBe('Required CSRF header(s) not present');
    const get = await f.app.fetch(`${BASE}/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(get.status).toBe(403);
  });

  it('answers a GET query with the header, and still refuses a mutation over GET (405)', async () => {
    const headers = { 'X-GraphQL-Yoga-CSRF': '1' };
    const query = await f.app.fetch(`${BASE}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers });
    expect(query.status).toBe(200);
    expect(((await query.json()) as { data: unknown }).data).toEqual({ __typename: 'Query' });
    const viaGet = await f.app.fetch(`${BASE}/graphql?query=${encodeURIComponent(mutation())}`, { headers });
    expect(viaGet.status).toBe(405);
  });

  it('runs a JSON mutation, and leaves the REST routes alone: POST /oauth/token stays form-encoded', async () => {
    const json = await post(f, mutation());
    expect(json.status).toBe(200);
    expect(json.body.data.issueToken.access_token).toEqual(expect.any(String));
    const token = await f.app.fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }).toString(),
    });
    expect(token.status).toBe(200);
    // A JSON POST to /v2/subscriptions reaches its handler (here: 401 for the missing token, not a CSRF refusal).
    const subscription = await f.send('POST', '/v2/subscriptions', undefined, { callbackUrl: 'https://example.com/hook' });
    expect(subscription.status).toBe(401);
  });

  it('GraphiQL sends the CSRF header with every request (its live updates use GET)', async () => {
    const page = await (await f.app.fetch(`${BASE}/graphql`, { headers: { Accept: 'text/html' } })).text();
    const options = JSON.parse(/renderYogaGraphiQL\([^,]+, (\{.*\})\);/.exec(page)?.[1] ?? '{}') as Record<string, unknown>;
    expect(options.additionalHeaders).toEqual({ 'x-graphql-yoga-csrf': 'graphiql' });
  });
});

describe('CORS', () => {
  async function corsHeaders(f: TestApp, origin: string, init: RequestInit = {}, path = '/health') {
    const response = await f.app.fetch(`${BASE}${path}`, { ...init, headers: { Origin: origin, ...(init.headers ?? {}) } });
    return {
      status: response.status,
      allowOrigin: response.headers.get('access-control-allow-origin'),
      allowCredentials: response.headers.get('access-control-allow-credentials'),
      allowMethods: response.headers.get('access-control-allow-methods'),
      vary: response.headers.get('vary'),
    };
  }
  const preflight = {
    method: 'OPTIONS',
    headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' },
  };

  it('sends no CORS headers by default', async () => {
    const f = await createTestApp('sqlite');
    try {
      for (const init of [{}, preflight]) {
        const headers = await corsHeaders(f, 'https://evil.example', init, '/graphql');
        expect(headers.allowOrigin).toBeNull();
        expect(headers.allowCredentials).toBeNull();
      }
    } finally {
      await f.destroy();
    }
  });

  it('with TT_CORS_ORIGINS, allows the listed origins only, never with credentials', async () => {
    for (const listed of ['https://app.example.com', 'https://app.example.com, https://ops.example.com:8443']) {
      const f = await createTestApp('sqlite', { config: testConfig({ TT_CORS_ORIGINS: listed }) });
      try {
        const allowed = await corsHeaders(f, 'https://app.example.com');
        expect(allowed).toMatchObject({ allowOrigin: 'https://app.example.com', allowCredentials: null });
        expect(allowed.vary).toMatch(/\bOrigin\b/);
        const preflighted = await corsHeaders(f, 'https://app.example.com', preflight, '/graphql');
        expect(preflighted).toMatchObject({ status: 204, allowOrigin: 'https://app.example.com', allowCredentials: null });
        expect(preflighted.allowMethods).toContain('POST');
        for (const origin of ['https://evil.example', 'https://app.example.com.evil.example', 'null']) {
          const refused = await corsHeaders(f, origin, preflight, '/graphql');
          expect(refused, origin).toMatchObject({ allowOrigin: null, allowCredentials: null });
        }
      } finally {
        await f.destroy();
      }
    }
  });
});

describe('configuration', () => {
  const production = {
    TT_ENVIRONMENT: 'production',
    TT_BASE_URL: 'https://api.example.com',
    TT_SIGNING_KEY: '{}',
    TT_SECRET_PEPPER: 'p'.repeat(32),
  };

  it("defaults: GraphQL Armor's limits (depth 12), introspection open in sandbox only, no CORS", () => {
    expect(DEFAULT_GRAPHQL_LIMITS).toEqual({ maxTokens: 1000, maxDepth: 12, maxAliases: 15, maxDirectives: 50, maxCost: 5000 });
    expect(loadConfig({}).graphql).toEqual({ limits: DEFAULT_GRAPHQL_LIMITS, introspection: 'public', compiledCacheSize: 100 });
    expect(loadConfig(production).graphql.introspection).toBe('token');
    expect(loadConfig({}).corsOrigins).toEqual([]);
  });

  it("stops start-up when a limit is below what the service's own documents need, naming the variable", async () => {
    const t = await createTestDatabase('sqlite');
    try {
      for (const [name, value, document] of [
        ['TT_GRAPHQL_MAX_DEPTH', '6', 'RestShipmentLookup'],
        ['TT_GRAPHQL_MAX_COST', '1000', 'RestShipmentLookup'],
        ['TT_GRAPHQL_MAX_TOKENS', '200', 'RestShipmentLookup'],
      ] as const) {
        const config = testConfig({ [name]: value });
        await expect(createTestApp('sqlite', { config, testDatabase: t })).rejects.toThrow(
          new RegExp(`^${name} is too low for the service's own ${document} document: `),
        );
      }
    } finally {
      await t.destroy();
    }
  });

  it('reads every variable, and names the bad one', () => {
    const config = loadConfig({
      TT_GRAPHQL_MAX_TOKENS: '2000',
      TT_GRAPHQL_MAX_DEPTH: '8',
      TT_GRAPHQL_MAX_ALIASES: '0',
      TT_GRAPHQL_MAX_DIRECTIVES: '5',
      TT_GRAPHQL_MAX_COST: '9000',
      TT_GRAPHQL_COMPILED_CACHE_SIZE: '0',
      TT_GRAPHQL_INTROSPECTION: 'off',
      TT_CORS_ORIGINS: ' https://App.example.com ,http://localhost:3000',
    });
    expect(config.graphql).toEqual({
      limits: { maxTokens: 2000, maxDepth: 8, maxAliases: 0, maxDirectives: 5, maxCost: 9000 },
      introspection: 'off',
      compiledCacheSize: 0,
    });
    expect(config.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:3000']);
    expect(loadConfig({ ...production, TT_GRAPHQL_INTROSPECTION: 'public' }).graphql.introspection).toBe('public');
    for (const [name, value] of [
      ['TT_GRAPHQL_MAX_TOKENS', '10'],
      ['TT_GRAPHQL_MAX_DEPTH', 'deep'],
      ['TT_GRAPHQL_MAX_COST', '-1'],
      ['TT_GRAPHQL_INTROSPECTION', 'yes'],
      ['TT_CORS_ORIGINS', 'https://app.example.com/path'],
      ['TT_CORS_ORIGINS', 'app.example.com'],
    ]) {
      expect(() => loadConfig({ [name as string]: value }), `${name}=${value}`).toThrow(ConfigError);
      expect(() => loadConfig({ [name as string]: value })).toThrow(new RegExp(name as string));
    }
  });
});

describe('pure parts', () => {
  it('finds introspection in the operation that runs, through fragments and aliases', () => {
    const document = parse(`
      query Plain { __typename shipment(billOfLadingNumber: "B") { etd } }
      query Aliased { s: __schema { queryType { name } } }
      query ViaFragments { ... on Query { ...Types } }
      fragment Types on Query { __type(name: "Query") { name } }
    `);
    expect(introspects(document, 'Plain')).toBe(false);
    expect(introspects(document, 'Aliased')).toBe(true);
    expect(introspects(document, 'ViaFragments')).toBe(true);
    expect(introspects(parse('{ __schema { types { name } } }'), undefined)).toBe(true);
  });

  it('removes every form of graphql-js suggestion, and nothing else', () => {
    expect(withoutSuggestion('Cannot query field "shipmnt" on type "Query". Did you mean "shipment"?')).toBe(
      'Cannot query field "shipmnt" on type "Query".',
    );
    expect(
      withoutSuggestion(
        'Unknown argument "bl" on field "Query.shipment". Did you mean "billOfLadingNumber", "carrierCode", or "equipmentReference"?',
      ),
    ).toBe('Unknown argument "bl" on field "Query.shipment".');
    expect(
      withoutSuggestion('Value "DELIVERD" does not exist in "WebhookDeliveryStatus" enum. Did you mean the enum value "DELIVERED"?'),
    ).toBe('Value "DELIVERD" does not exist in "WebhookDeliveryStatus" enum.');
    expect(withoutSuggestion('Syntax Error: Unexpected Name "did".')).toBe('Syntax Error: Unexpected Name "did".');
  });

  it('keeps the most recently used compiled operations, by count', () => {
    const [a, b, c] = parse('query A { __typename } query B { __typename } query C { __typename }')
      .definitions as OperationDefinitionNode[];
    const cache = new OperationCache<string>(2);
    cache.set(a!, 'a');
    cache.set(b!, 'b');
    expect(cache.get(a!)).toBe('a'); // a is now the most recent
    cache.set(c!, 'c');
    expect([cache.get(a!), cache.get(b!), cache.get(c!)]).toEqual(['a', undefined, 'c']);
  });
});
