import type { ServerAdapterPlugin } from '@whatwg-node/server';
import type { AppServices } from '../graphql/context.js';
import type { Route } from '../rest/route-table.js';
import { decisionsOfCurrentRequest, type ClientQuotas } from '../service/client-quotas.js';
import { DcsaResponder } from '../service/dcsa-responses.js';
import { TntResponder, tntErrorOf } from '../service/tnt-responses.js';
import { quotaMessage, rateLimitHeaders, tightest } from '../service/quotas.js';

const RATE_LIMITED_DETAIL = { errorCode: 7429, errorCodeText: 'rateLimited' } as const;

/**
 * Per-client quotas of the REST routes (docs/errors.md: Quotas and rate limits): a
 * route whose entry in the route table names a quota (src/rest/route-table.ts)
 * counts one request against it before its handler runs, once the bearer
 * token is verified (an unauthenticated request goes on to the handler, which
 * answers 401: no one spends a client's quota without its token). Over quota:
 * 429 with the route's error body and Retry-After; undefined when it may run.
 */
export async function restQuotaRefusal(
  request: Request,
  route: Route,
  quotas: ClientQuotas,
  services: AppServices,
  correlationId: string,
): Promise<Response | undefined> {
  if (!route.quota || !request.headers.has('authorization')) return undefined;
  let clientId: string;
  try {
    clientId = (await services.authenticate(request)).clientId;
  } catch {
    return undefined; // The route authenticates again and answers 401 (the verified-token cache makes that cheap).
  }
  const decision = await quotas.consume(route.quota, clientId);
  if (decision.allowed) return undefined;
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
