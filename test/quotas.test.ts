import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { quotaCostOf } from '../src/executor/field-policy.js';
import { schema } from '../src/graphql/schema/index.js';
import { quotaMessage, rateLimitHeaders, tightest, type QuotaDecision } from '../src/quotas/quotas.js';

// What each root field costs is its declared policy (src/executor/field-policy.ts), read from the schema.
const cost = (query: string, operationName?: string) => Object.fromEntries(quotaCostOf(schema, parse(query), operationName));

describe('quotaCostOf', () => {
  it('counts each aliased lookup, through fragments, and a repeated response key once', () => {
    expect(cost('{ shipment(billOfLadingNumber: "A") { eta } }')).toEqual({ lookups: 1 });
    expect(cost('{ a: shipment(billOfLadingNumber: "A") { eta } b: shipment(billOfLadingNumber: "B") { eta } }')).toEqual({ lookups: 2 });
    expect(
      cost(
        '{ ...F ... on Query { c: shipment(billOfLadingNumber: "C") { eta } } } fragment F on Query { a: shipment(billOfLadingNumber: "A") { eta } }',
      ),
    ).toEqual({ lookups: 2 });
    expect(cost('{ shipment(billOfLadingNumber: "A") { eta } shipment(billOfLadingNumber: "A") { etd } }')).toEqual({ lookups: 1 });
    const thousand = Array.from({ length: 1000 }, (_, i) => `a${i}: shipment(billOfLadingNumber: "A") { eta }`).join(' ');
    expect(cost(`{ ${thousand} }`)).toEqual({ lookups: 1000 });
  });

  it('counts subscription fields apart, only in the operation that runs, and tokens not at all (the grant does)', () => {
    expect(cost('{ webhookSubscriptions { subscriptionID } shipment(billOfLadingNumber: "A") { eta } }')).toEqual({
      subscriptions: 1,
      lookups: 1,
    });
    expect(cost('query A { shipment(billOfLadingNumber: "A") { eta } } query B { webhookSubscriptions { subscriptionID } }', 'B')).toEqual({
      subscriptions: 1,
    });
    expect(cost('mutation { a: issueToken(grant_type: "x", client_id: "y", client_secret: "z") { scope } }')).toEqual({});
    expect(cost('{ __typename }')).toEqual({});
  });
});

describe('rateLimitHeaders', () => {
  const decision: QuotaDecision = { quota: 'lookups', allowed: true, limit: 600, remaining: 599, resetSeconds: 42, windowSeconds: 60 };

  it('tells limit, remaining, reset and policy, and Retry-After only on a refusal', () => {
    expect(rateLimitHeaders(decision)).toEqual({
      'RateLimit-Limit': '600',
      'RateLimit-Remaining': '599',
      'RateLimit-Reset': '42',
      'RateLimit-Policy': '600;w=60',
    });
    expect(rateLimitHeaders({ ...decision, allowed: false, remaining: 0, resetSeconds: 0 })).toMatchObject({
      'Retry-After': '1',
      'RateLimit-Remaining': '0',
    });
    expect(quotaMessage({ ...decision, allowed: false })).toBe(
      'Quota exceeded: 600 lookups per 60 s for this client; retry after Retry-After seconds.',
    );
  });

  it('reports a refusal over an allowance, else the least left', () => {
    const refused = { ...decision, quota: 'tokens' as const, allowed: false, remaining: 0 };
    expect(tightest([decision, refused])).toBe(refused);
    const low = { ...decision, remaining: 3 };
    expect(tightest([decision, low])).toBe(low);
    expect(tightest([])).toBeUndefined();
  });
});
