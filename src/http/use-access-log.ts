import { performance } from 'node:perf_hooks';
import type { ServerAdapterPlugin } from '@whatwg-node/server';
import type { Logger, WrittenLevel } from '../observability/logger.js';
import { currentRequest } from '../observability/request-context.js';

/** Probes and scrapes come every few seconds: logged at debug when they succeed. */
const PROBES = new Set(['/health', '/ready', '/metrics']);

/** Long paths are cut: a log line must not grow with what a caller sends. */
const MAX_LOGGED_PATH = 200;

/**
 * One access-log line per request: method, path (no query string: lookup
 * parameters and GraphQL stay out of the logs), status, duration, the API
 * client when one was authenticated, and the correlation id (from the
 * request context, see use-correlation-id.ts). Headers are never logged, so
 * neither are tokens nor credentials.
 *
 * Levels: success at info; a refused request (4xx) at debug, so that an
 * anonymous flood of bad requests does not grow the logs at info; a 5xx at
 * warn (its cause is logged at error under the same correlation id).
 */
export function useAccessLog(logger: Logger): ServerAdapterPlugin {
  return {
    onResponse({ request, response }) {
      const status = response.status;
      const info = currentRequest();
      const path = info?.path ?? new URL(request.url).pathname;
      const level: WrittenLevel = status >= 500 ? 'warn' : status >= 400 ? 'debug' : PROBES.has(path) ? 'debug' : 'info';
      if (!logger.isEnabled(level)) return;
      logger.log(level, 'request', {
        method: request.method,
        route: path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path,
        status,
        durationMs: info ? Math.round((performance.now() - info.startedAt) * 10) / 10 : undefined,
        ...(info?.clientId ? { clientId: info.clientId } : {}),
      });
    },
  };
}
