import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import { jsonResponse } from '../service/json-response.js';
import { handleShipmentLookup } from '../rest/shipments-handler.js';
import { handleSubscriptions, isSubscriptionRoute } from '../rest/subscriptions-handler.js';
import { handleTokenRequest } from '../rest/token-handler.js';
import { handleCarrierRoutes, isCarrierRoute } from '../rest/carrier-routes.js';
import { currentRequest } from '../service/request-context.js';
import { routeFamily, unexpectedErrorResponse } from '../service/route-errors.js';
import type { AppServices } from '../graphql/context.js';

type Yoga = YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;

/**
 * Mounts the REST compatibility routes the way Yoga mounts its own health
 * route: an onRequest hook that ends the response for its paths. Every route
 * executes GraphQL documents through the same Yoga instance.
 */
export function useRestApi(
  services: AppServices,
  jwks: () => unknown,
  /** The caller's address (src/app/client-address.ts); default the socket's peer. */
  addressOf: (request: Request, serverContext: unknown) => string | undefined = (_request, serverContext) => remoteAddress(serverContext),
): Plugin {
  let yoga: Yoga;
  return {
    onYogaInit({ yoga: instance }) {
      yoga = instance as unknown as Yoga;
    },
    async onRequest({ request, url, endResponse, serverContext }) {
      const path = url.pathname.replace(/\/+$/, '') || '/';
      if (path === '/.well-known/jwks.json') {
        endResponse(jsonResponse(jwks(), 200, { 'Cache-Control': 'public, max-age=300' }));
        return;
      }
      if (isCarrierRoute(path)) {
        const correlationId = currentRequest()?.correlationId ?? randomUUID();
        const response = await handleCarrierRoutes(request, url, path, services, correlationId);
        response.headers.set('X-Correlation-ID', correlationId);
        endResponse(response);
        return;
      }
      const subscriptions = isSubscriptionRoute(path);
      if (path !== '/v2/shipments' && path !== '/oauth/token' && !subscriptions) return;
      // The request's id (use-correlation-id.ts); a new one only if that plugin is not mounted.
      const correlationId = currentRequest()?.correlationId ?? randomUUID();
      let response: Response;
      try {
        response =
          path === '/v2/shipments'
            ? await handleShipmentLookup(request, url, yoga, services, correlationId)
            : subscriptions
              ? await handleSubscriptions(request, url, yoga, services, correlationId)
              : await handleTokenRequest(request, yoga, services, correlationId, addressOf(request, serverContext));
      } catch (err) {
        // The net under the handlers: whatever escaped them is the route's own
        // 500 (or 503 when the database is down) with the correlation id; the
        // cause goes to the log only.
        services.log('error', 'request failed', { correlationId, route: path, error: err instanceof Error ? err.stack : String(err) });
        response = unexpectedErrorResponse(routeFamily(path), err, { correlationId, method: request.method, url: request.url });
      }
      response.headers.set('X-Correlation-ID', correlationId);
      endResponse(response);
    },
  };
}

export function remoteAddress(serverContext: unknown): string | undefined {
  return (serverContext as { req?: IncomingMessage } | undefined)?.req?.socket?.remoteAddress;
}
