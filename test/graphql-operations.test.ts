import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EQUIPMENT_EVENT_FRAGMENT, SHIPMENT_DOCUMENT, SHIPMENT_TRACKING_SELECTION } from '../src/executor/shipment-document.js';
import { ShipmentSnapshot } from '../src/store/shipments/shipment-snapshot.js';
import { createHttpServer } from '../src/http/http-server.js';
import { documentHash, renderTrustedDocuments, serviceTrustedDocuments } from '../src/http/trusted-documents.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { maeuBundle } from './support/fixture-bundle.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * GraphQL the way GraphQL clients use it (docs/graphql.md): persisted operations (automatic, and trusted documents
 * only), @defer and @stream, the cost in every answer and `rateLimit`, and invalid tokens refused on public fields.
 */

const BL = 'MAEU1001BL';
const ETA = /* GraphQL */ `
  query Eta($bl: String) {
    shipment(billOfLadingNumber: $bl) {
      shipmentTracking {
        eta
      }
    }
  }
`;

interface Body {
  data?: any;
  errors?: { message: string; extensions?: Record<string, any>; path?: unknown[] }[];
  extensions?: Record<string, any>;
  hasNext?: boolean;
  incremental?: { data?: any; items?: unknown[]; path: unknown[]; errors?: { message: string; extensions?: any }[] }[];
}

function post(f: TestApp, body: unknown, token?: string, headers: Record<string, string> = {}) {
  return f.app.fetch(`${BASE}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
}

/** The JSON parts of a multipart/mixed answer, in the order they arrived. */
async function multipartParts(response: Response): Promise<Body[]> {
  const type = response.headers.get('content-type') ?? '';
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
  if (!boundary) throw new Error(`not multipart: ${type}`);
  const text = await response.text();
  return text
    .split(`--${boundary}`)
    .map((part) =>
      part
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n\n')
        .trim(),
    )
    .filter((json) => json.startsWith('{'))
    .map((json) => JSON.parse(json) as Body);
}

/** The `next` events of a text/event-stream answer, in order. */
async function ssePayloads(response: Response): Promise<Body[]> {
  const text = await response.text();
  return text
    .split(/\r?\n\r?\n/)
    .filter((event) => /^event: next$/m.test(event))
    .map((event) => JSON.parse(/^data: (.*)$/m.exec(event)![1]!) as Body);
}

describe('trusted-documents.json', () => {
  it('is what the build prints (run `npm run trusted-documents` when this fails)', () => {
    expect(readFileSync(new URL('../trusted-documents.json', import.meta.url), 'utf8')).toBe(renderTrustedDocuments());
  });

  it("holds the REST routes' documents, the webhook body's and GraphiQL's default documents, each by its hash", () => {
    const manifest = serviceTrustedDocuments();
    expect(Object.values(manifest)).toContain(SHIPMENT_DOCUMENT);
    for (const [hash, document] of Object.entries(manifest)) expect(documentHash(document)).toBe(hash);
    expect(Object.values(manifest).filter((d) => d.includes('query ShipmentEta'))).toHaveLength(2);
  });
});

describe('TT_GRAPHQL_TRUSTED_DOCUMENTS', () => {
  it('refuses at start-up a manifest whose hash is not its document, and one that is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tt-manifest-'));
    try {
      const forged = join(dir, 'forged.json');
      writeFileSync(forged, JSON.stringify({ [documentHash('{ __typename }')]: ETA }));
      expect(() => testConfig({ TT_GRAPHQL_TRUSTED_DOCUMENTS: forged })).toThrow(
        /TT_GRAPHQL_TRUSTED_DOCUMENTS: in .* is not the SHA-256 hash/,
      );
      expect(() => testConfig({ TT_GRAPHQL_TRUSTED_DOCUMENTS: join(dir, 'missing.json') })).toThrow(
        /TT_GRAPHQL_TRUSTED_DOCUMENTS must name readable/,
      );
      const own = new URL('../trusted-documents.json', import.meta.url).pathname;
      expect(testConfig({ TT_GRAPHQL_TRUSTED_DOCUMENTS: own }).graphql.trustedDocuments?.size).toBe(
        Object.keys(serviceTrustedDocuments()).length,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(dialects)('GraphQL operations on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    await f.ingest(maeuBundle());
    ({ token } = await f.tokenFor('acct-a'));
  });
  afterAll(async () => {
    await f?.destroy();
  });

  describe('automatic persisted queries', () => {
    it.skipIf(!enabled)('hash only -> PersistedQueryNotFound; hash + query -> stored and run; hash only -> runs', async () => {
      // A document of its own, so that no other test stored it.
      const query = `${ETA} # apq ${name}`;
      const persistedQuery = { version: 1, sha256Hash: documentHash(query) };
      const miss = await post(f, { variables: { bl: BL }, extensions: { persistedQuery } }, token);
      expect(miss.status).toBe(404);
      const missed = (await miss.json()) as Body;
      expect(missed.errors?.[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });

      const register = await post(f, { query, variables: { bl: BL }, extensions: { persistedQuery } }, token);
      expect(register.status).toBe(200);
      const registered = (await register.json()) as Body;
      expect(registered.errors).toBeUndefined();
      const eta = registered.data.shipment.shipmentTracking.eta as string;
      expect(eta).toMatch(/Z$/);

      const hit = await post(f, { variables: { bl: BL }, extensions: { persistedQuery } }, token);
      expect(hit.status).toBe(200);
      expect(((await hit.json()) as Body).data.shipment.shipmentTracking.eta).toBe(eta);
      // Apollo Client sends a hashed query as a GET.
      const params = new URLSearchParams({ variables: JSON.stringify({ bl: BL }), extensions: JSON.stringify({ persistedQuery }) });
      const get = await f.get(`/graphql?${params}`, token, { 'X-GraphQL-Yoga-CSRF': '1' });
      expect(get.status).toBe(200);
      expect(((await get.json()) as Body).data.shipment.shipmentTracking.eta).toBe(eta);
    });

    it.skipIf(!enabled)('another instance that has not seen the document answers NotFound once, then keeps it too', async () => {
      const other = await createTestApp(name, { testDatabase: f.t });
      try {
        const query = `${ETA} # two instances ${name}`;
        const persistedQuery = { version: 1, sha256Hash: documentHash(query) };
        expect((await post(f, { query, variables: { bl: BL }, extensions: { persistedQuery } }, token)).status).toBe(200);
        expect((await post(f, { variables: { bl: BL }, extensions: { persistedQuery } }, token)).status).toBe(200);
        // The load balancer sends the next request elsewhere: a miss, and the client's resend (what its link does).
        expect((await post(other, { variables: { bl: BL }, extensions: { persistedQuery } }, token)).status).toBe(404);
        expect((await post(other, { query, variables: { bl: BL }, extensions: { persistedQuery } }, token)).status).toBe(200);
        const hit = await post(other, { variables: { bl: BL }, extensions: { persistedQuery } }, token);
        expect(((await hit.json()) as Body).data.shipment.shipmentTracking.eta).toMatch(/Z$/);
      } finally {
        await other.app.close();
      }
    });

    it.skipIf(!enabled)('refuses a document sent under another hash (a hash never runs another document)', async () => {
      const persistedQuery = { version: 1, sha256Hash: documentHash('{ __typename }') };
      const response = await post(f, { query: ETA, variables: { bl: BL }, extensions: { persistedQuery } }, token);
      expect(response.status).toBe(400);
      expect(((await response.json()) as Body).errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_MISMATCH');
      const after = await post(f, { variables: { bl: BL }, extensions: { persistedQuery } }, token);
      expect(after.status).toBe(404);
    });
  });

  describe('@defer and @stream', () => {
    const DEFERRED = /* GraphQL */ `
      query Deferred($bl: String) {
        shipment(billOfLadingNumber: $bl) {
          shipmentTracking {
            eta
            ... @defer(label: "history") {
              containers {
                containerNumber
                eventHistory {
                  eventID
                }
              }
            }
          }
        }
      }
    `;

    it.skipIf(!enabled)(
      'multipart/mixed: the first part (eta) comes before the deferred part (containers), which completes it',
      async () => {
        const response = await post(f, { query: DEFERRED, variables: { bl: BL } }, token, { Accept: 'multipart/mixed' });
        expect(response.status).toBe(200);
        const parts = await multipartParts(response);
        expect(parts.length).toBeGreaterThanOrEqual(2);
        const [first, ...rest] = parts as [Body, ...Body[]];
        expect(first.hasNext).toBe(true);
        expect(first.data.shipment.shipmentTracking.eta).toMatch(/Z$/);
        expect(first.data.shipment.shipmentTracking.containers).toBeUndefined();
        const deferred = rest.flatMap((p) => p.incremental ?? []);
        expect(deferred).toHaveLength(1);
        expect(deferred[0]).toMatchObject({ path: ['shipment', 'shipmentTracking'] });
        expect(deferred[0]!.data.containers.length).toBeGreaterThan(0);
        expect(rest.at(-1)!.hasNext).toBe(false);
        // The whole document without @defer answers the same data at once.
        const whole = (await (
          await f.graphql(DEFERRED.replace('... @defer(label: "history") {', '... {'), { bl: BL }, token)
        ).json()) as Body;
        expect({ ...first.data.shipment.shipmentTracking, ...deferred[0]!.data }).toEqual(whole.data.shipment.shipmentTracking);
      },
    );

    it.skipIf(!enabled)('SSE: the same parts in the same order; @stream sends the rest of a list item by item', async () => {
      const streamed = /* GraphQL */ `
        query Streamed($bl: String) {
          shipment(billOfLadingNumber: $bl) {
            shipmentTracking {
              eta
              containers {
                containerNumber
                eventHistory @stream(initialCount: 1) {
                  eventID
                }
              }
            }
          }
        }
      `;
      const response = await post(f, { query: streamed, variables: { bl: BL } }, token, { Accept: 'text/event-stream' });
      expect(response.status).toBe(200);
      const payloads = await ssePayloads(response);
      const [first, ...rest] = payloads as [Body, ...Body[]];
      const containers = first.data.shipment.shipmentTracking.containers as { eventHistory: unknown[] }[];
      expect(containers.every((c) => c.eventHistory.length <= 1)).toBe(true);
      const items = rest.flatMap((p) => p.incremental ?? []).flatMap((i) => i.items ?? []);
      const whole = (await (await f.graphql(streamed.replace(' @stream(initialCount: 1)', ''), { bl: BL }, token)).json()) as Body;
      const total = (whole.data.shipment.shipmentTracking.containers as { eventHistory: unknown[] }[]).reduce(
        (n, c) => n + c.eventHistory.length,
        0,
      );
      expect(items.length).toBeGreaterThan(0);
      expect(containers.reduce((n, c) => n + c.eventHistory.length, 0) + items.length).toBe(total);
    });

    it.skipIf(!enabled)('tells a client that accepts only JSON what to send (406), and counts nothing', async () => {
      const response = await post(f, { query: DEFERRED, variables: { bl: BL } }, token, { Accept: 'application/json' });
      expect(response.status).toBe(406);
      const body = (await response.json()) as Body;
      expect(body.errors?.[0]).toMatchObject({
        message: expect.stringContaining('Accept: multipart/mixed'),
        extensions: { code: 'NOT_ACCEPTABLE' },
      });
    });

    it.skipIf(!enabled)('an error in a deferred part does not lose the first part', async () => {
      const query = /* GraphQL */ `
        query Partly($bl: String) {
          found: shipment(billOfLadingNumber: $bl) {
            shipmentTracking {
              eta
            }
          }
          ... @defer {
            missing: shipment(billOfLadingNumber: "NO-SUCH-BL") {
              shipmentTracking {
                eta
              }
            }
          }
        }
      `;
      const parts = await multipartParts(await post(f, { query, variables: { bl: BL } }, token, { Accept: 'multipart/mixed' }));
      const [first, ...rest] = parts as [Body, ...Body[]];
      expect(first.errors).toBeUndefined();
      expect(first.data.found.shipmentTracking.eta).toMatch(/Z$/);
      const deferred = rest.flatMap((p) => p.incremental ?? []);
      expect(deferred[0]?.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    });

    it.skipIf(!enabled)('limits, authentication and quotas count deferred fields as the rest', async () => {
      // Three full snapshots cost more than TT_GRAPHQL_MAX_COST (two fit): deferring two of them changes nothing.
      const full = (alias: string) => `${alias}: shipment(billOfLadingNumber: $bl) { shipmentTracking ${SHIPMENT_TRACKING_SELECTION} }`;
      const tooCostly = `query Costly($bl: String) { ${full('a')} ... @defer { ${full('b')} ${full('c')} } }\n${EQUIPMENT_EVENT_FRAGMENT}`;
      const refused = await post(f, { query: tooCostly, variables: { bl: BL } }, token, { Accept: 'multipart/mixed' });
      expect(refused.status).toBe(400);
      const [refusal] = await multipartParts(refused);
      expect(refusal!.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/^Query Cost limit of 5000 exceeded/),
        extensions: { code: 'GRAPHQL_LIMIT_EXCEEDED' },
      });
      // A lookup deferred to a later part still needs the token.
      const onlyDeferred = `query Later($bl: String) { __typename ... @defer { shipment(billOfLadingNumber: $bl) { shipmentTracking { eta } } } }`;
      const anonymous = await post(f, { query: onlyDeferred, variables: { bl: BL } }, undefined, { Accept: 'multipart/mixed' });
      expect(anonymous.status).toBe(401);
      // And counts against the quota like any lookup: the cost of the first part says 2 lookups.
      const two = `query Two($bl: String) { a: shipment(billOfLadingNumber: $bl) { shipmentTracking { eta } } ... @defer { b: shipment(billOfLadingNumber: $bl) { shipmentTracking { eta } } } }`;
      const [first] = await multipartParts(await post(f, { query: two, variables: { bl: BL } }, token, { Accept: 'multipart/mixed' }));
      expect(first!.extensions?.cost?.throttleStatus).toMatchObject({ quota: 'lookups', cost: 2 });
    });
  });

  describe('kept rendering', () => {
    /** A new app on the same data, so that the shipment's snapshot starts uncached. */
    async function fresh() {
      return createTestApp(name, { testDatabase: f.t });
    }
    const sentTracking = (text: string) => {
      const at = text.indexOf('"shipmentTracking":');
      return text.slice(at, text.indexOf(',"extensions":'));
    };

    it.skipIf(!enabled)('a persisted lookup sends the kept text of an unchanged version, with its own header and cost', async () => {
      const kept = vi.spyOn(ShipmentSnapshot.prototype, 'rendering');
      const app = await fresh();
      try {
        const persistedQuery = { version: 1, sha256Hash: documentHash(SHIPMENT_DOCUMENT) };
        const body = { variables: { billOfLadingNumber: BL }, extensions: { persistedQuery } };
        expect((await post(app, { ...body, query: SHIPMENT_DOCUMENT }, token)).status).toBe(200); // not cached yet
        const first = await (await post(app, body, token)).text(); // cached: rendered and kept
        expect(kept.mock.results.at(-1)?.value).toBeUndefined();
        const second = await (await post(app, body, token)).text(); // the kept text
        expect(Buffer.isBuffer(kept.mock.results.at(-1)?.value)).toBe(true); // kept as UTF-8 bytes (ShipmentSnapshot.rendering)
        expect(sentTracking(second)).toBe(sentTracking(first));
        const [a, b] = [JSON.parse(first) as Body, JSON.parse(second) as Body];
        expect(b.errors).toBeUndefined();
        // The same answer as executed, nulls kept (GraphQL's, not REST's rendering), the header the request's own.
        expect(b.data.shipment.shipmentTracking).toEqual(a.data.shipment.shipmentTracking);
        expect(sentTracking(second)).toContain('null');
        expect(Object.keys(b.data.shipment.transmissionHeader)).toEqual(Object.keys(a.data.shipment.transmissionHeader));
        expect(b.data.shipment.transmissionHeader.transmissionID).not.toBe(a.data.shipment.transmissionHeader.transmissionID);
        expect(b.extensions?.cost).toMatchObject({ requestedQueryCost: a.extensions?.cost.requestedQueryCost });
        expect(b.extensions?.cost.throttleStatus.remaining).toBe(a.extensions?.cost.throttleStatus.remaining - 1);
        // REST keeps its own rendering (nulls omitted) of the same version beside it.
        const rest = await (await app.get(`/v2/shipments?billOfLadingNumber=${BL}`, token)).text();
        expect(b.data.shipment.shipmentTracking.placeOfReceipt).toBeNull();
        expect((JSON.parse(rest) as { shipmentTracking: object }).shipmentTracking).not.toHaveProperty('placeOfReceipt');
      } finally {
        kept.mockRestore();
        await app.destroy();
      }
    });

    it.skipIf(!enabled)('answers aliases and __typename as execution does; another tenant still gets nothing', async () => {
      const query = `query Aliased($bl: String) {
  s: shipment(billOfLadingNumber: $bl) {
    __typename
    h: transmissionHeader { __typename who: receiverID schemaVersion triggerType transmissionDateTime }
    t: shipmentTracking { id e: eta containers { containerNumber latestEvent { ...E } } }
  }
}
fragment E on EquipmentEvent { eventID equipmentEventTypeCode }`;
      const kept = vi.spyOn(ShipmentSnapshot.prototype, 'rendering');
      const app = await fresh();
      try {
        const answers: Body[] = [];
        for (let i = 0; i < 3; i++) answers.push((await (await app.graphql(query, { bl: BL }, token)).json()) as Body);
        // The third answer was written from the kept text.
        expect(Buffer.isBuffer(kept.mock.results.at(-1)?.value)).toBe(true); // kept as UTF-8 bytes (ShipmentSnapshot.rendering)
        const [first, , third] = answers as [Body, Body, Body];
        expect(third).toMatchObject({
          data: { s: { __typename: 'Transmission', h: { __typename: 'TransmissionHeader', schemaVersion: '1.2' } } },
        });
        expect(Object.keys(third.data.s)).toEqual(['__typename', 'h', 't']);
        expect(Object.keys(third.data.s.h)).toEqual(['__typename', 'who', 'schemaVersion', 'triggerType', 'transmissionDateTime']);
        expect(third.data.s.h).toMatchObject({ who: first.data.s.h.who, triggerType: 'MANUAL_TRIGGER' });
        expect(third.data.s.h.transmissionDateTime).toMatch(/Z$/);
        expect(third.data.s.t).toEqual(first.data.s.t);
        const { token: other } = await app.tokenFor('acct-b');
        const theirs = (await (await app.graphql(query, { bl: BL }, other)).json()) as Body;
        expect(theirs.data?.s ?? null).toBeNull();
        expect(theirs.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      } finally {
        kept.mockRestore();
        await app.destroy();
      }
    });

    it.skipIf(!enabled)('writes a kept answer as its bytes, in every form a query is answered in and over node:http', async () => {
      const app = await fresh();
      const http = createHttpServer(app.app.listener, { config: testConfig(), log: () => undefined });
      const port = await http.listen(0, '127.0.0.1');
      try {
        const persistedQuery = { version: 1, sha256Hash: documentHash(SHIPMENT_DOCUMENT) };
        const body = { variables: { billOfLadingNumber: BL }, extensions: { persistedQuery } };
        const executed = await (await post(app, { ...body, query: SHIPMENT_DOCUMENT }, token)).text(); // not cached yet
        const tracking = sentTracking(executed);
        for (let i = 0; i < 2; i++) expect(sentTracking(await (await post(app, body, token)).text())).toBe(tracking); // kept
        for (const accept of ['application/json', 'application/graphql-response+json']) {
          const response = await post(app, body, token, { Accept: accept });
          const bytes = Buffer.from(await response.arrayBuffer());
          expect(response.headers.get('content-type')).toBe(`${accept}; charset=utf-8`);
          expect(response.headers.get('content-length')).toBe(String(bytes.byteLength));
          expect(sentTracking(bytes.toString('utf8'))).toBe(tracking);
        }
        const [event] = await ssePayloads(await post(app, body, token, { Accept: 'text/event-stream' }));
        const [part] = await multipartParts(await post(app, body, token, { Accept: 'multipart/mixed' }));
        const parsed = JSON.parse(executed) as Body;
        for (const answer of [event, part]) {
          expect(answer?.data.shipment.shipmentTracking).toEqual(parsed.data.shipment.shipmentTracking);
          expect(answer?.extensions?.cost.requestedQueryCost).toBe(parsed.extensions?.cost.requestedQueryCost);
        }
        // The node adapter writes the bytes to the socket: the same text, and its length in bytes.
        const overHttp = await fetch(`http://127.0.0.1:${port}/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        });
        const sent = Buffer.from(await overHttp.arrayBuffer());
        expect(overHttp.status).toBe(200);
        expect(overHttp.headers.get('content-length')).toBe(String(sent.byteLength));
        expect(sentTracking(sent.toString('utf8'))).toBe(tracking);
      } finally {
        await new Promise((resolve) => http.server.close(resolve));
        await app.destroy();
      }
    });

    it.skipIf(!enabled)('keeps nothing for a selection that varies per request (a variable or a directive in it)', async () => {
      const keep = vi.spyOn(ShipmentSnapshot.prototype, 'keepRendering');
      const app = await fresh();
      try {
        const varying = `query V($bl: String, $withEta: Boolean!) { shipment(billOfLadingNumber: $bl) { shipmentTracking { carrierCode eta @include(if: $withEta) } } }`;
        const answers: Body[] = [];
        for (const withEta of [true, true, false]) {
          answers.push((await (await app.graphql(varying, { bl: BL, withEta }, token)).json()) as Body);
        }
        expect(keep.mock.calls.filter(([n]) => n.startsWith('graphql-json:'))).toEqual([]);
        expect(answers[1]?.data.shipment.shipmentTracking.eta).toMatch(/Z$/);
        expect(answers[2]?.data.shipment.shipmentTracking).toEqual({ carrierCode: 'MAEU' });
      } finally {
        keep.mockRestore();
        await app.destroy();
      }
    });
  });

  describe('cost', () => {
    it.skipIf(!enabled)('every answer carries extensions.cost, and rateLimit says the same', async () => {
      const query = `query WithRateLimit($bl: String) {
  rateLimit { quota cost limit remaining resetAt requestedQueryCost }
  shipment(billOfLadingNumber: $bl) { shipmentTracking { eta } }
}`;
      const first = (await (await f.graphql(query, { bl: BL }, token)).json()) as Body;
      expect(first.errors).toBeUndefined();
      const cost = first.extensions?.cost;
      expect(cost).toMatchObject({ maximumQueryCost: 5000, throttleStatus: { quota: 'lookups', cost: 1 } });
      expect(first.data.rateLimit).toEqual({ ...cost.throttleStatus, quota: 'LOOKUPS', requestedQueryCost: cost.requestedQueryCost });
      expect(Date.parse(cost.throttleStatus.resetAt)).toBeGreaterThan(Date.now() - 1000);
      expect(cost.throttleStatus.remaining).toBeLessThan(cost.throttleStatus.limit);

      const second = (await (await f.graphql(query, { bl: BL }, token)).json()) as Body;
      expect(second.extensions?.cost.throttleStatus.remaining).toBe(cost.throttleStatus.remaining - 1);

      // The computed cost is the document's: two aliased lookups of the same selection cost twice one.
      const one = (await (await f.graphql(ETA, { bl: BL }, token)).json()) as Body;
      const doubled = `query Two($bl: String) { a: shipment(billOfLadingNumber: $bl) { shipmentTracking { eta } } b: shipment(billOfLadingNumber: $bl) { shipmentTracking { eta } } }`;
      const two = (await (await f.graphql(doubled, { bl: BL }, token)).json()) as Body;
      expect(one.extensions?.cost.requestedQueryCost).toBeGreaterThan(0);
      // (Armor's cost has fractions; the answer rounds it.)
      expect(Math.abs(two.extensions?.cost.requestedQueryCost - 2 * one.extensions?.cost.requestedQueryCost)).toBeLessThanOrEqual(1);
      expect(two.extensions?.cost.throttleStatus).toMatchObject({ cost: 2, remaining: one.extensions?.cost.throttleStatus.remaining - 2 });

      // rateLimit alone costs nothing, and says what is left.
      const alone = (await (await f.graphql('{ rateLimit { cost remaining } }', {}, token)).json()) as Body;
      expect(alone.data.rateLimit).toEqual({ cost: 0, remaining: two.extensions?.cost.throttleStatus.remaining });

      // Issuing a token counts against the tokens quota: one point per token issued.
      const { clientId, clientSecret } = await f.tokenFor('acct-a');
      const issue = `mutation { issueToken(grant_type: "client_credentials", client_id: "${clientId}", client_secret: "${clientSecret}") { token_type } }`;
      const issued = (await (await f.graphql(issue)).json()) as Body;
      expect(issued.extensions?.cost.throttleStatus).toMatchObject({ quota: 'tokens', cost: 1 });

      // Without a token: the computed cost only.
      const anonymous = (await (await f.graphql('{ __typename }')).json()) as Body;
      expect(anonymous.extensions?.cost).toEqual({ requestedQueryCost: 1, maximumQueryCost: 5000 });
    });

    it.skipIf(!enabled)('a refusal over quota carries the cost too, with nothing remaining', async () => {
      const limited = await createTestApp(name, {
        testDatabase: f.t,
        config: testConfig({ TT_QUOTA_LOOKUPS_PER_MINUTE: '2', TT_QUOTA_LOOKUPS_BURST: '0' }),
      });
      try {
        const { token: limitedToken } = await limited.tokenFor('acct-a');
        for (let i = 0; i < 2; i++) expect((await limited.graphql(ETA, { bl: BL }, limitedToken)).status).toBe(200);
        const refused = await limited.graphql(ETA, { bl: BL }, limitedToken);
        expect(refused.status).toBe(429);
        const body = (await refused.json()) as Body;
        expect(body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
        expect(body.extensions?.cost.throttleStatus).toMatchObject({ quota: 'lookups', cost: 1, limit: 2, remaining: 0 });
      } finally {
        await limited.app.close();
      }
    });
  });

  describe('invalid tokens', () => {
    it.skipIf(!enabled)('are refused with 401 invalid_token on public fields; no token at all may still ask them', async () => {
      const refused = await f.graphql('{ __typename }', {}, 'not-a-token');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      expect(((await refused.json()) as Body).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      const forged = await f.graphql('{ __typename }', {}, `${token.slice(0, -4)}AAAA`);
      expect(forged.status).toBe(401);
      const anonymous = await f.graphql('{ __typename }');
      expect(anonymous.status).toBe(200);
      expect(((await anonymous.json()) as Body).data).toEqual({ __typename: 'Query' });
      const valid = await f.graphql('{ __typename }', {}, token);
      expect(valid.status).toBe(200);
    });
  });
});

describe.each(dialects)('trusted documents only on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  let dir: string;
  let receiver: WebhookReceiver;
  const CLIENT_DOCUMENT = `${ETA} # a client's build`;

  beforeAll(async () => {
    if (!enabled) return;
    dir = mkdtempSync(join(tmpdir(), 'tt-trusted-'));
    const clientManifest = join(dir, 'client.json');
    writeFileSync(clientManifest, JSON.stringify({ [documentHash(CLIENT_DOCUMENT)]: CLIENT_DOCUMENT }));
    const own = new URL('../trusted-documents.json', import.meta.url).pathname;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name, { config: testConfig({ TT_GRAPHQL_TRUSTED_DOCUMENTS: `${own},${clientManifest}` }) });
    await f.ingest(maeuBundle());
    ({ token } = await f.tokenFor('acct-a', { subscribe: true }));
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!enabled)('refuses a document outside the manifest with 400 naming the rule', async () => {
    for (const body of [
      { query: ETA, variables: { bl: BL } },
      { variables: { bl: BL }, extensions: { persistedQuery: { version: 1, sha256Hash: documentHash(ETA) } } },
      { query: ETA, variables: { bl: BL }, extensions: { persistedQuery: { version: 1, sha256Hash: documentHash(ETA) } } },
    ]) {
      const response = await post(f, body, token);
      expect(response.status).toBe(400);
      const error = ((await response.json()) as Body).errors?.[0];
      expect(error?.extensions?.code).toBe('TRUSTED_DOCUMENTS_ONLY');
      expect(error?.message).toContain('TT_GRAPHQL_TRUSTED_DOCUMENTS');
    }
  });

  it.skipIf(!enabled)("runs a manifest's document by hash, and as text", async () => {
    const persistedQuery = { version: 1, sha256Hash: documentHash(CLIENT_DOCUMENT) };
    const byHash = await post(f, { variables: { bl: BL }, extensions: { persistedQuery } }, token);
    expect(byHash.status).toBe(200);
    const eta = ((await byHash.json()) as Body).data.shipment.shipmentTracking.eta as string;
    expect(eta).toMatch(/Z$/);
    const asText = await post(f, { query: CLIENT_DOCUMENT, variables: { bl: BL } }, token);
    expect(((await asText.json()) as Body).data.shipment.shipmentTracking.eta).toBe(eta);
    // The service's own lookup document is in its manifest.
    const own = await post(
      f,
      {
        variables: { billOfLadingNumber: BL },
        extensions: { persistedQuery: { version: 1, sha256Hash: documentHash(SHIPMENT_DOCUMENT) } },
      },
      token,
    );
    expect(((await own.json()) as Body).data.shipment.shipmentTracking.eta).toBe(eta);
  });

  it.skipIf(!enabled)('leaves the REST routes and webhook bodies alone', async () => {
    const rest = await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token);
    expect(rest.status).toBe(200);
    const events = await f.get('/v2/events', token);
    expect(events.status).toBe(200);
    const created = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, billOfLadingNumber: BL });
    expect(created.status, await created.clone().text()).toBe(201);
    const { subscriptionID } = (await created.json()) as { subscriptionID: string };
    const start = receiver.received.length;
    const test = await f.send('POST', `/v2/subscriptions/${subscriptionID}/test`, token);
    expect(test.status, await test.clone().text()).toBe(200);
    const sent = receiver.received.slice(start);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.json.shipmentTracking.billOfLadingNumber ?? sent[0]!.json.shipmentTracking).toBeTruthy();
    expect(JSON.stringify(sent[0]!.json)).toContain(BL);
  });
});
