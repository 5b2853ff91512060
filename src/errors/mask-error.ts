import { maskError, type YogaServerOptions } from 'graphql-yoga';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { serviceUnavailableError } from './errors.js';

type MaskedErrorsOptions = Exclude<YogaServerOptions<object, object>['maskedErrors'], boolean | undefined>;

/**
 * Yoga's error masking, for /graphql and for the REST routes (their fixed
 * documents run through the same envelop, so the same masking): an
 * unexpected error becomes "Unexpected error." (500), one that says the
 * database is down or too slow becomes SERVICE_UNAVAILABLE (503 with
 * Retry-After). Yoga logs the original error, with its stack and the
 * request's correlation id, once, when it masks it; nothing of it leaves the
 * process.
 * @NOTE isDev is pinned to false: Yoga's default follows NODE_ENV and, in
 * development, copies the original error (message and stack) into the answer.
 */
export function serviceErrorMasking(): MaskedErrorsOptions & { maskError: typeof maskServiceError } {
  return { isDev: false, maskError: maskServiceError };
}

export function maskServiceError(error: unknown, message: string): Error {
  if (isDatabaseUnavailable(error)) return serviceUnavailableError(RETRY_AFTER_SECONDS);
  return maskError(error, message, false);
}
