import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { Kind, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLLimits } from '../config/config.js';
import { decisionsOfCurrentRequest, type ClientQuotas } from '../quotas/client-quotas.js';
import { tightest, type QuotaDecision, type QuotaName } from '../quotas/quotas.js';
import type { ExecutorContext, InternalContext } from './context.js';
import { quotaCostOf } from './field-policy.js';
import { requestPath } from '../http-messages/request-path.js';

/** The quota an operation is reported against when it counts against none: the one GraphQL queries spend. */
const REPORTED_QUOTA: QuotaName = 'lookups';

/** The client's quota as this operation leaves it (docs/graphql.md, Cost). */
export interface ThrottleStatus {
  /** The quota the operation counts against (the tightest, when it counts against several). */
  quota: QuotaName;
  /** Points this operation counted against it: one per root field of that quota (response key). */
  cost: number;
  /** Points per window. */
  limit: number;
  /** Points left in the window after this operation; 0 while the burst allowance is being used. */
  remaining: number;
  /** When the window resets (ISO 8601 UTC). */
  resetAt: string;
}

/** `extensions.cost` of a GraphQL answer, and what `rateLimit` answers. */
export interface OperationCost {
  /** GraphQL Armor's cost of the operation (docs/graphql.md, Cost: the formula); the document limit is on this. */
  requestedQueryCost: number;
  /** TT_GRAPHQL_MAX_COST: the most an operation may cost. */
  maximumQueryCost: number;
  /** Absent when the request counted nothing and has no valid token, or with quotas off. */
  throttleStatus?: ThrottleStatus;
}

const costs = new WeakMap<object, () => OperationCost | Promise<OperationCost>>();

/**
 * The cost of the operation being executed with `context`: what `extensions.cost` of its answer says. Known once
 * the quotas are counted, so it is read by resolvers (`rateLimit`) and after execution, never before.
 */
export function operationCostOf(context: object): Promise<OperationCost> | undefined {
  const get = costs.get(context);
  return get && Promise.resolve(get());
}

/**
 * Cost in every answer of /graphql (docs/graphql.md, Cost), like Shopify's `extensions.cost`: the operation's
 * computed cost, and the client's quota as the operation leaves it. Placed before authentication and the quotas,
 * so that their refusals (401, 429) carry it too; the quota part is read after they ran (lazily, at the first
 * reader). The service's own executions (REST routes, push) are not GraphQL answers and are left alone.
 *
 * The computed cost is GraphQL Armor's own rule (the one use-graphql-limits.ts limits with), run once more per
 * parsed document outside validation: validation results are cached, so its accept callback cannot be relied on.
 */
export function useOperationCost(options: { limits: GraphQLLimits; quotas: ClientQuotas | undefined; graphqlEndpoint: string }): Plugin {
  const documentCosts = new WeakMap<DocumentNode, number[]>();

  function requestedCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): number {
    let perOperation = documentCosts.get(document);
    if (!perOperation) {
      const found: number[] = [];
      // Called once per operation, in document order; never refuses (the limit itself is checked in validation).
      validate(schema, document, [costLimitRule({ maxCost: Number.MAX_SAFE_INTEGER, onAccept: [(_context, { n }) => found.push(n)] })]);
      documentCosts.set(document, (perOperation = found));
    }
    const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    const index = operationName ? operations.findIndex((o) => o.name?.value === operationName) : 0;
    return Math.round(perOperation[index] ?? 0);
  }

  /**
   * The quota part: at once when the request counted a quota (a lookup counts one), else a look at the token's
   * client's lookups without counting, which asks the store. Known at once, the answer waits no turn (an async
   * hook after every execution costs a promise per answer; within the bench's noise: bench/README.md).
   */
  function throttleStatus(
    context: ExecutorContext,
    points: Map<QuotaName, number>,
  ): ThrottleStatus | undefined | Promise<ThrottleStatus | undefined> {
    if (!options.quotas) return undefined;
    // What this request counted (the client of the token, or the one a token was just issued to).
    const decisions = decisionsOfCurrentRequest();
    const decision = tightest(decisions);
    if (!decision) return uncounted(context, options.quotas, points);
    // Tokens are counted by the grant, one decision per token issued, not by the field policy.
    return statusOf(context, decision, points.get(decision.quota) ?? decisions.filter((d) => d.quota === decision.quota).length);
  }

  async function uncounted(
    context: ExecutorContext,
    quotas: ClientQuotas,
    points: Map<QuotaName, number>,
  ): Promise<ThrottleStatus | undefined> {
    let clientId: string;
    try {
      clientId = (await context.principal()).clientId;
    } catch {
      return undefined;
    }
    const decision = await quotas.status(REPORTED_QUOTA, clientId);
    return statusOf(context, decision, points.get(decision.quota) ?? 0);
  }

  /** The lazy cost of an operation of /graphql, or undefined for the service's own runs. */
  function costOf(args: {
    contextValue: unknown;
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName?: string | null;
  }): (() => OperationCost | Promise<OperationCost>) | undefined {
    const context = args.contextValue as ExecutorContext & InternalContext;
    if (context.asPrincipal || context.transmission) return undefined;
    if (requestPath(context.request) !== options.graphqlEndpoint) return undefined;
    const requestedQueryCost = requestedCost(args.schema, args.document, args.operationName);
    const points = quotaCostOf(args.schema, args.document, args.operationName);
    let cost: OperationCost | Promise<OperationCost> | undefined;
    const withStatus = (status: ThrottleStatus | undefined): OperationCost => ({
      requestedQueryCost,
      maximumQueryCost: options.limits.maxCost,
      ...(status ? { throttleStatus: status } : {}),
    });
    // Lazy: the quotas are counted by plugins after this one.
    const get = () => {
      if (cost === undefined) {
        const status = throttleStatus(context, points);
        cost = status instanceof Promise ? status.then(withStatus) : withStatus(status);
      }
      return cost;
    };
    costs.set(context, get);
    return get;
  }

  return {
    onExecute({ args }) {
      const get = costOf(args);
      if (!get) return undefined;
      return {
        onExecuteDone(payload) {
          const cost = get();
          return cost instanceof Promise ? cost.then((known) => withCost(payload, known)) : withCost(payload, cost);
        },
      };
    },
    onSubscribe({ args }) {
      const get = costOf(args);
      if (!get) return undefined;
      return {
        onSubscribeResult({ result, setResult }) {
          // A subscription counts once, when it is made (use-graphql-quotas.ts): read the quota now, in the request's
          // own context, and let every event say what the subscription cost (docs/graphql.md, Cost). Its events
          // count nothing, so they repeat that figure rather than read the quota again per event and subscriber.
          const cost = get();
          if (!isAsyncIterable(result)) {
            // Refused before its stream starts (401, 429, NOT_FOUND): one answer, which carries the cost like a
            // query's refusal. This hook cannot wait, but the subscribe call's result may be a promise (Yoga
            // awaits it), so a cost still being read is awaited there.
            const refusal = result as ExecutionResult;
            setResult(
              cost instanceof Promise
                ? // A cost that cannot be read (the quota store away) leaves the refusal as it was, never a 500.
                  (cost.then(
                    (known) => withExtensions(refusal, { cost: known }),
                    () => refusal,
                  ) as unknown as ExecutionResult)
                : withExtensions(refusal, { cost }),
            );
            return undefined;
          }
          return {
            async onNext({ result: event, setResult }) {
              setResult(withExtensions(event, { cost: await cost }));
            },
          };
        },
      };
    },
  };
}

function withExtensions<T extends ExecutionResult>(result: T, extensions: Record<string, unknown>): T {
  return { ...result, extensions: { ...result.extensions, ...extensions } };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** The quota part of `extensions.cost` for what the request counted (or would count). */
function statusOf(context: ExecutorContext, decision: QuotaDecision, cost: number): ThrottleStatus {
  return {
    quota: decision.quota,
    cost,
    limit: decision.limit,
    remaining: decision.remaining,
    resetAt: new Date(context.services.now().getTime() + decision.resetSeconds * 1000).toISOString(),
  };
}

/** `extensions.cost` on an answer: the result itself, or the first part of an incremental one (@defer, @stream). */
function withCost(
  { result, setResult }: { result: ExecutionResult | AsyncIterable<unknown>; setResult(result: ExecutionResult): void },
  cost: OperationCost,
) {
  const extensions = { cost };
  if (!isAsyncIterable(result)) {
    setResult(withExtensions(result, extensions));
    return undefined;
  }
  let first = true;
  return {
    onNext({ result: part, setResult: setPart }: { result: ExecutionResult; setResult(result: ExecutionResult): void }) {
      if (!first) return;
      first = false;
      setPart(withExtensions(part, extensions));
    },
  };
}
