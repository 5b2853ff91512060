import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendNodeResponse, type ServerAdapterPlugin } from '@whatwg-node/server';
import type { ClientQuotas } from '../quotas/client-quotas.js';
import type { Executor } from '../executor/executor.js';
import type { AppServices } from '../graphql/context.js';
import { matchRoute, type RouteMatch } from '../rest/route-table.js';
import { currentRequest } from '../observability/request-context.js';
import { unexpectedErrorResponse } from '../errors/route-errors.js';
import { fetchRequestOf, NodeRequest } from './node-request.js';
import { parsedTarget } from './parsed-target.js';
import { restQuotaRefusal } from './rest-quotas.js';
import { serverPipeline } from './server-plugins.js';

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

export interface RestServer {
  /** A REST target received by node:http (src/http/http-server.ts): handled and written to `res`. */
  node(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** In-process callers (`app.fetch`, tests): a Request in, the Response out; `serverContext` as node's (`{ req }`). */
  fetch(request: Request, serverContext?: Record<string, unknown>): Promise<Response>;
}

/**
 * The REST routes of the route table (src/rest/route-table.ts), served apart from Yoga's HTTP pipeline
 * (docs/architecture.md, Executor): a request is matched, counted against its route's quota and handed to its
 * handler, which runs its fixed document through the service's one executor, so authentication, validation,
 * limits and execution are the /graphql path's. The node:http layer (src/http/http-server.ts) sends a REST
 * route here and everything else to Yoga; `app.fetch` does the same for in-process callers.
 *
 * Straight on node:http, without a fetch adapter: the shared HTTP plugins run here (server-plugins.ts) with
 * the hooks and order the adapter gives Yoga; a GET or HEAD is read through a NodeRequest (headers read when
 * asked, no AbortSignal unless asked), a request with a body (already read by the node:http layer, within its
 * route's limit) through a fetch Request; the response is written to node's ServerResponse as the adapter
 * writes it.
 */
export function createRestServer(options: RestServerOptions): RestServer {
  const { services, executor, quotas } = options;

  async function handle(request: Request, url: URL, serverContext: Record<string, unknown>): Promise<Response> {
    const match = matchRoute(url.pathname) as RouteMatch;
    const handler = match.route.handler;
    // The request's id (use-correlation-id.ts, a plugin of this server).
    const correlationId = currentRequest()?.correlationId as string;
    try {
      // A promise only when the quota must wait (rest-quotas.ts): a poll's usual case waits for nothing.
      let refusal = quotas && restQuotaRefusal(request, match.route, quotas, services, correlationId);
      if (refusal instanceof Promise) refusal = await refusal;
      if (refusal) return refusal;
      return await (handler as NonNullable<typeof handler>)({
        request,
        url,
        path: url.pathname.replace(/\/+$/, '') || '/',
        params: match.params,
        executor,
        services,
        correlationId,
        // Only the token grant reads it (its failed-authentication limits).
        get remoteAddress() {
          return options.addressOf(request, serverContext);
        },
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
      return unexpectedErrorResponse(match.route.family, err, { correlationId, method: request.method, url: request.url });
    }
  }

  const run = serverPipeline(options.plugins, handle);

  return {
    async node(req, res) {
      // As the fetch adapter builds the URL: the Host header (checked by the node:http layer), else localhost.
      const base = `http://${req.headers.host || 'localhost'}`;
      const target = req.url ?? '/';
      const url = parsedTarget(req, base);
      const body = (req as IncomingMessage & { body?: Buffer }).body;
      const request =
        req.method === 'GET' || req.method === 'HEAD'
          ? (new NodeRequest(req, res, base + target) as unknown as Request)
          : fetchRequestOf(req, res, url.href, body);
      let response: Response;
      try {
        response = await run(request, url, { req, res });
      } catch (err) {
        // A plugin's hook failed (the adapter would let it escape to node:http): the route's own 500.
        services.log('error', 'request failed in an HTTP plugin', { error: err instanceof Error ? err.stack : String(err) });
        const family = matchRoute(url.pathname)?.route.family ?? 'dcsa';
        response = unexpectedErrorResponse(family, err, { correlationId: '', method: request.method, url: request.url });
      }
      // The adapter's writer, with its default of one writeHead call when the headers allow it.
      await sendNodeResponse(response, res, req, true);
    },
    fetch(request, serverContext = {}) {
      return run(request, new URL(request.url), serverContext);
    },
  };
}

/** Whether a request target's path belongs to a REST handler of the route table. */
export function isRestTarget(target: string): boolean {
  const query = target.indexOf('?');
  return matchRoute(query < 0 ? target : target.slice(0, query))?.route.handler !== undefined;
}
