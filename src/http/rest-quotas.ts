import type { ServerAdapterPlugin } from '@whatwg-node/server';
import type { AppServices } from '../graphql/context.js';
import type { Route } from '../rest/route-table.js';
import { decisionsOfCurrentRequest, type ClientQuotas } from '../quotas/client-quotas.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import { TntResponder, tntErrorOf } from '../errors/tnt-responses.js';
import { quotaMessage, rateLimitHeaders, tightest, type QuotaDecision } from '../quotas/quotas.js';

const RATE_LIMITED_DETAIL = { errorCode: 7429, errorCodeText: 'rateLimited' } as const;

/**
 * Per-client quotas of the REST routes (docs/errors.md: Quotas and rate limits): a
 * route whose entry in the route table names a quota (src/rest/route-table.ts)
 * counts one request against it before its handler runs, once the bearer
 * token is verified (an unauthenticated request goes on to the handler, which
 * answers 401: no one spends a client's quota without its token). Over quota:
 * 429 with the route's error body and Retry-After; undefined when it may run.
 *
 * Answered at once, with no promise, when the caller is known without waiting (its token verified before,
 * the access check's facts remembered: services.principalNow) and the store counts in memory: a poll's usual
 * case. Otherwise a promise of the same answer.
 */
export function restQuotaRefusal(
  request: Request,
  route: Route,
  quotas: ClientQuotas,
  services: AppServices,
  correlationId: string,
): Response | undefined | Promise<Response | undefined> {
  const quota = route.quota;
  if (!quota || !request.headers.has('authorization')) return undefined;
  const known = services.principalNow(request);
  const refuse = (decision: QuotaDecision) => (decision.allowed ? undefined : refusal(request, route, services, correlationId, decision));
  if (known) {
    const decision = quotas.consume(quota, known.clientId);
    return decision instanceof Promise ? decision.then(refuse) : refuse(decision);
  }
  return services.authenticate(request).then(
    async (principal) => refuse(await quotas.consume(quota, principal.clientId)),
    // The route authenticates again and answers 401 (the answer is kept per request: src/auth/request-auth.ts).
    () => undefined,
  );
}

function refusal(request: Request, route: Route, services: AppServices, correlationId: string, decision: QuotaDecision): Response {
  const detail = { ...RATE_LIMITED_DETAIL, errorCodeMessage: quotaMessage(decision) };
  // The DCSA publisher routes answer with the standard's own error body.
  return route.family === 'dcsa-tnt'
    ? new TntResponder(request, services, correlationId).fail(429, [tntErrorOf(detail)], rateLimitHeaders(decision))
    : new DcsaResponder(request, services, correlationId).fail(429, [detail], rateLimitHeaders(decision));
}

/**
 * The RateLimit headers on every response whose request was counted, whatever layer counted it: a REST
 * route, a GraphQL operation (src/executor/use-graphql-quotas.ts) or the token grant. A plugin of both HTTP
 * pipelines (the REST server and Yoga).
 */
export function useRateLimitHeaders(): ServerAdapterPlugin {
  return {
    onResponse({ response }) {
      const decision = tightest(decisionsOfCurrentRequest());
      if (!decision) return;
      // A refusal already carries its headers; set() would not replace them here: @whatwg-node's Headers
      // keeps a name given at construction apart from the same name set later in another case.
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
    },
  };
}
