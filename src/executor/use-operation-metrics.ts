import { createCounter, createHistogram, usePrometheus, type FillLabelsFnParams } from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';
import { processRegistry } from '../observability/metrics.js';

/**
 * GraphQL operations in the service's metrics (README: Metrics), through @graphql-yoga/plugin-prometheus:
 * counted where they execute, so the REST routes' fixed documents (RestShipmentLookup, ...) and /graphql's
 * operations alike, labelled by operation type and a bounded operation name only (no document text, no paths).
 */
export function useOperationMetrics(): Plugin {
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
  };
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
