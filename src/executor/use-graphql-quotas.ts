import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ClientQuotas } from '../quotas/client-quotas.js';
import { quotaMessage, rateLimitHeaders, type QuotaDecision, type QuotaName } from '../quotas/quotas.js';
import type { ExecutorContext, InternalContext } from './context.js';
import { quotaCostOf } from './field-policy.js';
import { stopOnRefusal, type Refusal } from './stop-on-refusal.js';
import { requestPath } from '../http-messages/request-path.js';

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
  /**
   * The refusal of an operation over quota, or undefined when it may run: at once when nothing is counted (the
   * service's own runs, REST's documents) or the caller is known and the store counts in memory, else a promise.
   */
  function refusal(context: ExecutorContext & InternalContext, cost: Map<QuotaName, number>): Refusal {
    if (cost.size === 0 || context.asPrincipal || context.transmission) return undefined;
    if (requestPath(context.request) !== graphqlEndpoint) return undefined;
    const known = context.principalNow();
    if (known) return counted(known.clientId, cost.entries());
    return context.principal().then(
      (principal) => counted(principal.clientId, cost.entries()),
      // The fields that cost something are protected: the principal is resolved already, or its error is answered by the field.
      () => undefined,
    );
  }
  /** Counts each quota of the operation in turn, up to the first refusal. */
  function counted(clientId: string, costs: IterableIterator<[QuotaName, number]>): Refusal {
    for (const [quota, points] of costs) {
      const decision = quotas.consume(quota, clientId, points);
      if (decision instanceof Promise) {
        return decision.then((d) => (d.allowed ? counted(clientId, costs) : rateLimited(d)));
      }
      if (!decision.allowed) return rateLimited(decision);
    }
    return undefined;
  }
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = quotaCostOf(args.schema, args.document, args.operationName);
      return stopOnRefusal(refusal(args.contextValue as ExecutorContext, cost), setResultAndStopExecution);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const cost = quotaCostOf(args.schema, args.document, args.operationName);
      return stopOnRefusal(refusal(args.contextValue as ExecutorContext, cost), setResultAndStopExecution);
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
