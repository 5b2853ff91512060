import { createServerAdapter, type ServerAdapterPlugin } from '@whatwg-node/server';
import type { ClientQuotas } from '../service/client-quotas.js';
import type { Executor } from '../executor/executor.js';
import type { AppServices } from '../graphql/context.js';
import { matchRoute, type RouteMatch } from '../rest/route-table.js';
import { currentRequest } from '../service/request-context.js';
import { unexpectedErrorResponse } from '../service/route-errors.js';
import { restQuotaRefusal } from './rest-quotas.js';

export interface RestServerOptions {
  services: AppServices;
  executor: Executor;
  /** The per-client quotas; undefined when quotas are off. */
  quotas: ClientQuotas | undefined;
  /** The caller's address (src/domain/client-address.ts). */
  addressOf(request: Request, serverContext: unknown): string | undefined;
  /**
   * The HTTP plugins both pipelines share (correlation id, access log, metrics, CORS, RateLimit headers,
   * request spans): the same functions Yoga runs for /graphql, not copies.
   */
  plugins: ServerAdapterPlugin[];
}

/**
 * The REST routes of the route table (src/rest/route-table.ts), served apart from Yoga's HTTP pipeline
 * (docs/architecture.md, Executor): a request is matched, counted against its route's quota and handed to its
 * handler, which runs its fixed document through the service's one executor, so authentication, validation,
 * limits and execution are the /graphql path's. The node:http layer (src/http/http-server.ts) sends a REST
 * route here and everything else to Yoga; `app.fetch` does the same for in-process callers.
 */
export function createRestServer(options: RestServerOptions) {
  const { services, executor, quotas } = options;
  return createServerAdapter<Record<string, unknown>>(
    async (request, serverContext) => {
      const url = new URL(request.url);
      const match = matchRoute(url.pathname) as RouteMatch;
      const handler = match.route.handler;
      // The request's id (use-correlation-id.ts, a plugin of this server).
      const correlationId = currentRequest()?.correlationId as string;
      let response: Response;
      try {
        const refusal = quotas && (await restQuotaRefusal(request, match.route, quotas, services, correlationId));
        response =
          refusal ||
          (await (handler as NonNullable<typeof handler>)({
            request,
            url,
            path: url.pathname.replace(/\/+$/, '') || '/',
            params: match.params,
            executor,
            services,
            correlationId,
            remoteAddress: options.addressOf(request, serverContext),
          }));
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
      return response;
    },
    { plugins: options.plugins },
  );
}

/** Whether a request target's path belongs to a REST handler of the route table. */
export function isRestTarget(target: string): boolean {
  const query = target.indexOf('?');
  return matchRoute(query < 0 ? target : target.slice(0, query))?.route.handler !== undefined;
}
