import type { GraphQLError } from 'graphql';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { DCSA, STATUS_BY_CODE, readErrorCode, serviceUnavailableError, type DetailedError } from './errors.js';
import { dcsaErrorBody } from './error-body.js';
import { jsonResponse } from '../http-messages/json-response.js';
import type { Log } from '../observability/logger.js';

/**
 * Error answers of the DCSA-style REST routes (/v2/shipments,
 * /v2/subscriptions): the DCSA error body (spec's Error) with the request's
 * correlation id, and the mapping of a GraphQL result error to its status.
 */
export class DcsaResponder {
  constructor(
    private readonly request: Request,
    private readonly services: { log: Log; now(): Date },
    private readonly correlationId: string,
    /** What a 404 says was not found, e.g. "The requested shipment was not found." */
    private readonly notFoundMessage?: string,
    /** A prefix of GraphQL argument paths that REST callers do not see (e.g. `request.` for a JSON body). */
    private readonly hiddenPrefix?: string,
  ) {}

  /** `message` replaces the status's generic statusCodeMessage when the status alone would mislead (a 401 that is not about a token). */
  fail(status: number, errors: DetailedError[], headers: Record<string, string> = {}, message?: string): Response {
    // Debug: refusals are the caller's problem, and an anonymous flood must not grow the logs at info.
    this.services.log('debug', 'request refused', {
      correlationId: this.correlationId,
      status,
      errors: errors.map((e) => e.errorCodeMessage),
    });
    const statusMessage = message ?? (status === 404 ? this.notFoundMessage : undefined);
    const body = dcsaErrorBody(this.request, status, this.correlationId, errors, this.services.now(), statusMessage);
    return jsonResponse(body, status, headers);
  }

  /** 503 with Retry-After: the database is down, not ready, or contended past our retries; nothing was written. */
  unavailable(message: string): Response {
    return this.fail(503, [{ ...DCSA.serviceUnavailable, errorCodeMessage: message }], { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  }

  invalid(message: string, property?: string): Response {
    return this.fail(400, [
      { ...DCSA.invalidParameter, ...(property ? { property, jsonPath: `$.${property}` } : {}), errorCodeMessage: message },
    ]);
  }

  /**
   * The answer to an error of a fixed document's result: its code's status
   * and details; a variable the document could not accept (a JSON body of the
   * wrong shape) is 400; anything else is a 500 whose cause stays in the log.
   */
  resultError(given: GraphQLError): Response {
    // Errors that did not go through Yoga's masking (one a plugin set as the
    // result) are classified here the same way (src/errors/mask-error.ts).
    const error = !readErrorCode(given) && isDatabaseUnavailable(given) ? serviceUnavailableError(RETRY_AFTER_SECONDS) : given;
    const code = readErrorCode(error);
    if (!code && !error.path && !error.originalError) return this.invalid(error.message.slice(0, 300));
    if (!code || code === 'INTERNAL_SERVER_ERROR') {
      // A masked error was logged by Yoga, with its cause, when it was masked.
      if (!error.extensions.unexpected) {
        this.services.log('error', 'request failed', {
          correlationId: this.correlationId,
          error: error.originalError?.stack ?? error.message,
        });
      }
      return this.fail(500, [{ ...DCSA.internalError, errorCodeMessage: 'Unexpected error; quote providerCorrelationReference.' }]);
    }
    const details = ((error.extensions.details as DetailedError[] | undefined) ?? []).map((d) => this.#unprefixed(d));
    const http = error.extensions.http as { headers?: Record<string, string> } | undefined;
    return this.fail(STATUS_BY_CODE[code], details, http?.headers ?? {});
  }

  #unprefixed(detail: DetailedError): DetailedError {
    const prefix = this.hiddenPrefix;
    if (!prefix || !detail.property?.startsWith(prefix)) return detail;
    const property = detail.property.slice(prefix.length);
    const jsonPath = detail.jsonPath?.replace(`$.${prefix}`, '$.');
    return { ...detail, property, ...(jsonPath ? { jsonPath } : {}) };
  }
}
