import { dcsaErrorBody } from './error-body.js';
import { DCSA } from './errors.js';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { API_VERSION_HEADER, tntErrorBody, tntErrorOf } from './tnt-responses.js';

/**
 * Each route family has its own error body (docs/architecture.md, Limits and failure: every 5xx is
 * the route's own error body with the correlation id):
 * - `token`: RFC 6749 section 5.2 `{error, error_description}` (POST /oauth/token);
 * - `graphql`: a GraphQL response `{errors: [{message, extensions: {code, correlationId}}]}`;
 * - `dcsa`: the DCSA error body of the REST routes, also used for paths of
 *   no route (the service's generic error shape);
 * - `dcsa-tnt`: the DCSA Track & Trace 2.2 error body of /v2/events and
 *   /v2/event-subscriptions (src/errors/tnt-responses.ts).
 * Used where an answer is made outside a route's own handler: the HTTP edge
 * (http-server.ts: bad request targets, body limits, shutdown) and the
 * REST plugin's safety net (use-rest-api.ts). Each route's family is in the route
 * table (src/rest/route-table.ts).
 */
export type RouteFamily = 'token' | 'graphql' | 'dcsa' | 'dcsa-tnt';

export interface RouteError {
  status: number;
  /** Human-readable; never a driver message or a stack. */
  message: string;
  correlationId: string;
  /** What the DCSA body names as httpMethod and requestUri. */
  method: string;
  url: string;
  headers?: Record<string, string>;
}

const GRAPHQL_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

const OAUTH_CODES: Record<number, string> = {
  500: 'server_error',
  503: 'temporarily_unavailable',
};

export function routeErrorResponse(family: RouteFamily, e: RouteError): Response {
  const headers = { 'Cache-Control': 'no-store', 'X-Correlation-ID': e.correlationId, 'X-Request-ID': e.correlationId, ...e.headers };
  if (family === 'token') {
    const error = OAUTH_CODES[e.status] ?? 'invalid_request';
    return jsonResponse({ error, error_description: e.message }, e.status, { ...headers, Pragma: 'no-cache' });
  }
  if (family === 'graphql') {
    const code = GRAPHQL_CODES[e.status] ?? (e.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
    return jsonResponse({ errors: [{ message: e.message, extensions: { code, correlationId: e.correlationId } }] }, e.status, headers);
  }
  if (family === 'dcsa-tnt') {
    const reason = e.status >= 500 ? (e.status === 503 ? DCSA.serviceUnavailable : DCSA.internalError) : DCSA.invalidQuery;
    const body = tntErrorBody(
      { method: e.method, url: e.url },
      e.status,
      e.correlationId,
      [tntErrorOf({ ...reason, errorCodeMessage: e.message })],
      new Date(),
    );
    return jsonResponse(body, e.status, { ...headers, ...API_VERSION_HEADER });
  }
  const technical = e.status >= 500 ? (e.status === 503 ? DCSA.serviceUnavailable : DCSA.internalError) : DCSA.invalidQuery;
  const body = dcsaErrorBody(
    { method: e.method, url: e.url },
    e.status,
    e.correlationId,
    [{ ...technical, errorCodeMessage: e.message }],
    new Date(),
  );
  return jsonResponse(body, e.status, headers);
}

/**
 * The answer to an error no handler expected: 503 with Retry-After when the
 * database is down or too slow, else 500; the message is generic and the
 * caller logs the cause under the correlation id.
 */
export function unexpectedErrorResponse(family: RouteFamily, err: unknown, e: Omit<RouteError, 'status' | 'message'>): Response {
  if (isDatabaseUnavailable(err)) {
    return routeErrorResponse(family, {
      ...e,
      status: 503,
      message: 'The service is temporarily unavailable; retry later.',
      headers: { ...e.headers, 'Retry-After': String(RETRY_AFTER_SECONDS) },
    });
  }
  return routeErrorResponse(family, { ...e, status: 500, message: 'Unexpected error; quote the correlation id.' });
}
