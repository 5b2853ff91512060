import { GraphQLError } from 'graphql';

/**
 * Lookup errors carry a code that the REST layer maps to an HTTP status, and
 * DCSA detailed errors (ERROR_DOMAIN 4.0 `errors[]`) that it copies into the
 * error body. GraphQL clients see the same code and details in `extensions`.
 */

export type ErrorCode =
  'BAD_USER_INPUT' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'GONE' | 'INTERNAL_SERVER_ERROR' | 'SERVICE_UNAVAILABLE';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** One entry of the DCSA error body's `errors` array. */
export interface DetailedError {
  errorCode: number;
  property?: string;
  value?: string;
  jsonPath?: string;
  errorCodeText: string;
  errorCodeMessage: string;
}

/** DCSA functional codes used by the lookup (8xxx functional, 7xxx technical). */
export const DCSA = {
  invalidQuery: { errorCode: 8003, errorCodeText: 'invalidQuery' },
  invalidParameter: { errorCode: 8004, errorCodeText: 'invalidParameter' },
  notFound: { errorCode: 8005, errorCodeText: 'notFound' },
  unauthorized: { errorCode: 7001, errorCodeText: 'unauthorized' },
  forbidden: { errorCode: 7002, errorCodeText: 'forbidden' },
  internalError: { errorCode: 7000, errorCodeText: 'internalError' },
  serviceUnavailable: { errorCode: 7003, errorCodeText: 'serviceUnavailable' },
} as const;

export function lookupError(code: ErrorCode, message: string, details: DetailedError[], headers?: Record<string, string>): GraphQLError {
  return new GraphQLError(message, {
    extensions: {
      code,
      details,
      // Yoga sets the HTTP status of /graphql responses from extensions.http.
      http: { status: STATUS_BY_CODE[code], ...(headers ? { headers } : {}) },
    },
  });
}

export function readErrorCode(error: { extensions?: Record<string, unknown> }): ErrorCode | undefined {
  const code = error.extensions?.code;
  return typeof code === 'string' && code in STATUS_BY_CODE ? (code as ErrorCode) : undefined;
}

/**
 * The database is down or too slow (src/db/unavailable.ts): 503 with
 * Retry-After on /graphql and REST alike. The cause stays in the log.
 */
export function serviceUnavailableError(retryAfterSeconds: number): GraphQLError {
  const message = 'The service is temporarily unavailable; retry later.';
  return lookupError('SERVICE_UNAVAILABLE', message, [{ ...DCSA.serviceUnavailable, errorCodeMessage: message }], {
    'Retry-After': String(retryAfterSeconds),
  });
}
