import { READ_SCOPE } from '../auth/scopes.js';
import type { HeaderName } from './components.js';
import { jsonResponse } from './responses.js';
import type { JsonSchema } from './rest-schemas.js';
import { errors, ID, NOT_FOUND, SECURITY } from './subscriptions-path.js';

/** GET /v2/changes (src/rest/changes-handler.ts) and the webhook trials (src/rest/subscriptions-handler.ts): docs/account-feed.md. */
export function accountFeedPaths(): Record<string, JsonSchema> {
  const C = 'GET /v2/changes';
  const error = (status: number, description: string, headers: HeaderName[] = ['CorrelationId']) =>
    jsonResponse(C, status, description, 'Error', headers);
  const T = 'POST /v2/subscriptions/{subscriptionID}/test';
  const R = 'POST /v2/subscriptions/{subscriptionID}/deliveries/{deliveryID}/redeliver';
  const trialTags = ['Push subscriptions'];
  return {
    '/v2/changes': {
      get: {
        tags: ['Shipments'],
        operationId: 'listAccountChanges',
        summary: "What changed for your account's shipments",
        description:
          'Without `after`: every shipment your account sees, each once, at its current version (`changes` empty), in pages. ' +
          'The last page (`hasMore` false) hands out the `next` cursor to poll from: the shipments that changed since the ' +
          'listing began, with what changed (the triggers webhooks get), in commit order, grouped by shipment per page; ' +
          'GRANTED when your account was given a shipment, REVOKED when it lost one (such an entry shows the ' +
          "shipment's identifiers only, no version or snapshot, once your account no longer sees it). " +
          'Cursors are opaque, and good on every instance and after restarts for as long as the changes after them are ' +
          'kept (7 days; older: 410, start again without `after`). See docs/account-feed.md.',
        security: [{ clientCredentials: [READ_SCOPE] }, { bearerToken: [] }],
        parameters: [
          { name: 'after', in: 'query', required: false, schema: { type: 'string', maxLength: 200 }, description: 'A `next` cursor.' },
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            description: 'Changes (in the listing: shipments) per page; at most 100 with include=snapshot.',
          },
          {
            name: 'include',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['snapshot'] },
            description: "Each entry's current snapshot (shipmentTracking, as the lookup returns it).",
          },
        ],
        responses: {
          200: jsonResponse(C, 200, 'A page of the feed.', 'AccountChangePage', ['NoStore']),
          400: error(
            400,
            'errorCode 8004: an unknown or repeated parameter, a malformed limit or include, or a cursor the service did not hand out.',
          ),
          401: error(401, 'errorCode 7001: a missing, malformed, expired or foreign token.', ['CorrelationId', 'BearerChallenge']),
          403: error(403, `errorCode 7002: a token without the ${READ_SCOPE} scope.`, ['CorrelationId', 'BearerChallenge']),
          405: error(405, 'errorCode 8003: a method other than GET.', ['CorrelationId', 'AllowMethods']),
          410: error(410, 'errorCode 8004: the changes after this cursor are no longer kept; start again without `after`.'),
          500: error(500, 'errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference).'),
          503: error(503, 'errorCode 7003: the database is down or too slow; retry after Retry-After seconds.', [
            'CorrelationId',
            'RetryAfter',
          ]),
        },
      },
    },
    '/v2/subscriptions/{subscriptionID}/test': {
      parameters: [ID],
      post: {
        tags: trialTags,
        operationId: 'testSubscription',
        summary: 'Send a test delivery now',
        description:
          "A signed delivery of a current snapshot (the subscription's shipment; for an account-wide subscription the shipment " +
          'that changed last), with `Tracking-Test: true` and triggerType MANUAL_TRIGGER, sent while you wait (up to the ' +
          "webhook timeout); answers with the receiver's status and latency. Not recorded in the delivery log.",
        security: SECURITY,
        responses: {
          200: jsonResponse(T, 200, "Sent; the receiver's answer.", 'WebhookTrialResult', ['NoStore']),
          ...errors(T, 'POST', {
            404: NOT_FOUND,
            409: 'errorCode 8003: nothing to send (your account sees no shipment), or the callback URL may not receive webhooks now.',
          }),
        },
      },
    },
    '/v2/subscriptions/{subscriptionID}/deliveries/{deliveryID}/redeliver': {
      parameters: [
        ID,
        { name: 'deliveryID', in: 'path', required: true, description: 'A delivery of the delivery log.', schema: { type: 'string' } },
      ],
      post: {
        tags: trialTags,
        operationId: 'redeliver',
        summary: 'Send a past delivery again now',
        description:
          'The same delivery ID (Tracking-Delivery-ID) and transmissionID, the current snapshot, `Tracking-Redelivery: true`; ' +
          "answers with the receiver's status and latency, and records the attempt in the delivery log (a 2xx makes a failed " +
          'delivery DELIVERED). A delivery still pending is sent by the queue in its turn (409).',
        security: SECURITY,
        responses: {
          200: jsonResponse(R, 200, "Sent; the receiver's answer.", 'WebhookTrialResult', ['NoStore']),
          ...errors(R, 'POST', {
            404: 'errorCode 8005: no such subscription of yours, or no such delivery of it.',
            409: 'errorCode 8003: the delivery is still pending, or its shipment or callback URL can no longer be sent to.',
          }),
        },
      },
    },
  };
}
