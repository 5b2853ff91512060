import { READ_SCOPE } from '../../auth/scopes.js';
import { policy } from '../../executor/field-policy.js';
import { operationCostOf, type ThrottleStatus } from '../../executor/use-operation-cost.js';
import { builder } from '../builder.js';

const RateLimitQuota = builder.enumType('RateLimitQuota', {
  description: 'A per-client quota (docs/errors.md: Quotas and rate limits).',
  values: {
    LOOKUPS: { value: 'lookups', description: 'Lookups: shipment, event and feed reads, REST and GraphQL alike.' },
    SUBSCRIPTIONS: { value: 'subscriptions', description: 'Requests that manage webhook and event subscriptions.' },
    TOKENS: { value: 'tokens', description: 'Access tokens issued.' },
  } as const,
});

interface RateLimitShape extends ThrottleStatus {
  requestedQueryCost: number;
}

const RateLimitType = builder.objectRef<RateLimitShape>('RateLimit').implement({
  description:
    "The client's quota as this operation leaves it (docs/graphql.md, Cost): the same numbers as the answer's " +
    '`extensions.cost.throttleStatus`.',
  fields: (t) => ({
    quota: t.field({ type: RateLimitQuota, resolve: (r) => r.quota, description: 'The quota this operation counts against.' }),
    cost: t.exposeInt('cost', {
      description: 'Points this operation counted against the quota: one per root field of that quota (response key).',
    }),
    limit: t.exposeInt('limit', { description: 'Points per window.' }),
    remaining: t.exposeInt('remaining', {
      description: 'Points left in the window after this operation; 0 while the burst allowance is being used.',
    }),
    resetAt: t.field({ type: 'DateTime', resolve: (r) => r.resetAt, description: 'When the window resets.' }),
    requestedQueryCost: t.exposeInt('requestedQueryCost', {
      description: "GraphQL Armor's computed cost of this operation, which TT_GRAPHQL_MAX_COST bounds.",
    }),
  }),
});

builder.queryField('rateLimit', (t) =>
  t.field({
    // Free: asking what is left must not spend it. Needs a token: a quota is a client's.
    ...policy({ access: { scope: READ_SCOPE } }),
    type: RateLimitType,
    nullable: true,
    description:
      "The calling client's quota as this operation leaves it (like GitHub's rateLimit); null when quotas are off. " +
      'Costs nothing itself.',
    resolve: async (_root, _args, ctx) => {
      const cost = await operationCostOf(ctx);
      if (!cost?.throttleStatus) return null;
      return { ...cost.throttleStatus, requestedQueryCost: cost.requestedQueryCost };
    },
  }),
);
