import { READ_SCOPE, SUBSCRIBE_SCOPE } from '../auth/scopes.js';
import { jsonResponse } from './responses.js';
import type { JsonSchema } from './rest-schemas.js';

const OPERATION = 'POST /oauth/token';
const NO_STORE = ['CorrelationId', 'NoStore', 'PragmaNoCache'] as const;

/** POST /oauth/token: the client credentials grant (RFC 6749 section 4.4), as src/rest/token-handler.ts serves it. */
export function tokenPath(): JsonSchema {
  return {
    post: {
      tags: ['Authentication'],
      operationId: 'issueToken',
      summary: 'Get an access token',
      description:
        'Exchanges client credentials for a bearer token (OAuth 2.0 client credentials, RFC 6749). The credentials go in ' +
        'the form body (client_id, client_secret) or in HTTP Basic, not both. Cache the token and reuse it until shortly ' +
        'before `expires_in` runs out; there is no refresh token. Failed client authentications are rate-limited per ' +
        '(client_id, address) and per address, and each client has a quota of tokens (docs/errors.md: Quotas and rate limits): ' +
        'both answer 429.',
      // Either HTTP Basic, or no Authorization header and the credentials in the body.
      security: [{ clientBasic: [] }, {}],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: {
                grant_type: { const: 'client_credentials', description: 'The only grant: client_credentials.' },
                client_id: { type: 'string', description: 'The client identifier (unless HTTP Basic is used).' },
                client_secret: { type: 'string', description: 'The client secret (unless HTTP Basic is used).' },
                scope: {
                  type: 'string',
                  pattern: '^[a-z.-]+( [a-z.-]+)*$',
                  description:
                    `Optional, space-separated; default ${READ_SCOPE}. Ask for \`${READ_SCOPE} ${SUBSCRIBE_SCOPE}\` to ` +
                    `manage webhook subscriptions, when an operator has granted the client ${SUBSCRIBE_SCOPE}.`,
                },
              },
              required: ['grant_type'],
              additionalProperties: false,
            },
            example: { grant_type: 'client_credentials', client_id: 'tt_…', client_secret: '…', scope: READ_SCOPE },
          },
        },
      },
      responses: {
        200: jsonResponse(OPERATION, 200, 'The token.', 'TokenResponse', NO_STORE),
        400: jsonResponse(
          OPERATION,
          400,
          '`invalid_request`: a missing grant_type, a repeated parameter, both HTTP Basic and body credentials, a body that ' +
            'is not application/x-www-form-urlencoded. `unsupported_grant_type`: a grant_type other than ' +
            `client_credentials. \`invalid_scope\`: a scope the client was not granted.`,
          'OAuthError',
          NO_STORE,
        ),
        401: jsonResponse(
          OPERATION,
          401,
          '`invalid_client`: missing credentials, unknown client, wrong secret, disabled client or malformed HTTP Basic.',
          'OAuthError',
          [...NO_STORE, 'BasicChallenge'],
        ),
        405: jsonResponse(OPERATION, 405, '`invalid_request`: a method other than POST.', 'OAuthError', [...NO_STORE, 'AllowPost']),
        429: jsonResponse(
          OPERATION,
          429,
          '`temporarily_unavailable`: too many failed client authentications of this client_id or from this address.',
          'OAuthError',
          [...NO_STORE, 'RetryAfter'],
        ),
        413: jsonResponse(
          OPERATION,
          413,
          '`invalid_request`: a body over 8 KiB (counted while it is read, chunked too).',
          'OAuthError',
          NO_STORE,
        ),
        500: jsonResponse(
          OPERATION,
          500,
          '`server_error`: an unexpected failure (details in the logs, under the correlation id).',
          'OAuthError',
          NO_STORE,
        ),
        503: jsonResponse(
          OPERATION,
          503,
          '`temporarily_unavailable`: the database is down or too slow; retry after Retry-After seconds.',
          'OAuthError',
          [...NO_STORE, 'RetryAfter'],
        ),
      },
    },
  };
}
