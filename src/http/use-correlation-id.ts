import { performance } from 'node:perf_hooks';
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { ServerAdapterPlugin } from '@whatwg-node/server';
import type { Plugin } from 'graphql-yoga';
import { correlationIdFor, currentRequest, runInRequest } from '../observability/request-context.js';

/**
 * One correlation id per request (request-context.ts): taken from the
 * caller's X-Request-ID or traceparent, else new; handled in its
 * AsyncLocalStorage so every log line of the request carries it; returned in
 * `X-Request-ID` and `X-Correlation-ID` on every response and in
 * `extensions.correlationId` of every GraphQL error (useCorrelationIdInErrors).
 * The REST error bodies carry it as providerCorrelationReference. A plugin of
 * both HTTP pipelines (the REST server and Yoga).
 */
export function useCorrelationId(): ServerAdapterPlugin {
  return {
    instrumentation: {
      // Wraps the whole handling, onRequest to onResponse, so the context holds for every hook.
      request({ request }, handle) {
        return runInRequest({ correlationId: correlationIdFor(request.headers), startedAt: performance.now() }, handle);
      },
    },
    onRequest({ url }) {
      const request = currentRequest();
      // Parsed once here for the access log (the URL parsed for routing is handed to every hook).
      if (request) request.path = url.pathname;
    },
    onResponse({ response }) {
      const request = currentRequest();
      if (!request) return;
      response.headers.set('X-Request-ID', request.correlationId);
      // README documents X-Correlation-ID (the REST error bodies' reference); kept beside the common name.
      response.headers.set('X-Correlation-ID', request.correlationId);
    },
  };
}

/** On /graphql, every GraphQL error carries the correlation id in `extensions.correlationId`. */
export function useCorrelationIdInErrors(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      // Streams (subscriptions, @defer) carry their errors in their parts; batches are off.
      if (Array.isArray(result) || !('errors' in result)) return;
      const correlated = correlatedErrors(result as ExecutionResult);
      if (correlated !== result) setResult(correlated);
    },
  };
}

/**
 * The result with the request's correlation id in every error's extensions (the result itself when it has no
 * error or no request is current): useCorrelationIdInErrors, and the prepared persisted path (persisted-server.ts).
 */
export function correlatedErrors(result: ExecutionResult): ExecutionResult {
  const correlationId = currentRequest()?.correlationId;
  if (!correlationId || !result.errors?.length) return result;
  return withCorrelationId(result, correlationId);
}

/**
 * Copies, never mutates: Yoga caches validation errors per document, so the
 * same error object answers many requests.
 */
function withCorrelationId(result: ExecutionResult, correlationId: string): ExecutionResult {
  return {
    ...result,
    errors: result.errors?.map(
      (error) =>
        new GraphQLError(error.message, {
          nodes: error.nodes,
          source: error.source,
          positions: error.positions,
          path: error.path,
          originalError: error.originalError,
          extensions: { ...error.extensions, correlationId },
        }),
    ),
  };
}
