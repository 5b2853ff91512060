import type { Db } from '../db/connect.js';
import { extendCarrierBackoff, readCarrierBackoff, resetCarrierFailures } from '../store/carriers/carrier-sources.js';
import { ownBackoffMs } from './poll-plan.js';

/**
 * One back-off per carrier for every instance (docs/carriers.md "Back-off"): a carrier's Retry-After, and the
 * service's own back-off after calls whose tries were all spent on 5xx or no answer, are written on the carrier's
 * row (migration 017), and the poller and the tracking fetcher of every instance read it before each call to the
 * carrier. A process-local memory of it would hold back only the instance that was told (issue 34, point 3).
 */

/** What holds calls to a carrier back: how long still (0: nothing), until when, why; and its failed calls in a row. */
export interface BackoffHold {
  ms: number;
  until: string | null;
  reason: string | null;
  failures: number;
}

/** A refused call, as the events client reports it. */
export interface Refusal {
  status: number | null;
  message: string;
  retryAfterMs: number | null;
}

export class CarrierBackoff {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  /** The back-off holding the carrier now (ms 0 when it may be called): one primary-key read. */
  async hold(carrierCode: string): Promise<BackoffHold> {
    const row = await readCarrierBackoff(this.#db, carrierCode);
    const failures = Number(row?.backoff_failures ?? 0);
    const until = row?.backoff_until ?? null;
    const ms = until === null ? 0 : Date.parse(until) - this.#now().getTime();
    if (until === null || ms <= 0) return { ms: 0, until: null, reason: null, failures };
    return { ms, until, reason: row?.backoff_reason ?? null, failures };
  }

  /** A refusal with a Retry-After: nobody calls the carrier before it ends. Returns the time recorded (null: none). */
  async retryAfter(carrierCode: string, refusal: Refusal): Promise<string | null> {
    if (refusal.retryAfterMs === null) return null;
    const until = new Date(this.#now().getTime() + refusal.retryAfterMs).toISOString();
    const reason = `${refusal.status ?? 'no answer'} with Retry-After (${Math.ceil(refusal.retryAfterMs / 1000)} s): ${refusal.message}`;
    await extendCarrierBackoff(this.#db, carrierCode, until, reason, false);
    return until;
  }

  /**
   * A call whose tries were all spent on retryable failures. With a Retry-After (recorded by `retryAfter`) that is
   * the wait; without one, one more failure in a row and the service's own back-off, doubling with each. Returns
   * the wait.
   */
  async triesSpent(carrierCode: string, refusal: Refusal, failuresBefore: number): Promise<number> {
    if (refusal.retryAfterMs !== null) return refusal.retryAfterMs;
    const ms = ownBackoffMs(failuresBefore + 1);
    const until = new Date(this.#now().getTime() + ms).toISOString();
    const reason = `${failuresBefore + 1} call(s) in a row failed, the last: ${refusal.message}`;
    await extendCarrierBackoff(this.#db, carrierCode, until, reason, true);
    return ms;
  }

  /** The carrier answered: its failures in a row start again from 0 (written only when there were some). */
  async answered(carrierCode: string, failuresBefore: number): Promise<void> {
    if (failuresBefore > 0) await resetCarrierFailures(this.#db, carrierCode);
  }
}
