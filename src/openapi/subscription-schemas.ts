import { WEBHOOK_TRIGGER_TYPES } from '../domain/push/push-triggers.js';
import { EXCEPTION_TYPE_LIST } from '../domain/enumerations.js';
import { MAX_CALLBACK_URL_LENGTH } from '../domain/push/callback-url.js';
import { MAX_THRESHOLD_HOURS } from '../domain/push/predicted-arrival-trigger.js';
import { componentRef, type JsonSchema } from './rest-schemas.js';

/**
 * The subscription bodies that are not a GraphQL type as such: the request
 * (the spec's SubscriptionRequest: a JSON object of the create mutation's
 * input) and the created subscription (WebhookSubscription plus, this once,
 * its secret).
 */
export function subscriptionSchemas(subscription: JsonSchema): Record<string, JsonSchema> {
  const properties = subscription.properties as Record<string, JsonSchema>;
  return {
    SubscriptionRequest: {
      type: 'object',
      description:
        "A webhook subscription request (the spec's SubscriptionRequest): one lookup form of GET /v2/shipments naming a " +
        'shipment your account may see, or none for every shipment your account sees (those linked later included), ' +
        'where to POST their changes, and which changes.',
      properties: {
        callbackUrl: {
          type: 'string',
          maxLength: MAX_CALLBACK_URL_LENGTH,
          description:
            'Where deliveries are POSTed: https, and not a loopback, private, link-local or metadata address (checked on ' +
            'every address the host resolves to, again at every send). The sandbox also accepts http and loopback.',
        },
        carrierCode: { type: 'string', pattern: '^[A-Z]{2,4}$', description: 'Carrier SCAC code; required with carrierBookingReference.' },
        carrierBookingReference: { type: 'string', minLength: 1, maxLength: 35, description: 'Carrier booking number.' },
        billOfLadingNumber: { type: 'string', minLength: 1, maxLength: 20, description: 'Bill of lading number.' },
        equipmentReference: { type: 'string', pattern: '^[A-Z]{3}[UJZ][0-9]{7}$', description: 'Container number.' },
        triggerTypes: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', enum: [...WEBHOOK_TRIGGER_TYPES] },
          description:
            'Default: EVENT_TRIGGER, EXCEPTION_DETECTED, EXCEPTION_RESOLVED, SHIPMENT_MERGED, and SCHEDULED_TRIGGER with an interval; an ' +
            'account-wide subscription (no lookup form) also GRANTED and REVOKED (your account given, or losing, a ' +
            'shipment), which only it may list. See docs/account-feed.md. PREDICTED_ARRIVAL is never a default: list it ' +
            'with predictedArrivalShiftHours and/or predictedLatenessHours. Until the upgrade to this release is finished ' +
            '(docs/upgrading.md), PREDICTED_ARRIVAL, GRANTED, REVOKED and SHIPMENT_MERGED are refused with 409, and the ' +
            'default is EVENT_TRIGGER, EXCEPTION_DETECTED and EXCEPTION_RESOLVED (with SCHEDULED_TRIGGER for an interval).',
        },
        exceptionTypes: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', enum: Object.keys(EXCEPTION_TYPE_LIST) },
          description: 'Only exception triggers (detected, resolved) of these types; other triggers are not affected. Default: every type.',
        },
        carrierCodes: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          uniqueItems: true,
          items: { type: 'string', pattern: '^[A-Z]{2,4}$' },
          description: 'Only shipments of these carriers. Default: every carrier.',
        },
        scheduledIntervalSeconds: {
          type: 'integer',
          minimum: 300,
          maximum: 604800,
          description: 'Seconds between SCHEDULED_TRIGGER refreshes (a subscription with a lookup form only).',
        },
        predictedArrivalShiftHours: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_THRESHOLD_HOURS,
          description:
            'PREDICTED_ARRIVAL: push when the predicted arrival (GET /v2/shipments?include=predictedArrival) moved by more ' +
            'than this many hours since the one last pushed to this subscription. Needs PREDICTED_ARRIVAL in triggerTypes ' +
            'and a lookup form. See docs/push.md.',
        },
        predictedLatenessHours: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_THRESHOLD_HOURS,
          description:
            "PREDICTED_ARRIVAL: push when the predicted arrival first becomes later than the carrier's planned arrival by at " +
            "least this many hours while the carrier's own ETA is not yet that late (once per crossing). Needs " +
            'PREDICTED_ARRIVAL in triggerTypes and a lookup form.',
        },
        secret: {
          type: 'string',
          pattern: '^[\\x21-\\x7e]{32,256}$',
          description: 'Your own signing secret; default: a 256-bit one is generated and returned once.',
        },
      },
      required: ['callbackUrl'],
      additionalProperties: false,
    },
    RotateSecretRequest: {
      type: 'object',
      description: 'Optional body of a secret rotation.',
      properties: {
        overlapSeconds: {
          type: 'integer',
          minimum: 0,
          maximum: 604800,
          description: 'How long the previous secret keeps signing (a second v1 in Tracking-Signature); default 86400.',
        },
        secret: { type: 'string', pattern: '^[\\x21-\\x7e]{32,256}$', description: 'Your own new secret; default: generated.' },
      },
      additionalProperties: false,
    },
    WebhookSubscriptionList: {
      type: 'array',
      items: componentRef('WebhookSubscription'),
      description: 'Your subscriptions, oldest first.',
    },
    WebhookDeliveryList: { type: 'array', items: componentRef('WebhookDelivery'), description: 'Deliveries, newest first.' },
    WebhookSubscriptionWithSecret: {
      ...subscription,
      description: 'A subscription and, this once, its signing secret: store it now.',
      properties: {
        ...properties,
        secret: { type: 'string', description: 'The HMAC-SHA256 signing secret of its deliveries (Tracking-Signature).' },
      },
      required: [...((subscription.required as string[]) ?? []), 'secret'],
    },
  };
}
