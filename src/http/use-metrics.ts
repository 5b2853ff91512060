import { createHash, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Response } from '@whatwg-node/fetch';
import type { Plugin } from 'graphql-yoga';
import { Registry } from 'prom-client';
import { routeLabel } from '../rest/route-table.js';
import { httpRequestDuration, httpRequests, methodLabel, processRegistry, startProcessMetrics } from '../service/metrics.js';

export interface UseMetricsOptions {
  /** The app's own registry (createDatabaseMetrics), served with the process registry. */
  appRegistry: Registry;
  /** Answer `GET /metrics` on this app. False when TT_METRICS_PORT serves it on a listener of its own. */
  serveEndpoint: boolean;
  /** TT_METRICS_TOKEN: the bearer token /metrics requires. */
  token?: string;
}

/**
 * Prometheus metrics of the HTTP app: requests by method, templated route
 * and status, with their latency, and `GET /metrics`. GraphQL operations
 * are counted by the executor (src/executor/use-operation-metrics.ts), so
 * REST's documents and /graphql's alike.
 */
export function useMetrics(options: UseMetricsOptions): Plugin {
  startProcessMetrics();
  const scrape = metricsEndpoint(options.appRegistry, options.token);
  const started = new WeakMap<Request, { at: number; route: string }>();

  return {
    onRequest({ request, url, endResponse }) {
      const path = url.pathname;
      started.set(request, { at: performance.now(), route: routeLabel(path) });
      // Returning the promise only for /metrics keeps every other request on the synchronous path.
      if (options.serveEndpoint && path === '/metrics') return scrape(request).then(endResponse);
      return undefined;
    },
    onResponse({ request, response }) {
      const start = started.get(request);
      if (start === undefined) return;
      const labelValues = { method: methodLabel(request.method), route: start.route, status: String(response.status) };
      httpRequests.inc(labelValues);
      httpRequestDuration.observe(labelValues, (performance.now() - start.at) / 1000);
    },
  };
}

/**
 * `GET /metrics`: the Prometheus text format of the process and app
 * registries; with a token, only for `Authorization: Bearer <token>`.
 * Shared by the app route and serve's separate metrics listener.
 */
export function metricsEndpoint(appRegistry: Registry, token: string | undefined): (request: Request) => Promise<Response> {
  const expected = token === undefined ? undefined : digest(token);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('use GET\n', { status: 405, headers: { Allow: 'GET, HEAD' } });
    }
    if (expected) {
      const match = /^Bearer +(\S+)$/i.exec(request.headers.get('authorization') ?? '');
      // Digests of equal length, so the comparison time says nothing about the token.
      if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
        return new Response('a bearer token is required (TT_METRICS_TOKEN)\n', {
          status: 401,
          headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
        });
      }
    }
    const registry = Registry.merge([processRegistry, appRegistry]);
    return new Response(await registry.metrics(), {
      status: 200,
      headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
    });
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
