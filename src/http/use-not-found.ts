import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { AppServices } from '../graphql/context.js';
import { matchRoute } from '../rest/route-table.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import { DCSA } from '../errors/errors.js';
import { currentRequest } from '../observability/request-context.js';

/**
 * A path of no route (src/rest/route-table.ts) answers 404 with the DCSA error body and the correlation id,
 * like every other error, instead of Yoga's empty 404. Mounted after every plugin that answers paths of its
 * own (GraphiQL assets, /internal/stats), which end the response before this one runs.
 */
export function useNotFound(services: AppServices): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (matchRoute(url.pathname)) return;
      const correlationId = currentRequest()?.correlationId ?? randomUUID();
      if (request.method === 'HEAD') {
        endResponse(new Response(null, { status: 404, headers: { 'X-Correlation-ID': correlationId } }));
        return;
      }
      const respond = new DcsaResponder(request, services, correlationId, 'The requested resource was not found.');
      const response = respond.fail(404, [
        { ...DCSA.notFound, errorCodeMessage: 'No resource at this path; the REST routes are listed in /openapi.json.' },
      ]);
      response.headers.set('X-Correlation-ID', correlationId);
      endResponse(response);
    },
  };
}
