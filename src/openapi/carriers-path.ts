import { OPERATOR_INGEST_SCOPE } from '../auth/scopes.js';
import { headersOf, type HeaderName } from './components.js';
import { jsonResponse } from './responses.js';
import { componentRef, type JsonSchema } from './rest-schemas.js';

/**
 * How carrier events come in over HTTP (src/rest/carrier-routes.ts): DCSA
 * notifications pushed by carriers, and ingest bundles posted by operators.
 */

export const CARRIER_SCOPES = {
  [OPERATOR_INGEST_SCOPE]: 'Load ingest bundles (POST /v2/operator/ingest); granted per client by an operator.',
};

const error = (operation: string, status: number, description: string, headers: HeaderName[] = ['CorrelationId']) =>
  jsonResponse(operation, status, description, 'Error', headers);

const CODE = {
  name: 'carrierCode',
  in: 'path',
  required: true,
  description: 'The carrier code (SCAC) an operator configured with `tracking carrier add`.',
  schema: { type: 'string', pattern: '^[A-Z]{2,4}$' },
};

const EDI_TEXT = (description: string): JsonSchema => ({ type: 'string', description });

/** The operator route's 200: a bundle's summary or an EDI body's, with the recorded examples of both. */
function eitherSummary(response: JsonSchema): JsonSchema {
  const media = (response.content as Record<string, JsonSchema>)['application/json']!;
  return {
    ...response,
    content: { 'application/json': { ...media, schema: { oneOf: [componentRef('IngestSummary'), componentRef('EdiIngestSummary')] } } },
  };
}

const DCSA_EVENT: JsonSchema = {
  type: 'object',
  description:
    'A DCSA Track & Trace 2.2 event (transportEvent, shipmentEvent or equipmentEvent of `tnt_v2.2.0`), as carriers publish ' +
    "it (`UNLocationCode`, `transportCallID`, local times with offsets) or with the contract's spellings; validated as " +
    "the ingest bundle's events are.",
  required: ['eventID', 'eventType', 'eventClassifierCode', 'eventDateTime', 'eventCreatedDateTime'],
};

/** `components.schemas` of these routes. */
export function carrierSchemas(): Record<string, JsonSchema> {
  return {
    DcsaNotification: {
      type: 'array',
      description: 'The body of a DCSA 2.2 event notification: the events, in any order.',
      items: DCSA_EVENT,
    },
    IngestBundle: {
      type: 'object',
      description: 'An ingest bundle, as `tracking ingest` reads it (docs/carriers.md: Loading data).',
      properties: {
        carrierCode: { type: 'string', pattern: '^[A-Z]{2,4}$', description: 'The carrier that published `events`; required with events.' },
        generatedDateTime: {
          type: 'string',
          format: 'date-time',
          description:
            'When the shipment data of the bundle was true (with a UTC offset): a statement older than the one a shipment holds ' +
            'changes nothing. A shipment may give its own `updatedDateTime`. Absent: the time of ingestion.',
        },
        shipments: {
          type: 'array',
          items: {
            type: 'object',
            description: 'Shipment master data, optionally with its own `updatedDateTime` (docs/carriers.md: Loading data).',
          },
        },
        events: { type: 'array', items: DCSA_EVENT },
      },
      additionalProperties: false,
    },
    EdiIngestSummary: {
      type: 'object',
      description:
        'What an EDI body (X12 315, EDIFACT IFTSTA) changed: the `--json` summary of `tracking ingest --format` (docs/carriers.md: EDI). ' +
        'Good transactions are stored; each bad one is named in `rejected` and kept as a rejected event (`tracking carrier rejected list`).',
      required: [
        'format',
        'interchanges',
        'transactions',
        'transactionsRejected',
        'eventsStored',
        'eventsAlreadyStored',
        'eventsUnlinked',
        'shipmentsRefreshed',
        'rejected',
      ],
      properties: {
        format: { type: 'string', enum: ['x12-315', 'iftsta'] },
        interchanges: {
          type: 'array',
          items: {
            type: 'object',
            required: ['senderId', 'controlNumber', 'alreadyReceived', 'transactions', 'transactionsRejected'],
            properties: {
              senderId: { type: 'string', description: 'ISA05:ISA06, or UNB 0004(:0007).' },
              controlNumber: { type: 'string', description: 'ISA13 or UNB 0020.' },
              alreadyReceived: {
                type: 'boolean',
                description: 'Received before (same format, sender and control number): nothing was done.',
              },
              transactions: { type: 'integer', minimum: 0 },
              transactionsRejected: { type: 'integer', minimum: 0 },
            },
            additionalProperties: false,
          },
        },
        transactions: { type: 'integer', minimum: 0 },
        transactionsRejected: { type: 'integer', minimum: 0 },
        eventsStored: { type: 'integer', minimum: 0 },
        eventsAlreadyStored: { type: 'integer', minimum: 0 },
        eventsUnlinked: { type: 'integer', minimum: 0 },
        shipmentsRefreshed: { type: 'integer', minimum: 0 },
        rejected: {
          type: 'array',
          items: {
            type: 'object',
            required: ['interchange', 'transaction', 'segment', 'position', 'reason'],
            properties: {
              interchange: { type: 'string' },
              transaction: { type: 'string', description: 'ST02 or UNH 0062.' },
              segment: { type: ['string', 'null'], description: 'The segment at fault; null for the transaction as a whole.' },
              position: { type: ['integer', 'null'], description: 'Its position in the transaction (ST or UNH is 1).' },
              reason: { type: 'string' },
            },
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    },
    IngestSummary: {
      type: 'object',
      description: 'What the bundle changed: the `--json` summary of `tracking ingest`.',
      required: [
        'shipmentsCreated',
        'shipmentsUpdated',
        'shipmentsOutdated',
        'eventsStored',
        'eventsAlreadyStored',
        'eventsUnlinked',
        'shipmentsRefreshed',
        'exceptionTransitions',
      ],
      properties: {
        shipmentsCreated: { type: 'integer', minimum: 0 },
        shipmentsUpdated: {
          type: 'integer',
          minimum: 0,
          description: 'Existing shipments whose master data, containers or accounts changed.',
        },
        shipmentsOutdated: {
          type: 'integer',
          minimum: 0,
          description:
            'Shipment entries that changed no master data or containers: the shipment already holds this statement or a newer one ' +
            '(by `generatedDateTime`/`updatedDateTime`, or the same content stated before without a time). Their accounts are still granted.',
        },
        eventsStored: { type: 'integer', minimum: 0 },
        eventsAlreadyStored: { type: 'integer', minimum: 0, description: 'Skipped: their eventID was already stored.' },
        eventsUnlinked: { type: 'integer', minimum: 0, description: 'Stored, matching no shipment yet (linked when it arrives).' },
        shipmentsRefreshed: { type: 'integer', minimum: 0 },
        exceptionTransitions: {
          type: 'array',
          description: 'The exception transitions the bundle caused, in order.',
          items: {
            type: 'object',
            required: ['kind', 'exceptionID', 'exceptionType'],
            properties: {
              kind: { type: 'string', enum: ['DETECTED', 'UPDATED', 'RESOLVED'] },
              exceptionID: { type: 'string' },
              exceptionType: { type: 'string' },
              eventID: { type: 'string', description: 'The event that caused it.' },
            },
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    },
  };
}

export function carrierPaths(): Record<string, JsonSchema> {
  const N = 'POST /v2/carrier-notifications/{carrierCode}';
  const O = 'POST /v2/operator/ingest';
  return {
    '/v2/carrier-notifications/{carrierCode}': {
      post: {
        tags: ['Carrier ingest'],
        operationId: 'receiveCarrierNotification',
        summary: 'A carrier pushes events (DCSA 2.2 notification)',
        description:
          "The callbackUrl of a carrier's DCSA Track & Trace 2.2 event subscription. The body must be signed: " +
          '`Notification-Signature: sha256=<hex HMAC-SHA256 of the exact body bytes>`, keyed with the decoded bytes of the ' +
          "carrier's Base64 secret (during a rotation's overlap, the previous secret verifies too). The events are ingested " +
          'in one transaction (idempotent on eventID: a replay is answered 204 and changes nothing); 204 only after the commit.',
        security: [],
        parameters: [
          CODE,
          {
            name: 'Notification-Signature',
            in: 'header',
            required: true,
            description: "`sha256=` and the hex HMAC-SHA256 of the body under the carrier's secret.",
            schema: { type: 'string', pattern: '^\\s*sha256=[0-9a-fA-F]{64}\\s*$' },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: componentRef('DcsaNotification') },
            'application/edi-x12': { schema: EDI_TEXT('An X12 315 interchange (4010 or 5010), for a carrier configured to send x12-315.') },
            'application/edifact': { schema: EDI_TEXT('An EDIFACT IFTSTA D.99B interchange, for a carrier configured to send iftsta.') },
          },
        },
        responses: {
          200: jsonResponse(N, 200, 'An EDI body was taken: what it changed and which transactions were rejected.', 'EdiIngestSummary', [
            'NoStore',
          ]),
          204: { description: 'Stored (or already stored).' },
          400: error(
            N,
            400,
            "errorCode 8004: not a JSON array, or invalid events; each error names the event's index and field in `property` (`[3].eventDateTime`). " +
              'Nothing is ingested; the events are kept as rejected, with their errors, for an operator to replay (docs/carriers.md: Carrier onboarding).',
          ),
          401: error(
            N,
            401,
            "errorCode 7001: the Notification-Signature header is missing, malformed, or matches the body under neither the carrier's secret " +
              'nor (during an overlap) its previous one. Nothing is read further.',
          ),
          404: error(N, 404, 'errorCode 8005: no active carrier source with this code (unknown or disabled).'),
          405: error(N, 405, 'errorCode 8003: a method other than HEAD or POST.', ['CorrelationId', 'AllowMethods']),
          413: error(N, 413, 'errorCode 8004: a body over TT_CARRIER_NOTIFICATION_MAX_BYTES (5 MiB by default), refused while reading.'),
          415: error(
            N,
            415,
            'errorCode 8004: a body that is not application/json, or an EDI Content-Type of a format the carrier is not configured to send.',
          ),
          500: error(N, 500, 'errorCode 7000: an unexpected failure; nothing was stored (retry).'),
          503: error(
            N,
            503,
            'errorCode 7003: the database is down, not ready or too busy; nothing was stored: retry after Retry-After seconds.',
            ['CorrelationId', 'RetryAfter'],
          ),
        },
      },
      head: {
        tags: ['Carrier ingest'],
        operationId: 'checkCarrierNotificationUrl',
        summary: 'The callback URL check',
        description: 'DCSA publishers check a callback URL with HEAD before they send to it.',
        security: [],
        parameters: [CODE],
        responses: {
          204: { description: 'An active carrier source: notifications are accepted here.' },
          404: { description: 'No active carrier source with this code.' },
          500: { description: 'The service could not check (see the logs under X-Correlation-ID).' },
          503: {
            description: 'The database is down, not ready or too busy: check again after Retry-After seconds.',
            headers: headersOf(['RetryAfter']),
          },
        },
      },
    },
    '/v2/operator/ingest': {
      post: {
        tags: ['Carrier ingest'],
        operationId: 'ingestBundle',
        summary: 'Load an ingest bundle (tracking ingest over HTTP)',
        description:
          'Validated as it streams, written in one transaction (nothing of an invalid bundle), idempotent on eventID. ' +
          `Needs the ${OPERATOR_INGEST_SCOPE} scope.`,
        security: [{ clientCredentials: [OPERATOR_INGEST_SCOPE] }, { bearerToken: [] }],
        parameters: [
          {
            name: 'carrierCode',
            in: 'query',
            required: false,
            description: 'With an EDI body: the carrier (SCAC) that sent it, configured to send that format (docs/carriers.md: EDI).',
            schema: { type: 'string', pattern: '^[A-Z]{2,4}$' },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: componentRef('IngestBundle') },
            'application/edi-x12': { schema: EDI_TEXT('An X12 315 interchange (4010 or 5010); needs carrierCode.') },
            'application/edifact': { schema: EDI_TEXT('An EDIFACT IFTSTA D.99B interchange; needs carrierCode.') },
          },
        },
        responses: {
          200: eitherSummary(
            jsonResponse(O, 200, 'Ingested: what changed (IngestSummary for a bundle, EdiIngestSummary for EDI).', 'IngestSummary', [
              'NoStore',
            ]),
          ),
          400: error(
            O,
            400,
            'errorCode 8004: broken JSON (with line and column) or invalid fields, each named in `property` (`events[3].eventDateTime`); an EDI body without carrierCode, or an interchange that cannot be read. Nothing is written.',
          ),
          401: error(O, 401, 'errorCode 7001: a missing, malformed, expired or foreign token.', ['CorrelationId', 'BearerChallenge']),
          403: error(O, 403, `errorCode 7002: a token without the ${OPERATOR_INGEST_SCOPE} scope.`, ['CorrelationId', 'BearerChallenge']),
          405: error(O, 405, 'errorCode 8003: a method other than POST.', ['CorrelationId', 'AllowPost']),
          413: error(O, 413, 'errorCode 8004: a body over TT_OPERATOR_INGEST_MAX_BYTES (64 MiB by default), refused while reading.'),
          404: error(O, 404, 'errorCode 8005: an EDI body for no active carrier source with this carrierCode.'),
          415: error(
            O,
            415,
            'errorCode 8004: a body that is not application/json, application/edi-x12 or application/edifact, or EDI of a format the carrier is not configured to send.',
          ),
          500: error(O, 500, 'errorCode 7000: an unexpected failure; nothing was written.'),
          503: error(
            O,
            503,
            'errorCode 7003: the database is down, not ready or too busy; nothing was written: retry after Retry-After seconds.',
            ['CorrelationId', 'RetryAfter'],
          ),
        },
      },
    },
  };
}
