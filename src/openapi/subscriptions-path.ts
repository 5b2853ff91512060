import { READ_SCOPE, SUBSCRIBE_SCOPE } from '../auth/scopes.js';
import { listOfNames, NEWER_THAN_PREVIOUS_RELEASE } from '../domain/push/push-triggers.js';
import { headersOf, type HeaderName } from './components.js';
import { jsonResponse } from './responses.js';
import { componentRef, type JsonSchema } from './rest-schemas.js';

export const SECURITY = [{ clientCredentials: [SUBSCRIBE_SCOPE] }, { bearerToken: [] }];
export const ID = {
  name: 'subscriptionID',
  in: 'path',
  required: true,
  description: "The subscription (yours: another client's is 404).",
  schema: { type: 'string' },
};

/** The error responses every subscription operation may give, with the operation's own words where it has them. */
export function errors(operation: string, allow: string, extra: Record<number, string> = {}): Record<number, JsonSchema> {
  const error = (status: number, description: string, headers: HeaderName[] = ['CorrelationId']) =>
    jsonResponse(operation, status, description, 'Error', headers);
  const responses: Record<number, JsonSchema> = {
    401: error(401, 'errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client.', [
      'CorrelationId',
      'BearerChallenge',
    ]),
    403: error(403, `errorCode 7002: a token without the ${SUBSCRIBE_SCOPE} scope (an operator grants it per client).`, [
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

export const NOT_FOUND = 'errorCode 8005: no such subscription of yours.';
const BODY_ERRORS = {
  413: 'errorCode 8004: a body over 16 KiB.',
  415: 'errorCode 8004: a body that is not application/json.',
};

/** The webhook subscription routes, as src/rest/subscriptions-handler.ts serves them. */
export function subscriptionsPaths(): Record<string, JsonSchema> {
  const tags = ['Push subscriptions'];
  return {
    '/v2/subscriptions': {
      post: {
        tags,
        operationId: 'createSubscription',
        summary: 'Subscribe to a shipment',
        description:
          "The shipment's changes are POSTed to `callbackUrl` as Transmissions (the lookup's body) with `triggerType` " +
          'and `triggeredByEvent` set, signed in `Tracking-Signature` (see docs/push.md). The signing secret ' +
          'is returned this once.',
        security: SECURITY,
        requestBody: { required: true, content: { 'application/json': { schema: componentRef('SubscriptionRequest') } } },
        responses: {
          201: {
            ...jsonResponse('POST /v2/subscriptions', 201, 'Subscribed; the secret is shown this once.', 'WebhookSubscriptionWithSecret', [
              'NoStore',
            ]),
            headers: headersOf(['NoStore', 'SubscriptionLocation']),
          },
          ...errors('POST /v2/subscriptions', 'GET, POST', {
            400: 'errorCode 8004: a malformed field (named in `property`), a callback URL the service may not call, an unknown field, or the per-client limit reached.',
            404: 'errorCode 8005: no shipment of your account matches the lookup (as GET /v2/shipments would answer).',
            409:
              `errorCode 8004: ${listOfNames(NEWER_THAN_PREVIOUS_RELEASE, 'or')} before the upgrade to this release is ` +
              'finished (`tracking upgrade finish`): instances of the previous release cannot deliver them (docs/upgrading.md).',
            ...BODY_ERRORS,
          }),
        },
      },
      get: {
        tags,
        operationId: 'listSubscriptions',
        summary: 'Your subscriptions',
        description: 'Every webhook subscription of your client, oldest first, with its status and filters (never its secret).',
        security: SECURITY,
        responses: {
          200: jsonResponse('GET /v2/subscriptions', 200, 'Your subscriptions, oldest first.', 'WebhookSubscriptionList', ['NoStore']),
          ...errors('GET /v2/subscriptions', 'GET, POST'),
        },
      },
    },
    '/v2/subscriptions/{subscriptionID}': {
      parameters: [ID],
      get: {
        tags,
        operationId: 'getSubscription',
        summary: 'One subscription',
        description: "The subscription, with its status and filters (never its secret); another client's is 404.",
        security: SECURITY,
        responses: {
          200: jsonResponse('GET /v2/subscriptions/{subscriptionID}', 200, 'The subscription.', 'WebhookSubscription', ['NoStore']),
          ...errors('GET /v2/subscriptions/{subscriptionID}', 'GET, DELETE', { 404: NOT_FOUND }),
        },
      },
      delete: {
        tags,
        operationId: 'deleteSubscription',
        summary: 'Unsubscribe',
        description: 'Stops and removes the subscription; its pending deliveries are given up.',
        security: SECURITY,
        responses: {
          204: { description: 'Deleted.', headers: headersOf([]) },
          ...errors('DELETE /v2/subscriptions/{subscriptionID}', 'GET, DELETE', { 404: NOT_FOUND }),
        },
      },
    },
    '/v2/subscriptions/{subscriptionID}/rotate-secret': {
      parameters: [ID],
      post: {
        tags,
        operationId: 'rotateSubscriptionSecret',
        summary: 'New signing secret',
        description:
          'A new secret, returned this once. For `overlapSeconds` deliveries carry a signature with the previous secret ' +
          'too, so your receiver can switch without dropping deliveries.',
        security: SECURITY,
        requestBody: { required: false, content: { 'application/json': { schema: componentRef('RotateSecretRequest') } } },
        responses: {
          200: jsonResponse(
            'POST /v2/subscriptions/{subscriptionID}/rotate-secret',
            200,
            'The subscription and its new secret.',
            'WebhookSubscriptionWithSecret',
            ['NoStore'],
          ),
          ...errors('POST /v2/subscriptions/{subscriptionID}/rotate-secret', 'POST', {
            400: 'errorCode 8004: a malformed field or an unknown one.',
            404: NOT_FOUND,
            ...BODY_ERRORS,
          }),
        },
      },
    },
    '/v2/subscriptions/{subscriptionID}/deliveries': {
      parameters: [ID],
      get: {
        tags,
        operationId: 'listDeliveries',
        summary: 'The delivery log',
        description:
          "The delivery attempts of the subscription, newest first: each delivery's status (PENDING, DELIVERED, FAILED), " +
          'its attempts, the last answer of your receiver and when it is tried next.',
        security: SECURITY,
        parameters: [
          {
            name: 'status',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['PENDING', 'DELIVERED', 'FAILED'] },
            description: 'Only deliveries in this state.',
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 500 },
            description: 'At most this many; default 100.',
          },
        ],
        responses: {
          200: jsonResponse('GET /v2/subscriptions/{subscriptionID}/deliveries', 200, 'Deliveries, newest first.', 'WebhookDeliveryList', [
            'NoStore',
          ]),
          ...errors('GET /v2/subscriptions/{subscriptionID}/deliveries', 'GET', {
            400: 'errorCode 8004: an unknown parameter or a malformed status or limit.',
            404: NOT_FOUND,
          }),
        },
      },
    },
  };
}

export const SUBSCRIPTION_SCOPES = { [SUBSCRIBE_SCOPE]: `Manage webhook subscriptions (with ${READ_SCOPE}).` };
