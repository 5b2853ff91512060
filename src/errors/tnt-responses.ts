import type { GraphQLError } from 'graphql';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { DCSA, STATUS_BY_CODE, readErrorCode, serviceUnavailableError, type DetailedError } from './errors.js';
import { jsonResponse } from '../http-messages/json-response.js';
import type { Log } from '../observability/logger.js';

/**
 * Error answers of the DCSA Track & Trace 2.2 routes (/v2/events, /v2/event-subscriptions): the standard's own
 * error schema (`errors[]` of `reason` and `message`), which differs from the ERROR_DOMAIN 4.0 body of
 * /v2/shipments, plus the request's correlation id; every answer of these routes carries `API-Version`.
 */

/** The API-Version header of every answer of the DCSA 2.2 routes (the standard's SemVer). */
export const DCSA_TNT_API_VERSION = '2.2.0';
export const API_VERSION_HEADER = { 'API-Version': DCSA_TNT_API_VERSION };

export interface TntError {
  /** High level: invalidQuery, invalidParameter, notFound, unauthorized, forbidden, … */
  reason: string;
  message: string;
}

export interface TntErrorBody {
  httpMethod: string;
  requestUri: string;
  statusCode: number;
  statusCodeText: string;
  errorDateTime: string;
  errors: TntError[];
  /** Not in the 2.2 schema (its objects are open): the correlation id, as X-Correlation-ID. */
  providerCorrelationReference: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function tntErrorBody(
  request: Pick<Request, 'method' | 'url'>,
  status: number,
  correlationId: string,
  errors: TntError[],
  now: Date,
): TntErrorBody {
  let requestUri = '';
  try {
    const url = new URL(request.url);
    requestUri = url.pathname + url.search;
  } catch {
    // A request target the HTTP edge could not parse: no URI to repeat.
  }
  return {
    httpMethod: request.method,
    requestUri,
    statusCode: status,
    statusCodeText: STATUS_TEXT[status] ?? 'Error',
    errorDateTime: now.toISOString(),
    errors,
    providerCorrelationReference: correlationId,
  };
}

/** A detailed error of the service's error model (errors.ts) as a 2.2 error item. */
export function tntErrorOf(detail: Pick<DetailedError, 'errorCodeText' | 'errorCodeMessage'>): TntError {
  return { reason: detail.errorCodeText, message: detail.errorCodeMessage };
}

export class TntResponder {
  constructor(
    private readonly request: Request,
    private readonly services: { log: Log; now(): Date },
    private readonly correlationId: string,
  ) {}

  fail(status: number, errors: TntError[], headers: Record<string, string> = {}): Response {
    this.services.log('debug', 'request refused', { correlationId: this.correlationId, status, errors: errors.map((e) => e.message) });
    const body = tntErrorBody(this.request, status, this.correlationId, errors, this.services.now());
    return jsonResponse(body, status, { ...API_VERSION_HEADER, 'Cache-Control': 'no-store', ...headers });
  }

  invalid(message: string, reason: string = DCSA.invalidParameter.errorCodeText): Response {
    return this.fail(400, [{ reason, message }]);
  }

  /** The answer to an error of a fixed document's result (as DcsaResponder.resultError, in the 2.2 body). */
  resultError(given: GraphQLError): Response {
    const error = !readErrorCode(given) && isDatabaseUnavailable(given) ? serviceUnavailableError(RETRY_AFTER_SECONDS) : given;
    const code = readErrorCode(error);
    // A variable the document could not accept (a body field of the wrong type or name): the message says which.
    if (!code && !error.path && !error.originalError) return this.invalid(bodyProblem(error.message).slice(0, 300));
    if (!code || code === 'INTERNAL_SERVER_ERROR') {
      if (!error.extensions.unexpected) {
        this.services.log('error', 'request failed', {
          correlationId: this.correlationId,
          error: error.originalError?.stack ?? error.message,
        });
      }
      return this.fail(500, [
        { reason: DCSA.internalError.errorCodeText, message: 'Unexpected error; quote providerCorrelationReference.' },
      ]);
    }
    const details = (error.extensions.details as DetailedError[] | undefined) ?? [];
    const http = error.extensions.http as { headers?: Record<string, string> } | undefined;
    const errors = details.length > 0 ? details.map(tntErrorOf) : [{ reason: code, message: error.message }];
    return this.fail(STATUS_BY_CODE[code], errors, http?.headers ?? {});
  }
}

/**
 * A GraphQL variable error in the words of a REST body: `Variable "$request" got invalid value 5 at
 * "request.callbackUrl"; String cannot represent …` (graphql-js), or `Variable "$callbackUrl" got invalid value
 * 5; Expected type String; …` (compiled execution), is `body field callbackUrl: …`.
 */
function bodyProblem(message: string): string {
  const m = /^Variable "\$(\w+)" got invalid value [\s\S]*?(?: at "request\.([^"]+)")?; ([\s\S]*)$/.exec(message);
  if (!m) return message;
  const field = m[2] ?? (m[1] === 'request' ? undefined : m[1]);
  return `${field ? `body field ${field}` : 'body'}: ${m[3]}`;
}
