import { DCSA } from '../service/errors.js';
import { handleCarrierNotification, isCarrierNotificationRoute } from './carrier-notifications-handler.js';
import { DcsaResponder } from '../service/dcsa-responses.js';
import { handleOperatorIngest, OPERATOR_INGEST_PATH } from './operator-ingest-handler.js';
import type { AppServices } from '../graphql/context.js';

/**
 * The ways carrier events come in over HTTP (README "Carrier onboarding"):
 * DCSA notifications pushed by carriers, and bundles posted by operators.
 * Both write through ingestBundle, not through GraphQL: there is no GraphQL
 * field that ingests, and the data they write is read back by the lookup's
 * one path.
 */
export function isCarrierRoute(path: string): boolean {
  return path === OPERATOR_INGEST_PATH || isCarrierNotificationRoute(path);
}

export async function handleCarrierRoutes(
  request: Request,
  url: URL,
  path: string,
  services: AppServices,
  correlationId: string,
): Promise<Response> {
  try {
    return path === OPERATOR_INGEST_PATH
      ? await handleOperatorIngest(request, services, correlationId)
      : await handleCarrierNotification(request, url, services, correlationId);
  } catch (err) {
    // A failure before anything was written (the database did not answer a read): the route's own body, never a stack.
    services.log('error', 'request failed', { correlationId, error: err instanceof Error ? err.stack : String(err) });
    const respond = new DcsaResponder(request, services, correlationId);
    if (request.method === 'HEAD') return new Response(null, { status: 500 });
    return respond.fail(500, [
      { ...DCSA.internalError, errorCodeMessage: 'Unexpected error; nothing was stored. Quote providerCorrelationReference.' },
    ]);
  }
}
