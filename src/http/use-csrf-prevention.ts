import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** The header (any value) a GET to /graphql must carry: Yoga's name; Apollo's `Apollo-Require-Preflight` works too. */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

/**
 * Cross-site request forgery on /graphql. A browser sends a cross-site
 * "simple" request (a GET, or a POST of a form or text/plain) without asking
 * the server first, with the user's cookies and network position; only a
 * request that needs a CORS preflight is refused by the browser unless the
 * server allows it. So:
 *
 * - POSTs must be JSON (`application/json`, `application/graphql-response+json`)
 *   or `application/graphql`: form-encoded and multipart bodies are refused
 *   with 415 (Yoga would run a mutation from a form otherwise, and the API
 *   takes no uploads).
 * - Yoga's CSRF prevention plugin: a request whose content type a form could
 *   send, or a GET, must carry `X-GraphQL-Yoga-CSRF` (or
 *   `Apollo-Require-Preflight`), else 403. A GET carrying it may query
 *   (GraphiQL sends it: graphiql-options.ts); a mutation over GET stays a
 *   405 (Yoga's own rule).
 *
 * Only GraphQL requests reach these hooks (onRequestParse): the REST routes
 * answer in onRequest before, so `POST /oauth/token` keeps its form body.
 */
export function useCsrfPrevention(): Plugin[] {
  return [
    {
      onRequestParse({ request }) {
        if (request.method !== 'POST') return;
        const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        if (type === 'application/x-www-form-urlencoded' || type.startsWith('multipart/')) {
          throw new GraphQLError(`POST /graphql takes a JSON body (Content-Type: application/json), not ${type}.`, {
            extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', http: { status: 415, headers: { Accept: 'application/json' } } },
          });
        }
      },
    },
    // Headers only a script can set, and then only after a preflight. Not Authorization (a browser
    // re-sends cached Basic credentials by itself), nor X-Request-ID or traceparent (proxies add them).
    useCSRFPrevention({ requestHeaders: [CSRF_HEADER, 'apollo-require-preflight'] }),
  ];
}
