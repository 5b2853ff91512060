import { DCSA } from '../errors/errors.js';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import type { RouteRequest } from './route-request.js';

/**
 * The ways carrier events come in over HTTP (docs/carriers.md "Carrier onboarding"):
 * DCSA notifications pushed by carriers, and bundles posted by operators.
 * Both write through ingestBundle, not through GraphQL: there is no GraphQL
 * field that ingests, and the data they write is read back by the lookup's
 * one path. A failure before anything was written is the route's own
 * error body, which says nothing was stored: 503 with Retry-After when the
 * database did not answer a read (down, not ready, a Galera node joining),
 * else 500.
 */
export function carrierRoute(handler: (route: RouteRequest) => Promise<Response>) {
  return async (route: RouteRequest): Promise<Response> => {
    const { request, services, correlationId } = route;
    try {
      return await handler(route);
    } catch (err) {
      const respond = new DcsaResponder(request, services, correlationId);
      if (isDatabaseUnavailable(err)) {
        services.log('warn', 'request failed: database unavailable', { correlationId, error: String(err) });
        if (request.method === 'HEAD') return new Response(null, { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
        return respond.unavailable('The database is unavailable; nothing was stored. Retry later.');
      }
      services.log('error', 'request failed', { correlationId, error: err instanceof Error ? err.stack : String(err) });
      if (request.method === 'HEAD') return new Response(null, { status: 500 });
      return respond.fail(500, [
        { ...DCSA.internalError, errorCodeMessage: 'Unexpected error; nothing was stored. Quote providerCorrelationReference.' },
      ]);
    }
  };
}
