import type { QuotaConfig } from '../config/config.js';
import { headersOf, type HeaderName } from './components.js';
import { jsonResponse } from './responses.js';
import type { JsonSchema } from './rest-schemas.js';

/** The RateLimit headers of a counted request (src/quotas/quotas.ts rateLimitHeaders). */
export const RATE_LIMIT_HEADERS = [
  'RateLimitLimit',
  'RateLimitRemaining',
  'RateLimitReset',
  'RateLimitPolicy',
] as const satisfies readonly HeaderName[];

const QUOTA_OF_PATH: [RegExp, 'lookups' | 'subscriptions' | 'tokens'][] = [
  [/^\/v2\/shipments$/, 'lookups'],
  [/^\/v2\/changes$/, 'lookups'],
  [/^\/v2\/subscriptions/, 'subscriptions'],
  [/^\/v2\/tracking-requests/, 'subscriptions'],
  [/^\/oauth\/token$/, 'tokens'],
];

/**
 * Adds the per-client quotas (docs/errors.md: Quotas and rate limits) to the
 * operations they apply to: the RateLimit headers on the responses that may
 * carry them (every response of an authenticated request; for the token
 * endpoint, the token and the refusal), and the 429 of a client over quota.
 */
export function withQuotas(paths: Record<string, JsonSchema>, quotas: QuotaConfig | undefined): Record<string, JsonSchema> {
  for (const [path, item] of Object.entries(paths)) {
    const quota = QUOTA_OF_PATH.find(([pattern]) => pattern.test(path))?.[1];
    if (!quota) continue;
    for (const [method, operation] of Object.entries(item as Record<string, JsonSchema>)) {
      const responses = operation.responses as Record<string, JsonSchema> | undefined;
      if (!responses) continue;
      const name = `${method.toUpperCase()} ${path}`;
      if (quota === 'tokens') {
        responses[429] = tokenRefusal(name, responses[429] as JsonSchema, quotas);
        addRateLimitHeaders(responses[200] as JsonSchema);
        continue;
      }
      responses[429] = jsonResponse(name, 429, refusalText(quota, quotas), 'Error', ['RetryAfter']);
      for (const [status, response] of Object.entries(responses)) if (status !== '401') addRateLimitHeaders(response);
    }
  }
  return paths;
}

function addRateLimitHeaders(response: JsonSchema): void {
  response.headers = { ...(response.headers as JsonSchema | undefined), ...headersOf(RATE_LIMIT_HEADERS) };
}

function limitText(quota: 'lookups' | 'subscriptions' | 'tokens', quotas: QuotaConfig | undefined): string {
  const limit = quotas?.[quota];
  return limit ? ` (here ${limit.perMinute} per minute, plus ${limit.burst} per 10 minutes in bursts)` : '';
}

function refusalText(quota: 'lookups' | 'subscriptions', quotas: QuotaConfig | undefined): string {
  const what =
    quota === 'lookups' ? 'lookups' : 'subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together)';
  return `errorCode 7429: the client's quota of ${what} is used up${limitText(quota, quotas)}; retry after Retry-After seconds.`;
}

function tokenRefusal(name: string, existing: JsonSchema, quotas: QuotaConfig | undefined): JsonSchema {
  const failures = quotas
    ? ` (here ${quotas.authFailuresPerClientAddress} of one client_id from one address, or ${quotas.authFailuresPerAddress} from one address, within ${quotas.authFailureWindowSeconds} s)`
    : '';
  return {
    ...existing,
    description:
      `\`temporarily_unavailable\`: too many failed client authentications${failures}, or the client's quota of tokens is ` +
      `used up${limitText('tokens', quotas)}; the RateLimit headers come with the latter.`,
    headers: { ...(existing.headers as JsonSchema | undefined), ...headersOf(RATE_LIMIT_HEADERS) },
  };
}
