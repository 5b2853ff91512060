import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { IngestSummary } from '../ingest/ingest-bundle.js';
import { ingestRetrying } from './ingest-retrying.js';
import type { CarrierStore, PollTarget } from './carrier-store.js';
import { validEventsOf } from './carrier-events.js';
import { keepRejected, rejectedRows } from './rejected-events.js';
import { DcsaEventsClient, type Fetch, type PageResult } from './events-client.js';
import { CarrierBackoff } from './carrier-backoff.js';
import { backoffMs, firstPageUrl, nextPollDelayMs, pollFrom, WatermarkTracker } from './poll-plan.js';
import { abandonLease, advanceWatermark, readPollState, releaseLease, renewLease, takeLease } from '../store/carriers/poll-state.js';

/**
 * Polls carriers' DCSA `GET /v2/events` (docs/carriers.md "Carrier onboarding"):
 *
 * - from the stored watermark minus a safety overlap (events a carrier
 *   publishes late, stamped before the watermark), following DCSA cursor
 *   pagination;
 * - each page ingested in its own transaction by the same code path as
 *   `tracking ingest` (ingestBundle), the watermark moved only after that
 *   commit (see WatermarkTracker): a poller killed at any point resumes with
 *   nothing lost, and what it asks again is skipped by eventID;
 * - a 429, 408, 5xx or no answer is asked again after the carrier's
 *   Retry-After, else an exponential backoff; a wait too long for the run
 *   ends it and schedules the next poll after it;
 * - the carrier's Retry-After, and the service's own back-off once a page's
 *   tries are spent, are kept on the carrier's row and read before every call,
 *   so every instance's poller and tracking fetcher honour them
 *   (src/carriers/carrier-backoff.ts);
 * - at most one poller per carrier across every instance: a lease row taken
 *   with one atomic UPDATE … WHERE lease_until < now (src/store/carriers/poll-state.ts);
 * - the process stays alive while a poll is due or a retry waits (the loop's
 *   timer and a retry's sleep are not unref()ed): on SQLite nothing else
 *   would keep `tracking poll` running; `stop()` ends both, cuts a retry's
 *   wait short, and releases the lease of the run it interrupts (due again at
 *   once). A poller that dies without stopping leaves its lease held until
 *   lease_until (at most `leaseMs` after its last renewal).
 */

export interface CarrierPollerOptions {
  database: Database;
  carriers: CarrierStore;
  config: Pick<Config, 'carriers' | 'thresholds'>;
  /** The HTTP client (tests, proxies). Default: global fetch. */
  fetch?: Fetch;
  now?: () => Date;
  /** How a retry waits (tests record instead of sleeping). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  log: (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  /** How long a lease lasts without renewal (renewed at every page). Default config.carriers.pollLeaseSeconds, else 120 s. */
  leaseMs?: number;
  /** Tries of one page before the run gives up. Default 5. */
  maxAttempts?: number;
  /** Longest wait between two tries inside a run; a longer Retry-After ends the run instead. Default 60 s. */
  maxInlineWaitMs?: number;
  /** How often the `start()` loop looks for due carriers. Default 5 s. */
  tickMs?: number;
  /** After each run of one carrier (metrics). */
  onRun?: (result: CarrierPollResult) => void;
  /** After each committed page (metrics, the push delivery wake-up). */
  onPage?: (carrierCode: string, summary: IngestSummary | null, page: number) => void | Promise<void>;
}

export interface CarrierPollResult {
  carrierCode: string;
  pages: number;
  /** Events received (valid or not). */
  events: number;
  eventsStored: number;
  eventsAlreadyStored: number;
  /** Events left out because they failed validation (logged with their field). */
  eventsRejected: number;
  /** Retries after a 429, 5xx or no answer. */
  retries: number;
  watermark: string;
  error: string | null;
}

class PollFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (its timer cleared, so it holds the process no longer). */
function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error of a run that `stop()` interrupted. */
export const STOPPED = 'stopped before the end of the feed (SIGTERM or SIGINT); the lease is released';

/** Safety stop of one run against a publisher whose cursors never end. */
const MAX_PAGES_PER_RUN = 100_000;

export class CarrierPoller {
  readonly owner = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`.slice(-64);
  readonly #o: CarrierPollerOptions;
  readonly #client: DcsaEventsClient;
  readonly #now: () => Date;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #leaseMs: number;
  readonly #backoff: CarrierBackoff;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  readonly #stopping = new AbortController();

  constructor(options: CarrierPollerOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    // Not unref()ed: a retry that waits is work, and keeps the process alive (stop() clears it: see #wait).
    this.#sleep = options.sleep ?? ((ms, signal) => sleepUnlessAborted(ms, signal));
    this.#leaseMs = options.leaseMs ?? (options.config.carriers.pollLeaseSeconds ?? 120) * 1000;
    this.#client = new DcsaEventsClient({ ...(options.fetch ? { fetch: options.fetch } : {}), now: this.#now });
    this.#backoff = new CarrierBackoff(options.database.db, this.#now);
  }

  /** Polls every carrier that is due (or `carrier` only; `force`: due or not), one after the other. */
  async runOnce(options: { carrier?: string; force?: boolean } = {}): Promise<CarrierPollResult[]> {
    const targets = await this.#o.carriers.pollTargets(options.carrier);
    const results: CarrierPollResult[] = [];
    for (const target of targets) {
      if (this.stopped) break;
      const result = await this.pollCarrier(target, options.force ?? false);
      if (result) results.push(result);
    }
    return results;
  }

  /** Polls the carrier every `tickMs` from now on (serve, `tracking poll`). */
  start(): void {
    if (this.#timer) return;
    const tick = () => {
      if (this.#running) return;
      this.#running = this.runOnce()
        .catch((err: unknown) => this.#o.log('error', 'carrier poll failed', { error: err instanceof Error ? err.message : String(err) }))
        .finally(() => (this.#running = undefined));
    };
    // Not unref()ed: a poll is always due sooner or later, and `tracking poll` has nothing else keeping it alive.
    this.#timer = setInterval(tick, this.#o.tickMs ?? 5000);
    tick();
  }

  /** Whether stop() was called. */
  get stopped(): boolean {
    return this.#stopping.signal.aborted;
  }

  /**
   * Stops the loop, interrupts the run in progress after the page it is storing (a retry's wait is cut short),
   * and waits for it: its lease is released, the carrier due again at once. The poller does not start again.
   */
  async stop(): Promise<void> {
    this.#stopping.abort();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** Waits `ms`, or less when stop() is called meanwhile. */
  #wait(ms: number): Promise<void> {
    const signal = this.#stopping.signal;
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done);
      this.#sleep(ms, signal).then(done, done);
    });
  }

  /** One run for one carrier; null when another poller holds it or it is not due. */
  async pollCarrier(target: PollTarget, force = false): Promise<CarrierPollResult | null> {
    const { database } = this.#o;
    const code = target.carrierCode;
    if (!(await takeLease(database.db, code, this.owner, this.#now(), this.#leaseMs, force))) return null;
    const state = await readPollState(database.db, code);
    if (!state) return null;
    const result: CarrierPollResult = {
      carrierCode: code,
      pages: 0,
      events: 0,
      eventsStored: 0,
      eventsAlreadyStored: 0,
      eventsRejected: 0,
      retries: 0,
      watermark: state.watermark,
      error: null,
    };
    let retryAfter: number | null = null;
    try {
      await this.#traverse(target, state.watermark, result);
    } catch (err) {
      result.error = err instanceof Error ? err.message : String(err);
      retryAfter = err instanceof PollFailure ? err.retryAfterMs : null;
    }
    const now = this.#now();
    if (result.error === STOPPED) {
      // Stopped, not failed: what was stored stays stored (the watermark moved with it), the next poller resumes at once.
      await abandonLease(database.db, code, this.owner, now);
      result.watermark = (await readPollState(database.db, code))?.watermark ?? result.watermark;
      this.#o.onRun?.(result);
      this.#o.log('info', 'carrier poll stopped', { ...result });
      return result;
    }
    const waitMs = nextPollDelayMs(
      target.pollIntervalSeconds * 1000,
      result.error === null ? 0 : state.consecutive_failures + 1,
      retryAfter,
    );
    await releaseLease(database.db, code, this.owner, { now, nextPollAt: new Date(now.getTime() + waitMs), error: result.error });
    result.watermark = (await readPollState(database.db, code))?.watermark ?? result.watermark;
    this.#o.onRun?.(result);
    if (result.events > 0 || result.error) {
      this.#o.log(result.error ? 'warn' : 'info', 'carrier polled', { ...result });
    }
    return result;
  }

  async #traverse(target: PollTarget, watermark: string, result: CarrierPollResult): Promise<void> {
    const { database, config } = this.#o;
    const code = target.carrierCode;
    const tracker = new WatermarkTracker(watermark);
    let url: string | null = firstPageUrl(
      target.eventsUrl,
      pollFrom(watermark, config.carriers.pollOverlapSeconds * 1000),
      config.carriers.pollPageSize,
    );
    const seen = new Set<string>();
    // Back-offs that end by `waitedOut` were waited out by this run already (a test's clock may stand still meanwhile).
    const backoff = { waitedOut: '' };
    while (url !== null) {
      if (this.stopped) throw new PollFailure(STOPPED, null);
      if (seen.has(url) || seen.size >= MAX_PAGES_PER_RUN)
        throw new PollFailure('the events endpoint sent a page cursor it already sent', null);
      seen.add(url);
      const page = await this.#fetchPage(target, url, result, backoff);
      // A poller that stalled past its lease may have been replaced: it stops before writing anything.
      if (!(await renewLease(database.db, code, this.owner, this.#now(), this.#leaseMs))) throw new PollFailure('lease lost', null);
      const { bundle, rejected, refused } = validEventsOf(code, page.events);
      if (rejected.length > 0) {
        this.#o.log('warn', 'carrier events rejected', { carrierCode: code, page: result.pages + 1, issues: rejected.slice(0, 10) });
        // Kept with their error, for `tracking carrier rejected replay` once the cause is fixed; failing to keep them stalls nothing.
        await keepRejected(
          database,
          rejectedRows(code, 'poll', page.events, refused),
          this.#now(),
          config.carriers.rejectedEventsMax,
        ).catch((err: unknown) =>
          this.#o.log('error', 'keeping rejected carrier events failed', { carrierCode: code, error: String(err) }),
        );
      }
      const summary =
        bundle.events.length > 0 ? await ingestRetrying(database, bundle, { now: this.#now, thresholds: config.thresholds }) : null;
      if (summary && summary.eventsUnlinked > 0) {
        this.#o.log('info', 'carrier events stored for no known shipment (yet)', {
          carrierCode: code,
          eventsUnlinked: summary.eventsUnlinked,
          hint: 'tracking carrier unlinked',
        });
      }
      result.pages += 1;
      result.events += page.events.length;
      result.eventsStored += summary?.eventsStored ?? 0;
      result.eventsAlreadyStored += summary?.eventsAlreadyStored ?? 0;
      result.eventsRejected += page.events.length - bundle.events.length;
      await this.#o.onPage?.(code, summary, result.pages);
      const next = tracker.committed(bundle.events.map((e) => e.eventCreatedDateTime));
      if (!(await advanceWatermark(database.db, code, this.owner, next, page.events.length))) throw new PollFailure('lease lost', null);
      url = page.next;
    }
    await advanceWatermark(database.db, code, this.owner, tracker.finished(), 0);
  }

  /**
   * One page, asked again after 429/408/5xx/no answer while the waits stay short. Before each call the carrier's
   * shared back-off is read: a short one is waited out, a long one ends the run (the next poll after it).
   */
  async #fetchPage(
    target: PollTarget,
    url: string,
    result: CarrierPollResult,
    backoff: { waitedOut: string },
  ): Promise<Extract<PageResult, { ok: true }>> {
    const maxAttempts = this.#o.maxAttempts ?? 5;
    const maxWait = this.#o.maxInlineWaitMs ?? 60_000;
    const code = target.carrierCode;
    for (let attempt = 0; ;) {
      const hold = await this.#backoff.hold(code);
      if (hold.until !== null && hold.until > backoff.waitedOut) {
        if (hold.ms > maxWait) throw new PollFailure(`backing off until ${hold.until}: ${hold.reason ?? ''}`, hold.ms);
        this.#o.log('debug', 'carrier backing off, waiting', { carrierCode: code, until: hold.until });
        await this.#waitHoldingLease(code, hold.ms);
        backoff.waitedOut = hold.until;
        continue;
      }
      const page = await this.#client.page(code, target.eventsUrl, url, target.auth, target.previousAuth);
      if (page.ok) {
        await this.#backoff.answered(code, hold.failures);
        return page;
      }
      const until = page.retryable ? await this.#backoff.retryAfter(code, page) : null;
      const wait = page.retryAfterMs ?? backoffMs(attempt);
      if (!page.retryable || attempt + 1 >= maxAttempts || wait > maxWait) {
        const spent = page.retryable ? await this.#backoff.triesSpent(code, page, hold.failures) : null;
        throw new PollFailure(`${page.message}${page.retryable ? ` (after ${attempt + 1} tries)` : ''}`, spent);
      }
      this.#o.log('debug', 'carrier events page refused, retrying', { carrierCode: code, status: page.status, waitMs: wait });
      result.retries += 1;
      attempt += 1;
      await this.#waitHoldingLease(code, wait);
      if (until !== null) backoff.waitedOut = until;
    }
  }

  /** Waits `ms` (less when stopped), then renews the lease: a stop or a lost lease ends the run. */
  async #waitHoldingLease(carrierCode: string, ms: number): Promise<void> {
    await this.#wait(ms);
    if (this.stopped) throw new PollFailure(STOPPED, null);
    if (!(await renewLease(this.#o.database.db, carrierCode, this.owner, this.#now(), this.#leaseMs))) {
      throw new PollFailure('lease lost', null);
    }
  }
}
