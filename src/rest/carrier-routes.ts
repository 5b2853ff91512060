import type { AppServices } from '../graphql/context.js';
import { handleCarrierNotification, isCarrierNotificationRoute } from './carrier-notifications-handler.js';
import { handleOperatorIngest, OPERATOR_INGEST_PATH } from './operator-ingest-handler.js';

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

export function handleCarrierRoutes(request: Request, url: URL, path: string, services: AppServices, correlationId: string): Promise<Response> {
  return path === OPERATOR_INGEST_PATH
    ? handleOperatorIngest(request, services, correlationId)
    : handleCarrierNotification(request, url, services, correlationId);
}
