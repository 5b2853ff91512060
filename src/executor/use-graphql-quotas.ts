import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ClientQuotas } from '../service/client-quotas.js';
import { urlPath } from '../service/url-path.js';
import { quotaMessage, rateLimitHeaders, type QuotaDecision, type QuotaName } from '../service/quotas.js';
import type { ExecutorContext, InternalContext } from './context.js';
import { quotaCostOf } from './field-policy.js';

/**
 * Per-client quotas of GraphQL operations sent to /graphql (README: Quotas
 * and rate limits), after useAuthentication: each root field counts against
 * the quota its policy names (src/executor/field-policy.ts), once per
 * response key. Over quota: a GraphQL error RATE_LIMITED with HTTP 429.
 *
 * @NOTE the service's own executions are never counted: REST routes run
 * their documents with the route's URL (counted once by the route,
 * src/http/use-rest-quotas.ts), push delivery with `asPrincipal`/`transmission`
 * set in-process (InternalContext), which no HTTP request can set.
 */
export function useGraphQLQuotas(quotas: ClientQuotas, graphqlEndpoint: string): Plugin<ExecutorContext> {
  /** The refusal of an operation over quota, or undefined when it may run. */
  async function refusal(context: ExecutorContext & InternalContext, cost: Map<QuotaName, number>): Promise<GraphQLError | undefined> {
    if (cost.size === 0 || context.asPrincipal || context.transmission) return undefined;
    if (urlPath(context.request.url) !== graphqlEndpoint) return undefined;
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
      const error = await refusal(args.contextValue as ExecutorContext, quotaCostOf(args.schema, args.document, args.operationName));
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const error = await refusal(args.contextValue as ExecutorContext, quotaCostOf(args.schema, args.document, args.operationName));
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
