import type { Plugin } from 'graphql-yoga';
import type { AppServices } from '../graphql/context.js';
import { matchRoute } from '../rest/route-table.js';
import { decisionsOfCurrentRequest, type ClientQuotas } from '../service/client-quotas.js';
import { DcsaResponder } from '../service/dcsa-responses.js';
import { quotaMessage, rateLimitHeaders, tightest } from '../service/quotas.js';
import { currentRequest } from '../service/request-context.js';

/**
 * Per-client quotas of the REST routes (README: Quotas and rate limits),
 * before the routes run: a route whose entry in the route table names a
 * quota (src/rest/route-table.ts) counts one request against it, once the
 * bearer token is verified (an unauthenticated request goes on to the route,
 * which answers 401: no one spends a client's quota without its token). Over
 * quota: 429 with the DCSA error body. It also writes the RateLimit headers
 * on every response whose request was counted, whatever layer counted it
 * (the token grant counts tokens, GraphQL operations their fields:
 * src/executor/use-graphql-quotas.ts).
 */

const RATE_LIMITED_DETAIL = { errorCode: 7429, errorCodeText: 'rateLimited' } as const;

export function useRestQuotas(quotas: ClientQuotas, services: AppServices): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      const quota = matchRoute(url.pathname)?.route.quota;
      if (!quota || !request.headers.has('authorization')) return;
      let clientId: string;
      try {
        clientId = (await services.authenticate(request)).clientId;
      } catch {
        return; // The route authenticates again and answers 401 (the verified-token cache makes that cheap).
      }
      const decision = await quotas.consume(quota, clientId);
      if (decision.allowed) return;
      const correlationId = currentRequest()?.correlationId ?? 'unknown';
      const respond = new DcsaResponder(request, services, correlationId);
      endResponse(respond.fail(429, [{ ...RATE_LIMITED_DETAIL, errorCodeMessage: quotaMessage(decision) }], rateLimitHeaders(decision)));
    },
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
