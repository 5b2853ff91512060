import type { DocumentNode } from 'graphql';
import { rootFields } from './root-fields.js';

/**
 * Per-client quotas on successful traffic (README: Quotas and rate limits):
 * what each request costs, and how a decision is told to the client. Pure;
 * the counters live in src/app/quota-limiters.ts.
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

/** GraphQL root fields that count against a quota, one point per field executed. */
const QUOTA_OF_FIELD = new Map<string, QuotaName>([
  ['shipment', 'lookups'],
  ['shipmentUpdates', 'lookups'],
  ['webhookSubscriptions', 'subscriptions'],
  ['webhookSubscription', 'subscriptions'],
  ['webhookDeliveries', 'subscriptions'],
  ['createWebhookSubscription', 'subscriptions'],
  ['deleteWebhookSubscription', 'subscriptions'],
  ['rotateWebhookSubscriptionSecret', 'subscriptions'],
]);

/**
 * What the operation costs: each root field of a quota counts once per
 * response key, so `a: shipment(...) b: shipment(...)` costs two lookups
 * (aliases cannot multiply work for free) while the same field selected
 * twice under one key is executed, and counted, once. `issueToken` is not
 * here: the grant counts each token it issues (src/auth/token-grant.ts).
 */
export function quotaCostOf(document: DocumentNode, operationName?: string | null): Map<QuotaName, number> {
  const cost = new Map<QuotaName, number>();
  const keys = new Set<string>();
  for (const field of rootFields(document, operationName)) {
    const quota = QUOTA_OF_FIELD.get(field.name.value);
    const key = field.alias?.value ?? field.name.value;
    if (!quota || keys.has(key)) continue;
    keys.add(key);
    cost.set(quota, (cost.get(quota) ?? 0) + 1);
  }
  return cost;
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
