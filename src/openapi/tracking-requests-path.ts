import { READ_SCOPE, TRACK_SCOPE } from '../auth/scopes.js';
import { headersOf, type HeaderName } from './components.js';
import { jsonResponse } from './responses.js';
import { componentRef, type JsonSchema } from './rest-schemas.js';

/** The tracking request routes, as src/rest/tracking-requests-handler.ts serves them (docs/tracking-requests.md). */

export const TRACKING_SCOPES = { [TRACK_SCOPE]: `Start tracking references with carriers (with ${READ_SCOPE}).` };

const SECURITY = [{ clientCredentials: [TRACK_SCOPE] }, { bearerToken: [] }];
const ID = {
  name: 'trackingRequestID',
  in: 'path',
  required: true,
  description: "The tracking request (yours: another client's is 404).",
  schema: { type: 'string' },
};
const NOT_FOUND = 'errorCode 8005: no such tracking request of yours.';

function errors(operation: string, allow: string, extra: Record<number, string> = {}): Record<number, JsonSchema> {
  const error = (status: number, description: string, headers: HeaderName[] = ['CorrelationId']) =>
    jsonResponse(operation, status, description, 'Error', headers);
  const responses: Record<number, JsonSchema> = {
    401: error(401, 'errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client.', [
      'CorrelationId',
      'BearerChallenge',
    ]),
    403: error(403, `errorCode 7002: a token without the ${TRACK_SCOPE} scope (an operator grants it per client).`, [
      'CorrelationId',
      'BearerChallenge',
    ]),
    405: error(405, `errorCode 8003: a method other than ${allow}.`, ['CorrelationId', 'AllowMethods']),
    500: error(500, 'errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference).'),
    503: error(503, 'errorCode 7003: the database is down or too slow; retry after Retry-After seconds.', ['CorrelationId', 'RetryAfter']),
  };
  for (const [status, description] of Object.entries(extra)) responses[Number(status)] = error(Number(status), description);
  return responses;
}

export function trackingRequestsPaths(): Record<string, JsonSchema> {
  const tags = ['Tracking requests'];
  return {
    '/v2/tracking-requests': {
      post: {
        tags,
        operationId: 'createTrackingRequest',
        summary: 'Track a reference',
        description:
          "The service asks the carrier's DCSA events endpoint for the reference and follows it: PENDING, then TRACKING once " +
          'the carrier has events (the shipment is then served to your accounts: GET /v2/shipments), or ' +
          'AWAITING_CARRIER_DATA and, after the give-up time, FAILED. Asking again for a reference you track returns your ' +
          'request (200) instead of a second one.',
        security: SECURITY,
        requestBody: { required: true, content: { 'application/json': { schema: componentRef('TrackingRequestInput') } } },
        responses: {
          201: {
            ...jsonResponse('POST /v2/tracking-requests', 201, 'Tracking.', 'TrackingRequest', ['NoStore']),
            headers: headersOf(['NoStore', 'TrackingRequestLocation']),
          },
          200: {
            ...jsonResponse('POST /v2/tracking-requests', 200, 'Your active request for this reference.', 'TrackingRequest', ['NoStore']),
            headers: headersOf(['NoStore', 'TrackingRequestLocation']),
          },
          ...errors('POST /v2/tracking-requests', 'GET, POST', {
            400:
              'errorCode 8004: a malformed or missing reference (named in `property`), an unknown field, a carrier that is ' +
              'not configured, a prefix that names no carrier or several (the candidates named), or the per-client limit reached.',
            413: 'errorCode 8004: a body over 4 KiB.',
            415: 'errorCode 8004: a body that is not application/json.',
          }),
        },
      },
      get: {
        tags,
        operationId: 'listTrackingRequests',
        summary: 'Your tracking requests',
        description: 'The tracking requests of your client, oldest first, a page at a time (Next-Page-Cursor), stopped ones included.',
        security: SECURITY,
        parameters: [
          {
            name: 'limit',
            in: 'query',
            description: 'At most this many, 1 to 500; default 100.',
            schema: { type: 'integer', minimum: 1, maximum: 500 },
          },
          { name: 'cursor', in: 'query', description: 'The Next-Page-Cursor of the previous page.', schema: { type: 'string' } },
        ],
        responses: {
          200: {
            ...jsonResponse('GET /v2/tracking-requests', 200, 'A page of your requests, oldest first.', 'TrackingRequestList', ['NoStore']),
            headers: headersOf(['NoStore', 'NextPageCursor']),
          },
          ...errors('GET /v2/tracking-requests', 'GET, POST', { 400: 'errorCode 8004: a bad limit or cursor, or an unknown parameter.' }),
        },
      },
    },
    '/v2/tracking-requests/{trackingRequestID}': {
      parameters: [ID],
      get: {
        tags,
        operationId: 'getTrackingRequest',
        summary: 'One tracking request',
        description: "Its status, the shipment once found and when the carrier is asked next; another client's request is 404.",
        security: SECURITY,
        responses: {
          200: jsonResponse('GET /v2/tracking-requests/{trackingRequestID}', 200, 'The request.', 'TrackingRequest', ['NoStore']),
          ...errors('GET /v2/tracking-requests/{trackingRequestID}', 'GET, DELETE', { 404: NOT_FOUND }),
        },
      },
      delete: {
        tags,
        operationId: 'stopTrackingRequest',
        summary: 'Stop tracking',
        description: 'The request turns STOPPED (stopReason DELETED); the shipment stays visible to your accounts.',
        security: SECURITY,
        responses: {
          204: { description: 'Stopped.', headers: headersOf([]) },
          ...errors('DELETE /v2/tracking-requests/{trackingRequestID}', 'GET, DELETE', { 404: NOT_FOUND }),
        },
      },
    },
  };
}
