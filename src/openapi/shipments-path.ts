import { headersOf } from './components.js';
import { READ_SCOPE } from '../auth/scopes.js';
import { jsonResponse } from './responses.js';
import type { JsonSchema } from './rest-schemas.js';

const OPERATION = 'GET /v2/shipments';

function parameter(name: string, description: string, schema: JsonSchema, example: string): JsonSchema {
  return { name, in: 'query', required: false, description, schema: { type: 'string', ...schema }, example };
}

/** GET /v2/shipments: the lookup, as src/rest/shipments-handler.ts serves it. */
export function shipmentsPath(): JsonSchema {
  return {
    get: {
      tags: ['Shipments'],
      operationId: 'lookUpShipment',
      summary: 'Look up a shipment by reference',
      description:
        'The current snapshot of one shipment, by (a) `carrierCode` + `carrierBookingReference`, (b) ' +
        '`billOfLadingNumber` or (c) `equipmentReference`, alone or with (a) or (b); combined parameters must all match ' +
        'one shipment. A container number is reused across shipments: `equipmentReference` alone answers, among the ' +
        "shipments of that container the client's account may see, the one where the container moved last.\n\n" +
        'Optional fields without a value are omitted; null appears only in the identifier fields that are always ' +
        'carried, `triggeredByEvent`, `latestEvent` of a container without events and the date keys of `references`. ' +
        'Poll at a cadence suited to the shipment; detect change by an `eventClassifierCode` turning `ACT` and by ' +
        '`exceptionID`, and de-duplicate on `transmissionID`. Authentication comes first: an unauthenticated request ' +
        'gets 401 even when its parameters are also invalid. Each client has a quota of lookups (docs/errors.md: Quotas and rate ' +
        'limits), told in the RateLimit headers of every answer to an authenticated request.',
      security: [{ clientCredentials: [READ_SCOPE] }, { bearerToken: [] }],
      parameters: [
        parameter(
          'carrierCode',
          'Carrier SCAC code; required with carrierBookingReference (a booking number is unique only within its carrier).',
          { pattern: '^[A-Z]{2,4}$' },
          'MAEU',
        ),
        parameter('carrierBookingReference', 'Carrier booking number.', { minLength: 1, maxLength: 35 }, '262150001'),
        parameter('billOfLadingNumber', 'Bill of lading number.', { minLength: 1, maxLength: 20 }, 'MAEU262150002'),
        parameter(
          'equipmentReference',
          'Container number: ISO 6346, with a valid check digit.',
          { pattern: '^[A-Z]{3}[UJZ][0-9]{7}$' },
          'MSKU1357908',
        ),
        {
          name: 'include',
          in: 'query',
          required: false,
          description:
            "Parts to add to the answer, comma-separated. `predictedArrival`: the service's own arrival estimate in " +
            '`shipmentTracking.predictedArrival` (docs/predicted-arrival.md). Without it the body and its ETag are exactly ' +
            'those of the lookup alone; with it the ETag also covers the prediction, which moves with time. Any other ' +
            'value is a 400.',
          schema: { type: 'string', pattern: '^predictedArrival$' },
          example: 'predictedArrival',
        },
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description:
            'The ETag of your last 200 for this lookup (or a list of tags, or `*`): 304 with no body while the shipment is ' +
            'unchanged. Authentication and the account rule apply first.',
          schema: { type: 'string', maxLength: 1024 },
          example: 'W/"p8Kq1Jm3YzV0c2Xn4hT6bR9wLsE"',
        },
      ],
      responses: {
        200: jsonResponse(OPERATION, 200, 'The shipment: a Transmission with the full current snapshot.', 'Transmission', [
          'CorrelationId',
          'ShipmentEtag',
          'PrivateNoCache',
        ]),
        304: {
          description: 'Not modified: the shipment is as your If-None-Match tag names it. No body.',
          headers: headersOf(['CorrelationId', 'ShipmentEtag', 'PrivateNoCache']),
        },
        400: jsonResponse(
          OPERATION,
          400,
          'errorCode 8004: no lookup parameter, carrierCode alone, carrierBookingReference without carrierCode, an unknown or ' +
            'repeated parameter, an unknown include value, or a malformed value.',
          'Error',
          ['CorrelationId'],
        ),
        401: jsonResponse(
          OPERATION,
          401,
          'errorCode 7001: a missing, malformed, expired, tampered or foreign token, or a token of a disabled client.',
          'Error',
          ['CorrelationId', 'BearerChallenge'],
        ),
        403: jsonResponse(OPERATION, 403, `errorCode 7002: a token without the ${READ_SCOPE} scope.`, 'Error', [
          'CorrelationId',
          'BearerChallenge',
        ]),
        404: jsonResponse(
          OPERATION,
          404,
          'errorCode 8005: nothing matches, the parameters match no single shipment, or the shipment belongs to no account ' +
            'of the client (the same answer: no one learns what exists elsewhere).',
          'Error',
          ['CorrelationId'],
        ),
        405: jsonResponse(OPERATION, 405, 'errorCode 8003: a method other than GET.', 'Error', ['CorrelationId', 'AllowGet']),
        500: jsonResponse(
          OPERATION,
          500,
          'errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference).',
          'Error',
          ['CorrelationId'],
        ),
        503: jsonResponse(OPERATION, 503, 'errorCode 7003: the database is down or too slow; retry after Retry-After seconds.', 'Error', [
          'CorrelationId',
          'RetryAfter',
        ]),
      },
    },
  };
}
