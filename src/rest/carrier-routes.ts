import { DCSA } from '../service/errors.js';
import { DcsaResponder } from '../service/dcsa-responses.js';
import type { RouteRequest } from './route-request.js';

/**
 * The ways carrier events come in over HTTP (docs/carriers.md "Carrier onboarding"):
 * DCSA notifications pushed by carriers, and bundles posted by operators.
 * Both write through ingestBundle, not through GraphQL: there is no GraphQL
 * field that ingests, and the data they write is read back by the lookup's
 * one path. A failure before anything was written (the database did not
 * answer a read) is the route's own 500, which says nothing was stored.
 */
export function carrierRoute(handler: (route: RouteRequest) => Promise<Response>) {
  return async (route: RouteRequest): Promise<Response> => {
    const { request, services, correlationId } = route;
    try {
      return await handler(route);
    } catch (err) {
      services.log('error', 'request failed', { correlationId, error: err instanceof Error ? err.stack : String(err) });
      const respond = new DcsaResponder(request, services, correlationId);
      if (request.method === 'HEAD') return new Response(null, { status: 500 });
      return respond.fail(500, [
        { ...DCSA.internalError, errorCodeMessage: 'Unexpected error; nothing was stored. Quote providerCorrelationReference.' },
      ]);
    }
  };
}
