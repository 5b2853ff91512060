import sandboxResponses from './examples/sandbox-responses.json' with { type: 'json' };
import accountFeedResponses from './examples/account-feed-responses.json' with { type: 'json' };
import { headersOf, type HeaderName } from './components.js';
import { componentRef, type JsonSchema } from './rest-schemas.js';

type Recorded = Record<string, Record<string, Record<string, unknown>>>;

/**
 * Real responses of the sandbox, by operation (`POST /oauth/token`), status
 * and name, recorded by test/openapi-responses.test.ts (the account feed's and
 * webhook trials' by test/account-feed-openapi.test.ts) with per-request
 * values (ids, tokens) masked; the test fails when they no longer match
 * what the service answers (`npx vitest run test/openapi-responses.test.ts -u`
 * rewrites them).
 */
const RECORDED = { ...(sandboxResponses as unknown as Recorded), ...(accountFeedResponses as unknown as Recorded) };

/** A JSON response of `operation` with the given body schema, headers and its recorded examples. */
export function jsonResponse(
  operation: string,
  status: number,
  description: string,
  schemaName: string,
  headers: readonly HeaderName[],
): JsonSchema {
  const recorded = RECORDED[operation]?.[String(status)] ?? {};
  const examples = Object.fromEntries(Object.entries(recorded).map(([name, value]) => [name, { value }]));
  return {
    description,
    headers: headersOf(headers),
    content: {
      'application/json': {
        schema: componentRef(schemaName),
        ...(Object.keys(examples).length > 0 ? { examples } : {}),
      },
    },
  };
}
