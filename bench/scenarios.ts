import { createHash, randomInt } from 'node:crypto';
import { EQUIPMENT_EVENT_FRAGMENT, SHIPMENT_DOCUMENT, SHIPMENT_TRACKING_SELECTION } from '../src/executor/shipment-document.js';
import { encodeFeedCursor } from '../src/domain/feed-cursor.js';
import { containerNumbersOf, shipmentKey, type GenerateOptions } from './generate.js';
import type { KeySpace } from './keys.js';
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
 * The full snapshot with the predicted arrival (issue 49's speed target: reading it adds at most 5 % to the full
 * snapshot): the REST route's document with `predictedArrival` appended to the shipment's fields, as a client
 * adds it to the selection it has.
 */
const PREDICTED_SELECTION = `${SHIPMENT_TRACKING_SELECTION.slice(0, SHIPMENT_TRACKING_SELECTION.lastIndexOf('}'))}
  predictedArrival { estimatedDateTime earliestDateTime latestDateTime coverage basis sampleSize trainedAt }
}`;
export const PREDICTED_DOCUMENT = /* GraphQL */ `
query BenchPredicted($billOfLadingNumber: String) {
  shipment(billOfLadingNumber: $billOfLadingNumber) {
    transmissionHeader { transmissionID transmissionDateTime triggerType triggeredByEvent senderID receiverID schemaVersion }
    shipmentTracking ${PREDICTED_SELECTION}
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
 * A poller that holds the ETag of each shipment it polls and sends it back
 * (If-None-Match); nothing changes during the run, so every answer is 304.
 * The tags of the shipments `pick` gives (chosen as the scenario starts) are fetched first, in `prepare`.
 */
export function conditionalPolls(credentials: Credentials, pick: () => readonly number[]): Scenario {
  const etags: [string, string][] = [];
  const bearer = { Authorization: `Bearer ${credentials.token}` };
  return {
    name: 'REST conditional poll (304)',
    target: 'service',
    expected: [304],
    async prepare(server) {
      for (const i of pick()) {
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

/**
 * First lookups: the warm-up goes round and round the warm-up keys (at least 2,000 requests, so the service's
 * JIT is warm as in production, not on its first requests), then each measured key is looked up once: every
 * measured request reads a stored snapshot nobody asked for yet (the snapshot cache misses). `pick` chooses
 * the two disjoint sets as the scenario starts (KeySpace: shipments the service was never asked for).
 */
export function firstLookups(credentials: Credentials, pick: () => { measured: number[]; warmup: number[] }): Scenario {
  const bearer = { Authorization: `Bearer ${credentials.token}` };
  const rest = (index: number): RequestSpec => ({ method: 'GET', path: restPath(shipmentKey(index).billOfLadingNumber), headers: bearer });
  let keys: number[] = [];
  let warmupKeys: number[] = [];
  let cold = 0;
  let warm = 0;
  const scenario: Scenario = {
    name: 'REST first lookups (full snapshot)',
    target: 'service',
    prepare: async () => {
      ({ measured: keys, warmup: warmupKeys } = pick());
      if (keys.length === 0 || warmupKeys.length === 0) throw new Error('first lookups: no shipment left that was never looked up');
      scenario.amount = keys.length;
      scenario.warmupAmount = Math.max(warmupKeys.length, 2_000);
    },
    next: () => rest(keys[cold++ % keys.length] as number),
    warmup: () => rest(warmupKeys[warm++ % warmupKeys.length] as number),
  };
  return scenario;
}

/**
 * The account change feed as a client reads it (docs/account-feed.md): one page of up to 100 changes after a
 * saved cursor (GET /v2/changes?after=…), each request after one of the change-log positions `pick` gives as the
 * scenario starts.
 */
export function changePages(credentials: Credentials, pick: () => Promise<readonly { seq: number; id: number }[]>): Scenario {
  let cursors: string[] = [];
  const bearer = { Authorization: `Bearer ${credentials.token}` };
  return {
    name: 'change feed page (GET /v2/changes, 100)',
    target: 'service',
    prepare: async () => {
      cursors = (await pick()).map((position) => encodeFeedCursor({ phase: 'changes', position }));
    },
    next: () => ({ method: 'GET', path: `/v2/changes?limit=100&after=${cursors[randomInt(cursors.length)]}`, headers: bearer }),
  };
}

/** DCSA events of one container (GET /v2/events?equipmentReference=…&eventType=EQUIPMENT), a random shipment's. */
export function eventsByContainer(credentials: Credentials, shipment: () => number, generate: GenerateOptions): Scenario {
  const bearer = { Authorization: `Bearer ${credentials.token}` };
  return {
    name: 'DCSA events of a container (GET /v2/events)',
    target: 'service',
    next: () => {
      const container = containerNumbersOf(shipment(), generate)[0] as string;
      return { method: 'GET', path: `/v2/events?equipmentReference=${container}&eventType=EQUIPMENT`, headers: bearer };
    },
  };
}

/** First lookups of the main table measure at most this many shipments (each once). */
const FIRST_LOOKUPS_MAX = 20_000;
/** Nor warm up on more than this many. */
const FIRST_WARMUP_KEYS_MAX = 10_000;
/** REST full's steady state: every shipment looked up twice first, of at most this many (the ones it then draws from). */
const STEADY_MAX = 100_000;

/** One lookup of each of the first `shipments` shipments, eight at a time. */
async function lookUpEach(url: string, headers: Record<string, string>, shipments: number, keys: KeySpace): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < shipments; i = next++) {
      if (keys.reserved(i)) continue;
      keys.touch(i);
      const response = await fetch(`${url}${restPath(shipmentKey(i).billOfLadingNumber)}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`lookup of shipment ${i}: ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
}

/**
 * The scenarios of the main table, in the order they run. `REST first lookups` runs before any other service
 * scenario and asks for 90 % of the shipments (at most 20,000) exactly once each, the lowest ones the service
 * was never asked for in this run, and warms up on the next ones. The scenarios after it run in steady state:
 * every shipment has been looked up twice before (REST full's `prepare`; of more than 100,000 shipments, the
 * first 100,000, which REST full then draws from), as under clients that poll their shipments. Requests to
 * the service are marked in `keys`.
 */
export function scenarios(credentials: Credentials, shipments: number, keys: KeySpace): Scenario[] {
  const bl = () => shipmentKey(keys.random(shipments)).billOfLadingNumber;
  const bearer = { Authorization: `Bearer ${credentials.token}` };
  const rest = (billOfLadingNumber: string): RequestSpec => ({ method: 'GET', path: restPath(billOfLadingNumber), headers: bearer });
  const tokenBody = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  }).toString();
  const steady = Math.min(shipments, STEADY_MAX);
  return [
    { name: 'baseline (bare node:http + SQL)', target: 'baseline', next: () => rest(shipmentKey(randomInt(shipments)).billOfLadingNumber) },
    firstLookups(credentials, () => {
      const measured = keys.lowestFresh(Math.min(Math.floor(shipments * 0.9), FIRST_LOOKUPS_MAX), shipments);
      return { measured, warmup: keys.lowestFresh(FIRST_WARMUP_KEYS_MAX, shipments) };
    }),
    {
      name: 'REST full snapshot',
      target: 'service',
      // Steady state, as under polling clients: every shipment is looked up once more first, so each has been
      // looked up twice and the snapshot cache holds it (it takes a shipment in from its second lookup on).
      prepare: (server: { url: string }) => lookUpEach(server.url, bearer, steady, keys),
      next: () => rest(shipmentKey(keys.random(steady)).billOfLadingNumber),
    },
    conditionalPolls(credentials, () => Array.from({ length: Math.min(shipments, 2_000) }, (_, i) => keys.touch(i))),
    { name: 'GraphQL partial (eta, exceptions)', target: 'service', next: () => graphqlRequest(credentials.token, PARTIAL_DOCUMENT, bl()) },
    { name: 'GraphQL full snapshot', target: 'service', next: () => graphqlRequest(credentials.token, SHIPMENT_DOCUMENT, bl()) },
    persistedLookups(credentials, bl),
    {
      // Not named "GraphQL full …": the ratios find the plain full snapshot by that prefix.
      name: 'GraphQL predicted arrival + full snapshot',
      target: 'service',
      next: () => graphqlRequest(credentials.token, PREDICTED_DOCUMENT, bl()),
    },
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
