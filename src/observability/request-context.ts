import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What the service knows about the request being handled, kept in an
 * AsyncLocalStorage for the request's whole async call tree (set by
 * useCorrelationId). Log lines written while a request is handled carry its
 * correlation id without every call site passing it, including the lines
 * Yoga writes itself (the masked cause of a 500, for example).
 */
export interface RequestInfo {
  /** X-Request-ID / X-Correlation-ID of the response, providerCorrelationReference, GraphQL extensions.correlationId. */
  correlationId: string;
  /** performance.now() when the request arrived. */
  startedAt: number;
  /** The URL path, without query string (set when the request's hooks start). */
  path?: string;
  /** The API client, once a bearer token or client credentials were verified (access log). */
  clientId?: string;
}

const storage = new AsyncLocalStorage<RequestInfo>();

/** The request being handled, or undefined outside a request (start-up, timers, CLI). */
export function currentRequest(): RequestInfo | undefined {
  return storage.getStore();
}

/** Runs `fn` as the handling of the request described by `info`. */
export function runInRequest<T>(info: RequestInfo, fn: () => T): T {
  return storage.run(info, fn);
}

/** A caller's own request id is accepted only when it cannot forge log content or headers. */
/** What a caller's X-Request-ID may be to be echoed (also the OpenAPI pattern of a correlation id). */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header):
 * version-traceid-parentid-flags, lower-case hex. A future version may append
 * fields; version ff is invalid, as are all-zero ids.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The trace id of a valid `traceparent`, else undefined. */
export function traceIdOf(traceparent: string | null): string | undefined {
  const match = traceparent ? TRACEPARENT.exec(traceparent.trim()) : null;
  if (!match) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId ?? '') || /^0+$/.test(parentId ?? '')) return undefined;
  return traceId;
}

/**
 * The correlation id of a request: the caller's `X-Request-ID` when it is a
 * safe token, else the trace id of its `traceparent` (so logs join the
 * caller's trace), else a new UUID.
 */
export function correlationIdFor(headers: Headers): string {
  const requestId = headers.get('x-request-id')?.trim();
  if (requestId && SAFE_REQUEST_ID.test(requestId)) return requestId;
  return traceIdOf(headers.get('traceparent')) ?? randomUUID();
}
