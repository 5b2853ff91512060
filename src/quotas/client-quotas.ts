import type { QuotaConfig } from '../config/config.js';
import type { QuotaDecision, QuotaName } from './quotas.js';
import type { Limiter, LimitOutcome, RateLimitStore } from './rate-limit-store.js';
import { currentRequest, type RequestInfo } from '../observability/request-context.js';

/** Quotas count per minute; the burst allowance per ten minutes. */
export const QUOTA_WINDOW_SECONDS = 60;
export const BURST_WINDOW_SECONDS = 600;

/**
 * The per-client quota counters (src/quotas/quotas.ts says what counts), over
 * the app's rate-limit store. Every decision is also remembered for the
 * request being handled, so that its response carries the RateLimit headers
 * whichever layer counted (the REST route, the GraphQL execution, the token
 * grant): see useQuotaHeaders.
 */
export class ClientQuotas {
  readonly #limiters: Record<QuotaName, Limiter>;

  constructor(store: RateLimitStore, config: Pick<QuotaConfig, QuotaName>) {
    const make = (quota: QuotaName) =>
      store.burstyLimiter(
        { name: `quota:${quota}`, points: config[quota].perMinute, durationSeconds: QUOTA_WINDOW_SECONDS },
        config[quota].burst,
        BURST_WINDOW_SECONDS,
      );
    this.#limiters = { lookups: make('lookups'), subscriptions: make('subscriptions'), tokens: make('tokens') };
  }

  /**
   * Counts `points` requests of the client against the quota: the decision itself when the store counts in
   * memory, a promise of it when it asks Redis (a poll's quota then costs no promise; rate-limit-store.ts).
   */
  consume(quota: QuotaName, clientId: string, points = 1): QuotaDecision | Promise<QuotaDecision> {
    const limiter = this.#limiters[quota];
    const outcome = limiter.consume(clientId, points);
    return outcome instanceof Promise ? outcome.then((o) => decide(quota, limiter, o)) : decide(quota, limiter, outcome);
  }

  /** The client's standing in the quota, without counting anything (what `extensions.cost` reports). */
  async status(quota: QuotaName, clientId: string): Promise<QuotaDecision> {
    const limiter = this.#limiters[quota];
    const { consumed, msBeforeNext } = await limiter.peek(clientId);
    return {
      quota,
      allowed: consumed < limiter.points,
      limit: limiter.points,
      remaining: Math.max(0, limiter.points - consumed),
      resetSeconds: Math.max(0, Math.ceil((consumed > 0 ? msBeforeNext : limiter.durationSeconds * 1000) / 1000)),
      windowSeconds: limiter.durationSeconds,
    };
  }
}

/** The decision of an outcome, remembered for the request being handled. */
function decide(quota: QuotaName, limiter: Limiter, outcome: LimitOutcome): QuotaDecision {
  const decision: QuotaDecision = {
    quota,
    allowed: outcome.allowed,
    limit: limiter.points,
    remaining: outcome.remaining,
    resetSeconds: Math.max(0, Math.ceil(outcome.msBeforeNext / 1000)),
    windowSeconds: limiter.durationSeconds,
  };
  remember(decision);
  return decision;
}

const decisions = new WeakMap<RequestInfo, QuotaDecision[]>();

/** Notes a decision against the request being handled (nothing outside a request). */
function remember(decision: QuotaDecision): void {
  const info = currentRequest();
  if (!info) return;
  const list = decisions.get(info);
  if (list) list.push(decision);
  else decisions.set(info, [decision]);
}

/** The decisions taken while handling the current request. */
export function decisionsOfCurrentRequest(): readonly QuotaDecision[] {
  const info = currentRequest();
  return (info && decisions.get(info)) ?? [];
}
