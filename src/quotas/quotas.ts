/**
 * Per-client quotas on successful traffic (docs/errors.md: Quotas and rate limits):
 * how a decision is told to the client. Pure; the counters live in
 * src/quotas/client-quotas.ts, and what each GraphQL field costs is its
 * policy (src/executor/field-policy.ts).
 *
 * A quota counts requests of an authenticated client, keyed on its client_id
 * (never on an address: a client behind a shared proxy has its own budget,
 * and no one can spend another client's budget without its credentials).
 */

export type QuotaName = 'lookups' | 'subscriptions' | 'tokens';

/** The outcome of counting a request against a quota; the RateLimit headers say it to the client. */
export interface QuotaDecision {
  quota: QuotaName;
  allowed: boolean;
  /** Requests per window (RateLimit-Limit). */
  limit: number;
  /** Requests left in the current window (RateLimit-Remaining); 0 while the burst allowance is being used. */
  remaining: number;
  /** Seconds until the window resets (RateLimit-Reset), and the Retry-After of a refusal. */
  resetSeconds: number;
  /** Window length in seconds (RateLimit-Policy `w`). */
  windowSeconds: number;
}

/**
 * The RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, the
 * widely deployed `RateLimit-Limit/-Remaining/-Reset` form) plus the policy,
 * and `Retry-After` on a refusal.
 */
export function rateLimitHeaders(decision: QuotaDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    'RateLimit-Policy': `${decision.limit};w=${decision.windowSeconds}`,
    ...(decision.allowed ? {} : { 'Retry-After': String(Math.max(1, decision.resetSeconds)) }),
  };
}

/** Of several decisions of one request, the one to report: a refusal first, else the one with the least left. */
export function tightest(decisions: readonly QuotaDecision[]): QuotaDecision | undefined {
  let result: QuotaDecision | undefined;
  for (const d of decisions) {
    if (!result) result = d;
    else if (d.allowed !== result.allowed) result = d.allowed ? result : d;
    else if (d.remaining < result.remaining) result = d;
  }
  return result;
}

/** What a refused client is told (REST error message, GraphQL error message, OAuth error_description). */
export function quotaMessage(decision: QuotaDecision): string {
  const what = decision.quota === 'tokens' ? 'tokens' : decision.quota === 'lookups' ? 'lookups' : 'subscription requests';
  // No wait in the text (Retry-After says it): the same refusal reads the same, whenever it happens.
  return `Quota exceeded: ${decision.limit} ${what} per ${decision.windowSeconds} s for this client; retry after Retry-After seconds.`;
}
