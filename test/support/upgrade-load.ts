import { randomUUID } from 'node:crypto';
import { rawTransportEvent } from './ingest-fixtures.js';

/**
 * The steady load of the rolling-upgrade test (issue 48), through the balancer, counted per phase of the
 * procedure: REST lookups with and without `If-None-Match`, GraphQL `shipment` queries, an operator ingest of one
 * new event every `ingestEveryMs` (each a transport event at a transport call never seen before: a new milestone,
 * which the change feed and webhooks name by its eventID), and an account change-feed reader that resumes from the
 * cursor it saved after its last complete read. Bounded: at most `maxRequests` requests and `maxMs` in all, each
 * request at most 20 s (HAProxy gives a server 30 s); loopback only.
 */

export interface LoadShipment {
  carrierCode: string;
  carrierBookingReference: string;
  billOfLadingNumber: string;
}

export interface PhaseCounts {
  requests: number;
  /** 2xx answers. */
  ok: number;
  notModified: number;
  /** 4xx answers: none expected either (the load sends only valid requests: a token refused, a lookup not found). */
  clientError: number;
  serverError: number;
  /** Requests that got no HTTP answer (connection refused or reset, timeout). */
  transport: number;
  /** GraphQL answers carrying an error with extensions.code INTERNAL_SERVER_ERROR. */
  graphqlInternal: number;
  /** Operator ingests acknowledged (200). */
  ingested: number;
}

export interface LoadOptions {
  /** The balancer's address. */
  base: string;
  readToken: string;
  operatorToken: string;
  /** The shipments looked up; events are ingested to them in turn. */
  shipments: LoadShipment[];
  ingestEveryMs?: number;
  feedEveryMs?: number;
  /** Lookup loops running at once (REST and GraphQL alternate in each). */
  lookupLoops?: number;
  /** Pause of each lookup loop between its requests. */
  lookupPauseMs?: number;
  maxRequests?: number;
  maxMs?: number;
}

/** An answer that failed the client, as the test explains it (test/rolling-upgrade.test.ts). */
export interface Failure {
  phase: string;
  label: string;
  status: number;
  /** The instance HAProxy sent it to (its X-Served-By header). */
  servedBy: string;
  /** The id the answer names (REST's providerCorrelationReference, GraphQL's extensions.correlationId), which the instance's log names too. */
  correlationId?: string;
}

/** The correlation id a failed answer names, REST's or GraphQL's. */
function correlationIdOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as {
      providerCorrelationReference?: string;
      errors?: { extensions?: { correlationId?: string } }[];
    };
    return parsed.providerCorrelationReference ?? parsed.errors?.find((e) => e.extensions?.correlationId)?.extensions?.correlationId;
  } catch {
    return undefined;
  }
}

/** The GraphQL selection the load and the comparison ask for: shipmentTracking with its events and exceptions. */
export const SHIPMENT_QUERY = /* GraphQL */ `
  query UpgradeLookup($carrierCode: String!, $carrierBookingReference: String!) {
    shipment(carrierCode: $carrierCode, carrierBookingReference: $carrierBookingReference) {
      shipmentTracking {
        carrierCode
        carrierBookingReference
        billOfLadingNumber
        eta
        transportEvents {
          eventID
          eventType
          eventDateTime
          transportEventTypeCode
          transportCall {
            transportCallID
          }
        }
        shipmentEvents {
          eventID
          eventDateTime
        }
        exceptions {
          exceptionID
          exceptionType
          status
          severity
          relatedEventID
        }
      }
    }
  }
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const emptyCounts = (): PhaseCounts => ({
  requests: 0,
  ok: 0,
  notModified: 0,
  clientError: 0,
  serverError: 0,
  transport: 0,
  graphqlInternal: 0,
  ingested: 0,
});

interface FeedPage {
  changes: { carrierBookingReference: string; changes: { triggerType: string; triggeredByEvent?: string }[] }[];
  next: string;
  hasMore: boolean;
}

export class UpgradeLoad {
  /** The phase requests are counted in: set by the procedure as it goes. */
  phase = 'start';
  readonly counts = new Map<string, PhaseCounts>();
  /** Event ids of acknowledged ingests, in order. */
  readonly acknowledged: string[] = [];
  /** How many times the feed named each event (EVENT_TRIGGER changes), from complete reads only. */
  readonly feedNamed = new Map<string, number>();
  /** The first failures of each kind, for the test's messages. */
  readonly samples: string[] = [];
  /** Every 5xx answer and every GraphQL answer with INTERNAL_SERVER_ERROR: which instance gave it, and its correlation id. */
  readonly failures: Failure[] = [];
  readonly #options: Required<LoadOptions>;
  readonly #etags = new Map<string, string>();
  #cursor: string | undefined;
  #stopping = false;
  #sent = 0;
  #started = 0;
  #loops: Promise<void>[] = [];
  #ingests = 0;

  constructor(options: LoadOptions) {
    this.#options = {
      ingestEveryMs: 300,
      feedEveryMs: 1_000,
      lookupLoops: 2,
      lookupPauseMs: 25,
      maxRequests: 40_000,
      maxMs: 10 * 60_000,
      ...options,
    };
  }

  /** Reads the feed to its end once (the listing) and keeps the cursor, as a client does before it polls. */
  async saveCursor(): Promise<void> {
    const read = await this.#readFeed(undefined);
    if (!read) throw new Error(`the first read of the change feed failed: ${this.samples.at(-1)}`);
    this.#cursor = read.cursor;
  }

  start(): void {
    this.#started = Date.now();
    const loops = Array.from({ length: this.#options.lookupLoops }, (_, i) => this.#lookupLoop(i));
    this.#loops = [...loops, this.#ingestLoop(), this.#feedLoop()];
  }

  /** Stops the load and waits for the requests in flight. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(this.#loops);
  }

  /** Reads the feed on from the saved cursor until it names every acknowledged event, at most `timeoutMs`. */
  async catchUpFeed(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      await this.#pollFeed();
      if (this.acknowledged.every((id) => this.feedNamed.has(id))) return;
      await sleep(500);
    }
  }

  /** The counts of every phase, in the order the phases began, with a total row. */
  table(): Record<string, PhaseCounts> {
    const rows: Record<string, PhaseCounts> = Object.fromEntries(this.counts);
    const total = emptyCounts();
    for (const counts of this.counts.values()) for (const key of Object.keys(total) as (keyof PhaseCounts)[]) total[key] += counts[key];
    rows.total = total;
    return rows;
  }

  #count(): PhaseCounts {
    let counts = this.counts.get(this.phase);
    if (!counts) this.counts.set(this.phase, (counts = emptyCounts()));
    return counts;
  }

  #running(): boolean {
    return !this.#stopping && this.#sent < this.#options.maxRequests && Date.now() - this.#started < this.#options.maxMs;
  }

  #sample(what: string): void {
    if (this.samples.length < 30) this.samples.push(`[${this.phase}] ${what}`.slice(0, 600));
  }

  /** One request through the balancer, counted in the phase it was sent in; null when it got no answer. */
  async #request(path: string, init: RequestInit, label: string): Promise<{ status: number; headers: Headers; body: string } | null> {
    const counts = this.#count();
    counts.requests++;
    this.#sent++;
    try {
      const response = await fetch(`${this.#options.base}${path}`, { ...init, signal: AbortSignal.timeout(20_000) });
      const body = await response.text();
      const by = response.headers.get('x-served-by') ?? '?';
      if (response.status >= 500) {
        counts.serverError++;
        this.failures.push({ phase: this.phase, label, status: response.status, servedBy: by, correlationId: correlationIdOf(body) });
        this.#sample(`${label} (${by}): ${response.status} ${body}`);
      } else if (response.status === 304) counts.notModified++;
      else if (response.status >= 400) {
        counts.clientError++;
        this.#sample(`${label} (${by}): ${response.status} ${body}`);
      } else counts.ok++;
      return { status: response.status, headers: response.headers, body };
    } catch (err) {
      counts.transport++;
      this.#sample(`${label}: no answer: ${String((err as Error).cause ?? err)}`);
      return null;
    }
  }

  async #lookupLoop(loop: number): Promise<void> {
    const { shipments, readToken, lookupPauseMs } = this.#options;
    for (let n = loop; this.#running(); n++) {
      const shipment = shipments[n % shipments.length]!;
      const kind = n % 3;
      if (kind === 2) await this.#graphql(shipment);
      else await this.#rest(shipment, kind === 1, readToken);
      await sleep(lookupPauseMs);
    }
  }

  async #rest(shipment: LoadShipment, conditional: boolean, token: string): Promise<void> {
    const key = shipment.billOfLadingNumber;
    const etag = conditional ? this.#etags.get(key) : undefined;
    const answer = await this.#request(
      `/v2/shipments?billOfLadingNumber=${encodeURIComponent(key)}`,
      { headers: { Authorization: `Bearer ${token}`, ...(etag ? { 'If-None-Match': etag } : {}) } },
      `GET /v2/shipments${etag ? ' If-None-Match' : ''}`,
    );
    const fresh = answer?.status === 200 ? answer.headers.get('etag') : null;
    if (fresh) this.#etags.set(key, fresh);
  }

  async #graphql(shipment: LoadShipment): Promise<void> {
    const answer = await this.#request(
      '/graphql',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.#options.readToken}` },
        body: JSON.stringify({
          query: SHIPMENT_QUERY,
          variables: { carrierCode: shipment.carrierCode, carrierBookingReference: shipment.carrierBookingReference },
        }),
      },
      'POST /graphql',
    );
    if (!answer || answer.status >= 500) return;
    let errors: { extensions?: { code?: string } }[] = [];
    try {
      errors = (JSON.parse(answer.body) as { errors?: typeof errors }).errors ?? [];
    } catch {
      this.#sample(`POST /graphql: ${answer.status}, not JSON: ${answer.body}`);
    }
    if (errors.some((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')) {
      this.#count().graphqlInternal++;
      this.failures.push({
        phase: this.phase,
        label: 'POST /graphql INTERNAL_SERVER_ERROR',
        status: answer.status,
        servedBy: answer.headers.get('x-served-by') ?? '?',
        correlationId: correlationIdOf(answer.body),
      });
      this.#sample(`POST /graphql (${answer.headers.get('x-served-by') ?? '?'}): ${answer.status} ${answer.body}`);
    }
  }

  async #ingestLoop(): Promise<void> {
    const { shipments, operatorToken, ingestEveryMs } = this.#options;
    while (this.#running()) {
      const next = sleep(ingestEveryMs);
      const shipment = shipments[this.#ingests++ % shipments.length]!;
      const eventID = randomUUID();
      // A transport call never seen before: a new milestone, named by this event in the feed and the webhooks.
      const event = rawTransportEvent(0, {
        eventID,
        documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: shipment.carrierBookingReference }],
      });
      const bundle = {
        carrierCode: shipment.carrierCode,
        events: [{ ...event, transportCall: { ...(event.transportCall as object), transportCallID: `TC-${eventID}` } }],
      };
      const phase = this.#count();
      const answer = await this.#request(
        '/v2/operator/ingest',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${operatorToken}` },
          body: JSON.stringify(bundle),
        },
        'POST /v2/operator/ingest',
      );
      if (answer?.status === 200) {
        this.acknowledged.push(eventID);
        phase.ingested++;
      }
      await next;
    }
  }

  async #feedLoop(): Promise<void> {
    while (this.#running()) {
      await this.#pollFeed();
      await sleep(this.#options.feedEveryMs);
    }
  }

  /** One read of the feed from the saved cursor to its end; what it named counts, and its cursor is saved, only if it completed. */
  async #pollFeed(): Promise<void> {
    const read = await this.#readFeed(this.#cursor);
    if (!read) return;
    for (const entry of read.entries)
      for (const change of entry.changes)
        if (change.triggerType === 'EVENT_TRIGGER' && change.triggeredByEvent)
          this.feedNamed.set(change.triggeredByEvent, (this.feedNamed.get(change.triggeredByEvent) ?? 0) + 1);
    this.#cursor = read.cursor;
  }

  async #readFeed(after: string | undefined): Promise<{ entries: FeedPage['changes']; cursor: string } | null> {
    const entries: FeedPage['changes'] = [];
    let cursor = after;
    for (let page = 0; page < 100; page++) {
      const query = new URLSearchParams({ limit: '1000', ...(cursor ? { after: cursor } : {}) });
      const answer = await this.#request(
        `/v2/changes?${query}`,
        { headers: { Authorization: `Bearer ${this.#options.readToken}` } },
        'GET /v2/changes',
      );
      if (answer?.status !== 200) return null;
      const body = JSON.parse(answer.body) as FeedPage;
      entries.push(...body.changes);
      cursor = body.next;
      if (!body.hasMore) return { entries, cursor };
    }
    return null;
  }
}
