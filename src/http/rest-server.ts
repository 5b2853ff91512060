import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { Executor } from '../executor/executor.js';
import type { AppServices } from '../graphql/context.js';
import { matchRoute } from '../rest/route-table.js';
import { jsonResponse } from '../service/json-response.js';
import { currentRequest } from '../service/request-context.js';
import { unexpectedErrorResponse } from '../service/route-errors.js';

/**
 * Mounts the REST routes of the route table (src/rest/route-table.ts) the
 * way Yoga mounts its own health route: an onRequest hook that ends the
 * response for their paths. Every route executes GraphQL documents through
 * the service's one executor.
 */
export function useRestApi(
  services: AppServices,
  executor: Executor,
  jwks: () => unknown,
  /** The caller's address (src/domain/client-address.ts); default the socket's peer. */
  addressOf: (request: Request, serverContext: unknown) => string | undefined = (_request, serverContext) => remoteAddress(serverContext),
): Plugin {
  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      const path = url.pathname.replace(/\/+$/, '') || '/';
      if (path === '/.well-known/jwks.json') {
        endResponse(jsonResponse(jwks(), 200, { 'Cache-Control': 'public, max-age=300' }));
        return;
      }
      const match = matchRoute(path);
      const handler = match?.route.handler;
      if (!match || !handler) return;
      // The request's id (use-correlation-id.ts); a new one only if that plugin is not mounted.
      const correlationId = currentRequest()?.correlationId ?? randomUUID();
      let response: Response;
      try {
        response = await handler({
          request,
          url,
          path,
          params: match.params,
          executor,
          services,
          correlationId,
          remoteAddress: addressOf(request, serverContext),
        });
      } catch (err) {
        // The net under the handlers: whatever escaped them is the route's own
        // 500 (or 503 when the database is down) with the correlation id; the
        // cause goes to the log only.
        services.log('error', 'request failed', {
          correlationId,
          route: match.route.path,
          error: err instanceof Error ? err.stack : String(err),
        });
        response = unexpectedErrorResponse(match.route.family, err, { correlationId, method: request.method, url: request.url });
      }
      response.headers.set('X-Correlation-ID', correlationId);
      endResponse(response);
    },
  };
}

export function remoteAddress(serverContext: unknown): string | undefined {
  return (serverContext as { req?: IncomingMessage } | undefined)?.req?.socket?.remoteAddress;
}
