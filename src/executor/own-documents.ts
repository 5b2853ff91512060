import type { GraphQLError } from 'graphql';
import { ConfigError } from '../config/config.js';
import type { Executor } from './executor.js';
import { EVENT_SUBSCRIPTION_DOCUMENTS, EVENTS_DOCUMENT } from './event-documents.js';
import { PREDICTED_ARRIVAL_DOCUMENT, SHIPMENT_DOCUMENT } from './shipment-document.js';
import { SUBSCRIPTION_DOCUMENTS } from './subscription-documents.js';
import { FEED_DOCUMENTS } from './feed-documents.js';
import { ISSUE_TOKEN } from './token-document.js';
import { TRACKING_REQUEST_DOCUMENTS } from './tracking-request-documents.js';
import { LIMIT_EXCEEDED } from './use-graphql-limits.js';

/**
 * The fixed documents the service runs itself: the REST routes, webhook bodies (the lookup) and DCSA
 * notification bodies (the events page). With GraphiQL's default document they make the service's part of the
 * trusted-documents manifest (src/http/trusted-documents.ts).
 */
export const OWN_DOCUMENTS: readonly { operationName: string; query: string }[] = [
  { operationName: 'RestShipmentLookup', query: SHIPMENT_DOCUMENT },
  { operationName: 'RestPredictedArrival', query: PREDICTED_ARRIVAL_DOCUMENT },
  { operationName: 'RestIssueToken', query: ISSUE_TOKEN },
  ...Object.values(SUBSCRIPTION_DOCUMENTS),
  ...Object.values(FEED_DOCUMENTS),
  ...Object.values(TRACKING_REQUEST_DOCUMENTS),
  EVENTS_DOCUMENT,
  ...Object.values(EVENT_SUBSCRIPTION_DOCUMENTS),
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
 * ConfigError naming the variable instead. Prepares every document through
 * the executor, so each is parsed, validated and ready before the first request.
 */
export function checkOwnDocuments(executor: Executor): void {
  for (const { operationName, query } of OWN_DOCUMENTS) {
    let refused: GraphQLError | undefined;
    try {
      executor.prepare(query);
    } catch (err) {
      refused = err as GraphQLError;
    }
    if (!refused) continue;
    if (refused.extensions?.code !== LIMIT_EXCEEDED) throw refused;
    const variable = VARIABLE_OF_LIMIT.find(([pattern]) => pattern.test(refused.message))?.[1] ?? 'a TT_GRAPHQL_MAX_* variable';
    throw new ConfigError(`${variable} is too low for the service's own ${operationName} document: ${refused.message}`);
  }
}
