import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { quotaCostOf, quotaMessage, rateLimitHeaders, tightest, type QuotaDecision, type QuotaName } from '../service/quotas.js';
import { DcsaResponder } from '../service/dcsa-responses.js';
import { isSubscriptionRoute } from '../rest/subscriptions-handler.js';
import type { ClientQuotas } from '../service/client-quotas.js';
import { decisionsOfCurrentRequest } from '../service/client-quotas.js';
import type { InternalContext } from '../executor/context.js';
import { currentRequest } from '../service/request-context.js';
import type { AppServices } from '../graphql/context.js';
import type { GraphQLContext } from '../graphql/context.js';

/**
 * Per-client quotas at the edges where requests come in (README: Quotas and
 * rate limits). Two plugins, because they must sit at two places of the
 * plugin list:
 *
 * - useRestQuotas, before the REST routes: GET /v2/shipments counts one
 *   lookup, each /v2/subscriptions* request one subscription request, once
 *   the bearer token is verified (an unauthenticated request goes on to the
 *   route, which answers 401: no one spends a client's quota without its
 *   token). Over quota: 429 with the DCSA error body. It also writes the
 *   RateLimit headers on every response whose request was counted, whatever
 *   layer counted it (the token grant counts tokens).
 * - useGraphQLQuotas, after useAuthentication: operations sent to /graphql
 *   count their lookup and subscription root fields, each alias once (see
 *   quotaCostOf). Over quota: a GraphQL error RATE_LIMITED with HTTP 429.
 *
 * @NOTE the service's own executions are never counted: REST routes run
 * their documents with the route's URL (counted above, once), push delivery
 * with `asPrincipal`/`transmission` set in-process (create-app.ts
 * InternalContext), which no HTTP request can set.
 */

const RATE_LIMITED_DETAIL = { errorCode: 7429, errorCodeText: 'rateLimited' } as const;

export function useRestQuotas(quotas: ClientQuotas, services: AppServices): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      const path = url.pathname.replace(/\/+$/, '') || '/';
      const quota: QuotaName | undefined = path === '/v2/shipments' ? 'lookups' : isSubscriptionRoute(path) ? 'subscriptions' : undefined;
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

export function useGraphQLQuotas(quotas: ClientQuotas, graphqlEndpoint: string): Plugin<GraphQLContext> {
  /** The refusal of an operation over quota, or undefined when it may run. */
  async function refusal(context: GraphQLContext & InternalContext, cost: Map<QuotaName, number>): Promise<GraphQLError | undefined> {
    if (cost.size === 0 || context.asPrincipal || context.transmission) return undefined;
    if (new URL(context.request.url).pathname !== graphqlEndpoint) return undefined;
    let clientId: string;
    try {
      // The fields that cost something are protected: the principal is resolved already, or its error is answered by the field.
      clientId = (await context.principal()).clientId;
    } catch {
      return undefined;
    }
    for (const [quota, points] of cost) {
      const decision = await quotas.consume(quota, clientId, points);
      if (!decision.allowed) return rateLimited(decision);
    }
    return undefined;
  }
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const error = await refusal(args.contextValue as GraphQLContext, quotaCostOf(args.document, args.operationName));
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const error = await refusal(args.contextValue as GraphQLContext, quotaCostOf(args.document, args.operationName));
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}

function rateLimited(decision: QuotaDecision): GraphQLError {
  return new GraphQLError(quotaMessage(decision), {
    extensions: {
      code: 'RATE_LIMITED',
      quota: decision.quota,
      // Yoga answers /graphql with this status and these headers.
      http: { status: 429, headers: rateLimitHeaders(decision) },
    },
  });
}
