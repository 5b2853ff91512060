import { createHash, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Response } from '@whatwg-node/fetch';
import type { ServerAdapterPlugin } from '@whatwg-node/server';
import type { Plugin } from 'graphql-yoga';
import { Registry } from 'prom-client';
import { routeLabel } from '../rest/route-table.js';
import { httpRequestDuration, httpRequests, methodLabel, processRegistry, startProcessMetrics } from '../observability/metrics.js';

export interface UseMetricsOptions {
  /** The app's own registry (createDatabaseMetrics), served with the process registry. */
  appRegistry: Registry;
  /** TT_METRICS_TOKEN: the bearer token /metrics requires. */
  token?: string;
}

/**
 * HTTP request metrics (README: Metrics): requests by method, templated route
 * (src/rest/route-table.ts) and status, with their latency. A plugin of both
 * HTTP pipelines (the REST server and Yoga). GraphQL operations are counted by
 * the executor (src/executor/use-operation-metrics.ts).
 */
export function useHttpMetrics(): ServerAdapterPlugin {
  startProcessMetrics();
  const started = new WeakMap<Request, { at: number; route: string }>();
  return {
    onRequest({ request, url }) {
      started.set(request, { at: performance.now(), route: routeLabel(url.pathname) });
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

/** `GET /metrics` on the app (unless TT_METRICS_PORT serves it on a listener of its own). */
export function useMetricsEndpoint(options: UseMetricsOptions): Plugin {
  const scrape = metricsEndpoint(options.appRegistry, options.token);
  return {
    onRequest({ request, url, endResponse }) {
      // Returning the promise only for /metrics keeps every other request on the synchronous path.
      if (url.pathname === '/metrics') return scrape(request).then(endResponse);
      return undefined;
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
