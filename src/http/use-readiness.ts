import type { Plugin } from 'graphql-yoga';
import { pingDatabase, type Database } from '../db/connect.js';
import { DEADLINE_CODE, deadlineError, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { VERSION } from '../domain/release.js';

/**
 * A load balancer's probe must get an answer within its own timeout, even
 * from a database that accepts connections but does not answer: past this,
 * the database counts as down.
 */
export const READY_TIMEOUT_MS = 1000;

/** GET /ready: the release's version (docs/upgrading.md: a load balancer's operator sees which one answers); 200 when the database answers within READY_TIMEOUT_MS, 503 otherwise (liveness is Yoga's /health). */
export function useReadiness(database: Database): Plugin {
  return {
    async onRequest({ url, endResponse }) {
      if (url.pathname !== '/ready') return;
      try {
        await withDeadline(pingDatabase(database), READY_TIMEOUT_MS);
        endResponse(jsonResponse({ status: 'ready', version: VERSION, database: database.dialect }, 200, { 'Cache-Control': 'no-store' }));
      } catch {
        endResponse(
          jsonResponse({ status: 'unavailable', version: VERSION, database: database.dialect }, 503, {
            'Cache-Control': 'no-store',
            'Retry-After': String(RETRY_AFTER_SECONDS),
          }),
        );
      }
    },
  };
}

/** The promise, or a deadline error after `ms` (the query itself ends at the pool's statement deadline). */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(deadlineError(DEADLINE_CODE, `no answer within ${ms} ms`)), ms);
  });
  promise.catch(() => {});
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
