import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { IngestSummary } from '../ingest/ingest-bundle.js';
import { parseBundle } from '../ingest/parse-bundle.js';
import { deriveShipment, type DerivedShipment } from '../domain/shipment-from-events.js';
import { planNextFetch, shipmentProgress, type CadencePolicy } from '../domain/tracking-cadence.js';
import { REFERENCE_FILTER, type ReferenceKind } from '../domain/tracking-reference.js';
import {
  accountsOfFetch,
  claimDueFetches,
  eventsOfReference,
  eventsOfShipment,
  finishFetch,
  portOfDischargeOf,
  renewFetchLease,
  shipmentOfReference,
  type ClaimedFetch,
  type FetchOutcome,
  type FetchRow,
  type FetchStatus,
  missingAccounts,
} from '../store/carriers/tracking-requests.js';
import type { CarrierStore, PollTarget } from './carrier-store.js';
import { validEventsOf } from './carrier-events.js';
import { DcsaEventsClient, type Fetch, type PageResult } from './events-client.js';
import { ingestRetrying } from './ingest-retrying.js';
import { CarrierBackoff } from './carrier-backoff.js';
import { backoffMs, pollFrom } from './poll-plan.js';
import { keepRejected, rejectedRows } from './rejected-events.js';

/**
 * Fetches what tracking requests ask for (docs/tracking-requests.md): each due fetch row (one per carrier and
 * reference, shared by every client that asked) is claimed by one instance (src/store/carriers/tracking-requests.ts), its
 * carrier's DCSA 2.2 `GET /v2/events` asked with the reference filter (`transportDocumentReference`,
 * `carrierBookingReference`, `equipmentReference`) from the row's watermark minus the overlap, the events
 * ingested like a poll's, the shipment derived from the events when no bundle described it (and granted to the
 * accounts of every client that asked), and the next fetch planned (src/domain/tracking-cadence.ts).
 *
 * A carrier that answers 429 (or 5xx) with a Retry-After, or whose calls keep failing, is asked nothing more (for
 * any reference) until its back-off ends, by any instance: the back-off is kept on the carrier's row and read before
 * every call (src/carriers/carrier-backoff.ts), and the rows it holds back wait as long.
 */

export interface TrackingFetcherOptions {
  database: Database;
  carriers: CarrierStore;
  config: Pick<Config, 'carriers' | 'thresholds' | 'tracking'>;
  fetch?: Fetch;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  log: (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  /** How long a claim lasts. Default 120 s. */
  leaseMs?: number;
  /** Rows claimed per round. Default 100. */
  batch?: number;
  /** Longest Retry-After waited inside a fetch; a longer one ends it and reschedules the row. Default 5 s. */
  maxInlineWaitMs?: number;
  /** Pages of one fetch at most. Default 20. */
  maxPages?: number;
  /** After each fetch (metrics). */
  onFetch?: (result: FetchResult) => void;
  /** After an ingest that stored something (metrics, waking the delivery worker). */
  onIngested?: (summary: IngestSummary) => void;
}

/** `outcome`: found (new events), unchanged (events, nothing new), empty (the carrier has nothing), refused (an error), deferred (rate limited). */
export type FetchOutcomeName = 'found' | 'unchanged' | 'empty' | 'refused' | 'deferred';

export interface FetchResult {
  fetchId: number;
  carrierCode: string;
  kind: ReferenceKind;
  reference: string;
  outcome: FetchOutcomeName;
  status: string;
  eventsStored: number;
  error: string | null;
}

/** One fetcher round in one line: counts by outcome, the requests' statuses after it, the first errors. */
export interface FetchRoundSummary extends Record<FetchOutcomeName, number> {
  trackingFetches: number;
  statuses: Record<string, number>;
  errors: { carrierCode: string; reference: string; error: string | null }[];
}

class FetchFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export class TrackingFetcher {
  readonly owner = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`.slice(-50);
  readonly #o: TrackingFetcherOptions;
  readonly #client: DcsaEventsClient;
  readonly #now: () => Date;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #leaseMs: number;
  readonly #backoff: CarrierBackoff;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;

  constructor(options: TrackingFetcherOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()));
    this.#leaseMs = options.leaseMs ?? 120_000;
    this.#client = new DcsaEventsClient({ ...(options.fetch ? { fetch: options.fetch } : {}), now: this.#now });
    this.#backoff = new CarrierBackoff(options.database.db, this.#now);
  }

  get policy(): CadencePolicy {
    const t = this.#o.config.tracking;
    return {
      minMs: t.fetchMinSeconds * 1000,
      maxMs: t.fetchMaxSeconds * 1000,
      giveUpMs: t.giveUpHours * 3_600_000,
      completeAfterMs: t.completeAfterDays * 86_400_000,
      idleGiveUpMs: t.idleGiveUpDays * 86_400_000,
    };
  }

  /** Fetches every due reference (of `carrier` only when given), claimed round after round until none is due. */
  async runOnce(options: { carrier?: string } = {}): Promise<FetchResult[]> {
    const results: FetchResult[] = [];
    for (;;) {
      const claimed = await claimDueFetches(this.#o.database.db, {
        owner: this.owner,
        now: this.#now(),
        leaseMs: this.#leaseMs,
        limit: this.#o.batch ?? 100,
        ...(options.carrier !== undefined ? { carrierCode: options.carrier } : {}),
      });
      if (claimed.length === 0) return results;
      const targets = new Map((await this.#o.carriers.pollTargets()).map((t) => [t.carrierCode, t]));
      const queue = [...claimed];
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const result = await this.#fetchOne(next, targets.get(next.row.carrier_code)).catch((err: unknown) => {
            this.#o.log('error', 'tracking fetch failed', {
              fetchId: next.row.id,
              error: err instanceof Error ? err.message : String(err),
            });
            return null;
          });
          if (result) {
            results.push(result);
            this.#o.onFetch?.(result);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.#o.config.tracking.concurrency, claimed.length) }, worker));
      if (claimed.length < (this.#o.batch ?? 100)) return results;
    }
  }

  /** Looks for due fetches every TT_TRACKING_TICK_MS from now on; keeps the process alive only through `serve`. */
  start(): void {
    if (this.#timer) return;
    const tick = () => {
      if (this.#running) return;
      this.#running = this.runOnce()
        .catch((err: unknown) =>
          this.#o.log('error', 'tracking fetch round failed', { error: err instanceof Error ? err.message : String(err) }),
        )
        .finally(() => (this.#running = undefined));
    };
    this.#timer = setInterval(tick, this.#o.config.tracking.tickMs);
    this.#timer.unref();
    tick();
  }

  /** The summary line of one round (`tracking poll --once`): how many fetches, their outcomes, the statuses they left. */
  static summary(results: readonly FetchResult[]): FetchRoundSummary {
    const outcomes: Record<FetchOutcomeName, number> = { found: 0, unchanged: 0, empty: 0, refused: 0, deferred: 0 };
    const statuses: Record<string, number> = {};
    for (const r of results) {
      outcomes[r.outcome] += 1;
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
    const errors = results
      .filter((r) => r.error !== null)
      .map((r) => ({ carrierCode: r.carrierCode, reference: r.reference, error: r.error }));
    return { trackingFetches: results.length, ...outcomes, statuses, errors: errors.slice(0, 20) };
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  async #fetchOne({ token, row }: ClaimedFetch, target: PollTarget | undefined): Promise<FetchResult> {
    const { database } = this.#o;
    const now = this.#now();
    const at = now.toISOString();
    const kind = row.reference_kind as ReferenceKind;
    const result: FetchResult = {
      fetchId: row.id,
      carrierCode: row.carrier_code,
      kind,
      reference: row.reference,
      outcome: 'empty',
      status: row.status,
      eventsStored: 0,
      error: null,
    };
    if (!target) {
      const reason = `carrier ${row.carrier_code} has no active events endpoint to fetch from`;
      await finishFetch(database.db, row.id, token, now, {
        status: 'FAILED',
        status_reason: reason,
        status_changed_at: at,
        next_fetch_at: at,
        last_fetched_at: at,
        last_error: reason,
      });
      return { ...result, outcome: 'refused', status: 'FAILED', error: reason };
    }
    const hold = await this.#backoff.hold(row.carrier_code);
    if (hold.until !== null) {
      // Not asked: the carrier (or our back-off after its failures) says to wait. The row waits as long.
      await finishFetch(database.db, row.id, token, now, {
        next_fetch_at: hold.until,
        last_fetched_at: row.last_fetched_at ?? at,
      });
      return { ...result, outcome: 'deferred', status: row.status };
    }

    let events: unknown[] = [];
    let failure: FetchFailure | null = null;
    try {
      events = await this.#pages(target, row, token);
    } catch (err) {
      failure = err instanceof FetchFailure ? err : new FetchFailure(err instanceof Error ? err.message : String(err), null, null);
    }
    if (failure?.message === 'lease lost') return { ...result, outcome: 'refused', error: 'lease lost' };

    const { bundle, rejected, refused } = validEventsOf(row.carrier_code, events);
    if (rejected.length > 0) {
      this.#o.log('warn', 'carrier events rejected', {
        carrierCode: row.carrier_code,
        reference: row.reference,
        issues: rejected.slice(0, 10),
      });
      await keepRejected(
        database,
        rejectedRows(row.carrier_code, 'poll', events, refused),
        now,
        this.#o.config.carriers.rejectedEventsMax,
      ).catch((err: unknown) => this.#o.log('error', 'keeping rejected carrier events failed', { error: String(err) }));
    }
    const ingestOptions = { now: this.#now, thresholds: this.#o.config.thresholds };
    let stored = 0;
    if (bundle.events.length > 0) {
      const summary = await ingestRetrying(database, bundle, ingestOptions);
      stored = summary.eventsStored;
      if (stored > 0) this.#o.onIngested?.(summary);
    }
    const watermark = bundle.events.reduce<string | null>(
      (max, e) => (max === null || e.eventCreatedDateTime > max ? e.eventCreatedDateTime : max),
      row.watermark,
    );

    const key = { carrierCode: row.carrier_code, kind, reference: row.reference };
    const outcome: FetchOutcome = { next_fetch_at: at, last_fetched_at: at, watermark };
    let shipmentId = row.shipment_id === null ? null : Number(row.shipment_id);
    let eventsSeen = Number(row.events_seen);
    let nextMilestoneAt = row.next_milestone_at;
    let arrivedAt = row.arrived_at;
    const known = bundle.events.length > 0 || eventsSeen > 0;
    const accounts = known ? await accountsOfFetch(database.db, row.id) : [];
    const shipmentBefore = known ? await shipmentOfReference(database.db, key) : null;
    const accountsMissing = shipmentBefore ? await missingAccounts(database.db, shipmentBefore.id, accounts) : accounts.length > 0;
    if (known && (stored > 0 || shipmentId === null || accountsMissing)) {
      const all = await eventsOfReference(database.db, key);
      eventsSeen = new Set(all.map((e) => e.eventID)).size;
      const derived = deriveShipment(row.carrier_code, { kind, reference: row.reference }, all, shipmentBefore?.carrierBookingReference);
      if (derived) await this.#ingestShipment(derived, accounts, row);
      shipmentId = (await shipmentOfReference(database.db, key))?.id ?? shipmentId;
      if (shipmentId !== null) {
        const progress = shipmentProgress(
          await eventsOfShipment(database.db, shipmentId),
          await portOfDischargeOf(database.db, shipmentId),
          now,
        );
        nextMilestoneAt = progress.nextMilestoneAt;
        arrivedAt = progress.arrivedAt;
      }
    }
    outcome.events_seen = eventsSeen;
    outcome.shipment_id = shipmentId;
    outcome.next_milestone_at = nextMilestoneAt;
    outcome.arrived_at = arrivedAt;

    let status = row.status as FetchStatus;
    let lastChangeAt = row.last_change_at;
    if (shipmentId !== null && status !== 'TRACKING') {
      status = 'TRACKING';
      outcome.found_at = at;
      lastChangeAt = at;
    } else if (shipmentId === null && !failure) status = 'AWAITING_CARRIER_DATA';
    if (stored > 0) lastChangeAt = at;
    outcome.last_change_at = lastChangeAt;
    outcome.consecutive_failures = failure ? Number(row.consecutive_failures) + 1 : 0;
    outcome.last_error = failure ? failure.message.slice(0, 500) : null;

    const plan = planNextFetch(
      {
        status: status as 'PENDING' | 'AWAITING_CARRIER_DATA' | 'TRACKING',
        requestedAt: row.requested_at,
        nextMilestoneAt,
        arrivedAt,
        lastChangeAt,
        consecutiveFailures: outcome.consecutive_failures,
        retryAfterMs: failure?.retryAfterMs ?? null,
      },
      this.policy,
      now,
    );
    if (plan.kind === 'again') {
      outcome.next_fetch_at = new Date(now.getTime() + plan.delayMs).toISOString();
      outcome.status_reason = failure ? failure.message.slice(0, 500) : null;
    } else if (plan.kind === 'fail') {
      status = 'FAILED';
      outcome.status_reason = (failure ? `${plan.reason}; the last fetch: ${failure.message}` : plan.reason).slice(0, 500);
    } else {
      status = 'STOPPED';
      outcome.stop_reason = plan.stopReason;
    }
    if (status !== row.status) {
      outcome.status = status;
      outcome.status_changed_at = at;
    }
    await finishFetch(database.db, row.id, token, now, outcome);
    const name: FetchOutcomeName = failure ? 'refused' : stored > 0 ? 'found' : bundle.events.length > 0 ? 'unchanged' : 'empty';
    if (status !== row.status) {
      this.#o.log('info', 'tracking request status', {
        carrierCode: row.carrier_code,
        reference: row.reference,
        from: row.status,
        to: status,
      });
    }
    return { ...result, outcome: name, status, eventsStored: stored, error: failure?.message ?? null };
  }

  /** The derived shipment, as an ingest bundle entry granted to `accounts` (a bundle's own statement stays: see deriveShipment). */
  async #ingestShipment(derived: DerivedShipment, accounts: readonly string[], row: FetchRow): Promise<void> {
    const raw = {
      carrierCode: derived.carrierCode,
      carrierBookingReference: derived.carrierBookingReference,
      ...(derived.billOfLadingNumber ? { billOfLadingNumber: derived.billOfLadingNumber } : {}),
      ...(derived.vesselName ? { vesselName: derived.vesselName } : {}),
      ...(derived.voyageNumber ? { voyageNumber: derived.voyageNumber } : {}),
      ...(derived.portOfLoading ? { portOfLoading: derived.portOfLoading } : {}),
      ...(derived.portOfDischarge ? { portOfDischarge: derived.portOfDischarge } : {}),
      updatedDateTime: derived.updatedDateTime,
      accounts,
      containers: derived.containers.map((containerNumber) => ({ containerNumber })),
    };
    const parsed = parseBundle({ carrierCode: derived.carrierCode, shipments: [raw] });
    // Not a field of the bundle format: where the booking came from, for the identity rules of the store.
    if (parsed.ok && derived.derivedBooking)
      parsed.bundle.shipments = parsed.bundle.shipments.map((s) => ({ ...s, derivedBooking: derived.derivedBooking }));
    if (!parsed.ok) {
      this.#o.log('warn', 'a shipment derived from carrier events is not valid; its events are kept', {
        carrierCode: row.carrier_code,
        reference: row.reference,
        issues: parsed.issues.slice(0, 5),
      });
      return;
    }
    const summary = await ingestRetrying(this.#o.database, parsed.bundle, { now: this.#now, thresholds: this.#o.config.thresholds });
    if (summary.shipmentsCreated + summary.shipmentsUpdated > 0) this.#o.onIngested?.(summary);
  }

  /** Every page of the reference's events from the row's watermark minus the overlap (all of them on the first fetch). */
  async #pages(target: PollTarget, row: FetchRow, token: string): Promise<unknown[]> {
    const { config } = this.#o;
    const url = new URL(target.eventsUrl);
    const extra = [
      `${REFERENCE_FILTER[row.reference_kind as ReferenceKind]}=${encodeURIComponent(row.reference)}`,
      ...(row.watermark
        ? [`eventCreatedDateTime:gte=${encodeURIComponent(pollFrom(row.watermark, config.carriers.pollOverlapSeconds * 1000))}`]
        : []),
      `limit=${config.carriers.pollPageSize}`,
    ].join('&');
    url.search = url.search ? `${url.search}&${extra}` : `?${extra}`;
    const events: unknown[] = [];
    const seen = new Set<string>();
    // Back-offs that end by `waitedOut` were waited out by this fetch already (a test's clock may stand still meanwhile).
    const backoff = { waitedOut: '' };
    for (let next: string | null = url.toString(); next !== null;) {
      if (seen.has(next) || seen.size >= (this.#o.maxPages ?? 20)) {
        throw new FetchFailure(
          seen.has(next) ? 'the events endpoint sent a page cursor it already sent' : 'too many pages for one reference',
          null,
          null,
        );
      }
      seen.add(next);
      const page = await this.#page(target, next, row.id, token, backoff);
      events.push(...page.events);
      next = page.next;
    }
    return events;
  }

  /** One page, asked again after a short wait; the carrier's shared back-off is read before each call. */
  async #page(
    target: PollTarget,
    url: string,
    id: number,
    token: string,
    backoff: { waitedOut: string },
  ): Promise<Extract<PageResult, { ok: true }>> {
    const maxWait = this.#o.maxInlineWaitMs ?? 5000;
    const code = target.carrierCode;
    for (let attempt = 0; ;) {
      const hold = await this.#backoff.hold(code);
      if (hold.until !== null && hold.until > backoff.waitedOut) {
        if (hold.ms > maxWait) throw new FetchFailure(`backing off until ${hold.until}: ${hold.reason ?? ''}`, hold.ms, null);
        await this.#sleepHoldingLease(hold.ms, id, token);
        backoff.waitedOut = hold.until;
        continue;
      }
      const page = await this.#client.page(code, target.eventsUrl, url, target.auth, target.previousAuth);
      if (page.ok) {
        await this.#backoff.answered(code, hold.failures);
        return page;
      }
      // A carrier that knows nothing of the reference may answer 404 instead of an empty list.
      if (page.status === 404) return { ok: true, events: [], next: null };
      const until = page.retryable ? await this.#backoff.retryAfter(code, page) : null;
      const wait = page.retryAfterMs ?? backoffMs(attempt);
      if (!page.retryable || attempt + 1 >= 3 || wait > maxWait) {
        const spent = page.retryable ? await this.#backoff.triesSpent(code, page, hold.failures) : null;
        throw new FetchFailure(page.message, spent, page.status);
      }
      attempt += 1;
      await this.#sleepHoldingLease(wait, id, token);
      if (until !== null) backoff.waitedOut = until;
    }
  }

  async #sleepHoldingLease(ms: number, id: number, token: string): Promise<void> {
    await this.#sleep(ms);
    if (!(await renewFetchLease(this.#o.database.db, id, token, this.#now(), this.#leaseMs)))
      throw new FetchFailure('lease lost', null, null);
  }
}
