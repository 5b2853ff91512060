import type { GraphQLError } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { ConfigError } from '../config/config.js';
import { SHIPMENT_DOCUMENT } from './shipment-document.js';
import { SUBSCRIPTION_DOCUMENTS } from './subscription-documents.js';
import { ISSUE_TOKEN } from './token-document.js';
import { LIMIT_EXCEEDED } from './use-graphql-limits.js';

type Yoga = YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;

/** The fixed documents the service runs itself: the REST routes, and webhook bodies (the lookup). */
export const OWN_DOCUMENTS: readonly { operationName: string; query: string }[] = [
  { operationName: 'RestShipmentLookup', query: SHIPMENT_DOCUMENT },
  { operationName: 'RestIssueToken', query: ISSUE_TOKEN },
  ...Object.values(SUBSCRIPTION_DOCUMENTS),
];

const VARIABLE_OF_LIMIT: [RegExp, string][] = [
  [/^Token limit/, 'TT_GRAPHQL_MAX_TOKENS'],
  [/^Aliases limit/, 'TT_GRAPHQL_MAX_ALIASES'],
  [/^Query depth limit/, 'TT_GRAPHQL_MAX_DEPTH'],
  [/^Directives limit/, 'TT_GRAPHQL_MAX_DIRECTIVES'],
  [/^Query Cost limit/, 'TT_GRAPHQL_MAX_COST'],
];

/**
 * Start-up check: limits set below what the service's own documents need
 * would turn every REST lookup and webhook into a 500. Stops start-up with a
 * ConfigError naming the variable instead. Parses and validates through the
 * app's envelop, so it also warms Yoga's parser and validation caches.
 */
export function checkOwnDocuments(yoga: Yoga): void {
  for (const { operationName, query } of OWN_DOCUMENTS) {
    // A POST: Yoga refuses a mutation parsed for a GET.
    const enveloped = yoga.getEnveloped({ request: new Request('http://internal/graphql', { method: 'POST' }) });
    let errors: readonly GraphQLError[];
    try {
      errors = enveloped.validate(enveloped.schema, enveloped.parse(query));
    } catch (err) {
      errors = [err as GraphQLError];
    }
    const refused = errors.find((e) => e.extensions?.code === LIMIT_EXCEEDED);
    if (!refused) continue;
    const variable = VARIABLE_OF_LIMIT.find(([pattern]) => pattern.test(refused.message))?.[1] ?? 'a TT_GRAPHQL_MAX_* variable';
    throw new ConfigError(`${variable} is too low for the service's own ${operationName} document: ${refused.message}`);
  }
}
