import { createHash, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Response } from '@whatwg-node/fetch';
import { createCounter, createHistogram, usePrometheus, type FillLabelsFnParams } from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';
import { Registry } from 'prom-client';
import { httpRequestDuration, httpRequests, methodLabel, processRegistry, routeLabel, startProcessMetrics } from '../service/metrics.js';

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
 * and status, with their latency; GraphQL operations through
 * @graphql-yoga/plugin-prometheus, labelled by operation type and a bounded
 * operation name only (no document text, no paths); and `GET /metrics`.
 */
export function useMetrics(options: UseMetricsOptions): Plugin {
  startProcessMetrics();
  const scrape = metricsEndpoint(options.appRegistry, options.token);
  const started = new WeakMap<Request, { at: number; route: string }>();
  const operationLabels = boundedOperationLabels();
  const labels = (params: FillLabelsFnParams) => operationLabels(params.operationType, params.operationName);

  return {
    onPluginInit({ addPlugin }) {
      addPlugin(
        usePrometheus({
          registry: processRegistry,
          // Served below, with the token check and the app registry.
          endpoint: false,
          labels: { operationName: true, operationType: true, phase: true, path: false, fieldName: false, typeName: false },
          metrics: {
            graphql_envelop_request: createCounter({
              registry: processRegistry,
              counter: {
                name: 'graphql_envelop_request',
                help: 'GraphQL operations executed, by operation type and name',
                labelNames: ['operationType', 'operationName'],
              },
              fillLabelsFn: labels,
            }),
            graphql_envelop_request_duration: createHistogram({
              registry: processRegistry,
              histogram: {
                name: 'graphql_envelop_request_duration',
                help: 'Seconds from parse to the end of execution of a GraphQL operation, by operation type and name',
                labelNames: ['operationType', 'operationName'],
                buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
              },
              fillLabelsFn: labels,
            }),
            graphql_envelop_error_result: createCounter({
              registry: processRegistry,
              counter: {
                name: 'graphql_envelop_error_result',
                help: 'GraphQL errors in results, by operation type and name and the phase that raised them',
                labelNames: ['operationType', 'operationName', 'phase'],
              },
              fillLabelsFn: (params) => ({ ...labels(params), phase: params.errorPhase ?? 'unknown' }),
            }),
            // Off: per-phase timings and the summary cost more than they tell here; the Yoga
            // HTTP histogram labels the full URL (unbounded); tt_http_* covers HTTP.
            graphql_envelop_request_time_summary: false,
            graphql_envelop_phase_parse: false,
            graphql_envelop_phase_validate: false,
            graphql_envelop_phase_context: false,
            graphql_envelop_phase_execute: false,
            graphql_envelop_phase_subscribe: false,
            graphql_envelop_deprecated_field: false,
            graphql_envelop_schema_change: false,
            graphql_envelop_execute_resolver: false,
            graphql_yoga_http_duration: false,
          },
        }),
      );
    },
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

/** At most this many distinct operation names become series; later new names count as `other`. */
export const MAX_OPERATION_NAMES = 100;

/**
 * Operation names are chosen by callers, so a careless or hostile client
 * could mint a series per request. The first MAX_OPERATION_NAMES names are
 * kept (the service's own REST documents and its clients' named operations),
 * the rest are `other`.
 */
function boundedOperationLabels(): (
  type: string | undefined,
  name: string | undefined,
) => Record<'operationType' | 'operationName', string> {
  const seen = new Set<string>();
  return (type, name) => {
    let operationName = name ? name.slice(0, 64) : 'anonymous';
    if (name && !seen.has(operationName)) {
      if (seen.size < MAX_OPERATION_NAMES) seen.add(operationName);
      else operationName = 'other';
    }
    return { operationType: type ?? 'unknown', operationName };
  };
}
