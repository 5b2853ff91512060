import type { DetailedError } from './errors.js';

/**
 * The spec's Error schema: the DCSA error response (ERROR_DOMAIN 4.0). REST
 * returns it as the body of every lookup error; it is declared here so that
 * the one schema documents every shape the service returns.
 */
export interface ErrorBody {
  httpMethod: string;
  requestUri: string;
  statusCode: number;
  statusCodeText: string;
  statusCodeMessage: string;
  providerCorrelationReference: string;
  errorDateTime: string;
  errors: DetailedError[];
}

const STATUS_TEXT: Record<number, [string, string]> = {
  400: ['Bad Request', 'The supplied data could not be accepted.'],
  401: ['Unauthorized', 'A valid access token is required.'],
  403: ['Forbidden', 'The access token does not allow this request.'],
  404: ['Not Found', 'The requested shipment was not found.'],
  405: ['Method Not Allowed', 'The method is not allowed for this resource.'],
  409: ['Conflict', 'The request conflicts with the current state.'],
  413: ['Content Too Large', 'The request body is too large.'],
  415: ['Unsupported Media Type', 'The request body must be application/json.'],
  408: ['Request Timeout', 'The request was not received in time.'],
  429: ['Too Many Requests', "The client's quota is used up; retry after Retry-After seconds."],
  500: ['Internal Server Error', 'The service could not answer the request.'],
  503: ['Service Unavailable', 'The service is temporarily unavailable; retry after the time in Retry-After.'],
};

/** The DCSA error response (ERROR_DOMAIN 4.0) that is the body of every lookup error. */
export function dcsaErrorBody(
  /** The method and URL the body names (a Request, or what the HTTP edge knows of one). */
  request: Pick<Request, 'method' | 'url'>,
  status: number,
  correlationId: string,
  errors: DetailedError[],
  now: Date,
  /** Replaces the status's generic statusCodeMessage (e.g. what was not found). */
  message?: string,
): ErrorBody {
  let requestUri = '';
  try {
    const url = new URL(request.url);
    requestUri = url.pathname + url.search;
  } catch {
    // A request target we could not parse (http-server.ts answers those): no URI to repeat.
  }
  const [statusCodeText, genericMessage] = STATUS_TEXT[status] ?? ['Error', 'The request failed.'];
  const statusCodeMessage = message ?? genericMessage;
  return {
    httpMethod: request.method,
    requestUri,
    statusCode: status,
    statusCodeText,
    statusCodeMessage,
    providerCorrelationReference: correlationId,
    errorDateTime: now.toISOString(),
    errors,
  };
}
