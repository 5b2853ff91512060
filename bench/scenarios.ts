import { createHash, randomInt } from 'node:crypto';
import { EQUIPMENT_EVENT_FRAGMENT, SHIPMENT_DOCUMENT, SHIPMENT_TRACKING_SELECTION } from '../src/executor/shipment-document.js';
import { shipmentKey } from './generate.js';
import type { RequestSpec } from './load.js';

/**
 * The requests of each scenario. Keys are drawn at random from the seeded
 * shipments for every request, so no scenario hits one hot row.
 */

export const EXCEPTION_FIELDS = `exceptionID exceptionType exceptionCategory severity status detectedDateTime resolvedDateTime
  resolutionType resolutionNote title description relatedEventID affectedContainers
  impact { field previousValue revisedValue delayHours } recommendedAction`;

/** GraphQL partial snapshot: `eta` and `exceptions` only (no event or container history). */
export const PARTIAL_DOCUMENT = /* GraphQL */ `
query BenchPartial($billOfLadingNumber: String) {
  shipment(billOfLadingNumber: $billOfLadingNumber) {
    shipmentTracking { eta exceptions { ${EXCEPTION_FIELDS} } }
  }
}`;

/**
 * The REST route's full-snapshot document with the history (events, containers, exceptions) deferred: the first
 * part is the header and the shipment's own fields, the second the rest (docs/graphql.md, @defer and @stream).
 */
const DEFERRED_SELECTION = SHIPMENT_TRACKING_SELECTION.replace('shipmentEvents {', '... @defer(label: "history") { shipmentEvents {');
export const DEFERRED_DOCUMENT = /* GraphQL */ `
query BenchDeferred($billOfLadingNumber: String) {
  shipment(billOfLadingNumber: $billOfLadingNumber) {
    transmissionHeader { transmissionID transmissionDateTime triggerType triggeredByEvent senderID receiverID schemaVersion }
    shipmentTracking ${DEFERRED_SELECTION.slice(0, DEFERRED_SELECTION.lastIndexOf('}'))}} }
  }
}

${EQUIPMENT_EVENT_FRAGMENT}`;

/**
 * The REST route's document as an automatic persisted query: registered once (hash and document), then sent as its
 * hash alone, as Apollo Client's persisted-queries link does (docs/graphql.md, Persisted operations).
 */
function persistedLookups(credentials: Credentials, bl: () => string): Scenario {
  const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(SHIPMENT_DOCUMENT).digest('hex') };
  const headers = { Authorization: `Bearer ${credentials.token}`, 'Content-Type': 'application/json' };
  return {
    name: 'GraphQL persisted full snapshot (hash only)',
    target: 'service',
    async prepare(server) {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: SHIPMENT_DOCUMENT, variables: { billOfLadingNumber: bl() }, extensions: { persistedQuery } }),
      });
      const body = (await response.json()) as { errors?: unknown[] };
      if (response.status !== 200 || body.errors)
        throw new Error(`registering the persisted query: ${response.status} ${JSON.stringify(body)}`);
    },
    next: () => ({
      method: 'POST',
      path: '/graphql',
      headers,
      body: JSON.stringify({ variables: { billOfLadingNumber: bl() }, extensions: { persistedQuery } }),
    }),
  };
}

export interface Credentials {
  token: string;
  clientId: string;
  clientSecret: string;
}

export type Target = 'service' | 'baseline';

export interface Scenario {
  name: string;
  target: Target;
  next(): RequestSpec;
  /** Requests for warm-up when they must differ from the measured ones; default `next`. */
  warmup?(): RequestSpec;
  /** A fixed number of warm-up requests instead of the warm-up duration. */
  warmupAmount?: number;
  /** A fixed number of requests instead of the scenario duration. */
  amount?: number;
  /** Run once before the warm-up (e.g. to learn the ETags a conditional poller holds). */
  prepare?(server: { url: string }): Promise<void>;
  /** Statuses besides 2xx that are the expected answer. */
  expected?: number[];
}

export function restPath(billOfLadingNumber: string): string {
  return `/v2/shipments?billOfLadingNumber=${encodeURIComponent(billOfLadingNumber)}`;
}

export function graphqlRequest(token: string, query: string, billOfLadingNumber: string): RequestSpec {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables: { billOfLadingNumber } }),
  };
}

/**
 * The scenarios, in the order they run. `REST first lookups`
 * runs before any other service scenario and asks for every shipment of the
 * measured range exactly once, so each of its requests reads a snapshot
 * nobody has asked for yet (the snapshot cache misses); its warm-up runs on
 * the other shipments only. The scenarios after it run in steady state:
 * every shipment has been looked up twice before (REST full's `prepare`), as
 * under clients that poll their shipments.
 */
/**
 * A poller that holds the ETag of each shipment it polls and sends it back
 * (If-None-Match); nothing changes during the run, so every answer is 304.
 * The tags of up to 2,000 shipments are fetched first, in `prepare`.
 */
function conditionalPolls(credentials: Credentials, shipments: number): Scenario {
  const etags: [string, string][] = [];
  const bearer = { Authorization: `Bearer ${credentials.token}` };
  return {
    name: 'REST conditional poll (304)',
    target: 'service',
    expected: [304],
    async prepare(server) {
      for (let i = 0; i < Math.min(shipments, 2_000); i++) {
        const { billOfLadingNumber } = shipmentKey(i);
        const response = await fetch(`${server.url}${restPath(billOfLadingNumber)}`, { headers: bearer });
        await response.arrayBuffer();
        const etag = response.headers.get('etag');
        if (response.status !== 200 || !etag) throw new Error(`no ETag for shipment ${i}: ${response.status}`);
        etags.push([billOfLadingNumber, etag]);
      }
    },
    next() {
      const [billOfLadingNumber, etag] = etags[randomInt(etags.length)] as [string, string];
      return { method: 'GET', path: restPath(billOfLadingNumber), headers: { ...bearer, 'If-None-Match': etag } };
    },
  };
}

/** One lookup of each shipment, eight at a time. */
async function lookUpEach(url: string, headers: Record<string, string>, shipments: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < shipments; i = next++) {
      const response = await fetch(`${url}${restPath(shipmentKey(i).billOfLadingNumber)}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`lookup of shipment ${i}: ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
}

/**
 * `steady`: REST full first looks up every shipment once more (the main run; the scale stages compare indexed
 * reads, most of them of shipments not looked up before, and leave it out).
 */
export function scenarios(credentials: Credentials, shipments: number, { steady = false } = {}): Scenario[] {
  const bl = () => shipmentKey(randomInt(shipments)).billOfLadingNumber;
  const bearer = { Authorization: `Bearer ${credentials.token}` };
  const rest = (billOfLadingNumber: string): RequestSpec => ({ method: 'GET', path: restPath(billOfLadingNumber), headers: bearer });
  // First lookups: warm up on the last tenth of the shipments (round and round, at least 2,000 requests, so the
  // service's JIT is warm as in production, not on its first requests), then measure each of the others once.
  const coldRange = Math.floor(shipments * 0.9);
  let cold = 0;
  let coldWarmup = 0;
  const tokenBody = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  }).toString();
  return [
    { name: 'baseline (bare node:http + SQL)', target: 'baseline', next: () => rest(bl()) },
    {
      name: 'REST first lookups (full snapshot)',
      target: 'service',
      next: () => rest(shipmentKey(cold++ % coldRange).billOfLadingNumber),
      warmup: () => rest(shipmentKey(coldRange + (coldWarmup++ % (shipments - coldRange))).billOfLadingNumber),
      warmupAmount: Math.max(shipments - coldRange, 2_000),
      amount: coldRange,
    },
    {
      name: 'REST full snapshot',
      target: 'service',
      // Steady state, as under polling clients: every shipment is looked up once more first, so each has been
      // looked up twice and the snapshot cache holds it (it takes a shipment in from its second lookup on).
      ...(steady ? { prepare: (server: { url: string }) => lookUpEach(server.url, bearer, shipments) } : {}),
      next: () => rest(bl()),
    },
    conditionalPolls(credentials, shipments),
    { name: 'GraphQL partial (eta, exceptions)', target: 'service', next: () => graphqlRequest(credentials.token, PARTIAL_DOCUMENT, bl()) },
    { name: 'GraphQL full snapshot', target: 'service', next: () => graphqlRequest(credentials.token, SHIPMENT_DOCUMENT, bl()) },
    persistedLookups(credentials, bl),
    {
      name: 'GraphQL @defer full snapshot (multipart)',
      target: 'service',
      next: () => {
        const request = graphqlRequest(credentials.token, DEFERRED_DOCUMENT, bl());
        return { ...request, headers: { ...request.headers, Accept: 'multipart/mixed' } };
      },
    },
    {
      name: 'token issuance',
      target: 'service',
      next: () => ({
        method: 'POST',
        path: '/oauth/token',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: tokenBody,
      }),
    },
  ];
}
