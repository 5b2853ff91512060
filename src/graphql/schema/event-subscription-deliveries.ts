import { SUBSCRIBE_SCOPE } from '../../auth/scopes.js';
import { policy } from '../../executor/field-policy.js';
import { requireEventSubscription } from '../../push/event-subscription-service.js';
import type { DeliveryLogEntry } from '../../store/push/delivery-queue.js';
import { builder } from '../builder.js';
import {
  DELIVERY_LOG_CONNECTION_VALIDATION,
  DELIVERY_LOG_VALIDATION,
  WebhookDeliveryStatusEnum,
  deliveryLog,
  deliveryLogArgs,
  deliveryLogConnection,
  deliveryLogConnectionArgs,
} from './webhook-subscription.js';

/**
 * The delivery log of a DCSA event subscription (docs/dcsa-events.md, Notifications): its notifications ride the
 * webhook outbox (the same `webhook_delivery` rows, trigger type DCSA_NOTIFICATION), so their owner sees them as a
 * webhook subscription's owner sees its deliveries, with the same statuses, limit and order. A type of its own, not
 * WebhookDelivery: a notification carries no transmissionID, trigger, event or exception of a webhook body, and each
 * kind of subscription answers only for its own deliveries (node(id:) included).
 */
export const EventSubscriptionDeliveryType = builder.objectRef<DeliveryLogEntry>('EventSubscriptionDelivery').implement({
  description: 'One DCSA notification (a POST of up to 500 events) to one event subscription: its entry in the delivery log.',
  fields: (t) => ({
    deliveryID: t.exposeString('deliveryID', { description: 'UUID of the delivery.' }),
    status: t.field({ type: WebhookDeliveryStatusEnum, description: 'PENDING, DELIVERED or FAILED.', resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far (the HEAD check of a new callback URL is not one).' }),
    lastStatus: t.exposeInt('lastStatus', { nullable: true, description: 'HTTP status of the last attempt; null when none came.' }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'What went wrong in the last attempt.' }),
    nextAttemptDateTime: t.expose('nextAttemptDateTime', {
      type: 'DateTime',
      nullable: true,
      description: 'While PENDING: when it is next tried.',
    }),
    createdDateTime: t.expose('createdDateTime', {
      type: 'DateTime',
      description: 'When the events were committed (and the notification enqueued).',
    }),
    deliveredDateTime: t.expose('deliveredDateTime', { type: 'DateTime', nullable: true, description: 'When the receiver accepted it.' }),
  }),
});

builder.queryField('eventSubscriptionDeliveries', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    deprecationReason: 'Use eventSubscriptionDeliveriesConnection',
    type: [EventSubscriptionDeliveryType],
    description:
      "A DCSA event subscription's delivery log, newest first; NOT_FOUND for another client's, an unknown or a webhook " +
      'subscription. Requires the track-and-trace.subscribe scope.',
    args: deliveryLogArgs,
    validate: DELIVERY_LOG_VALIDATION,
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      // Only the caller's own DCSA subscription: a webhook subscription's id is as unknown here as another client's.
      await requireEventSubscription(ctx.services.database.db, principal, args.subscriptionID);
      return deliveryLog(ctx.services.database.db, principal.clientId, args);
    },
  }),
);

const EventSubscriptionDeliveryConnectionType = builder.connectionObject(
  {
    type: EventSubscriptionDeliveryType,
    name: 'EventSubscriptionDeliveryConnection',
    description: "A page of a DCSA event subscription's delivery log, newest first.",
  },
  { description: 'A DCSA notification, and the cursor to page on from it.' },
);

builder.queryField('eventSubscriptionDeliveriesConnection', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: EventSubscriptionDeliveryConnectionType,
    description:
      "A DCSA event subscription's delivery log, newest first, a page at a time; NOT_FOUND for another client's, an unknown or a " +
      'webhook subscription. Requires the track-and-trace.subscribe scope.',
    args: deliveryLogConnectionArgs,
    validate: DELIVERY_LOG_CONNECTION_VALIDATION,
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      await requireEventSubscription(ctx.services.database.db, principal, args.subscriptionID);
      return deliveryLogConnection(ctx.services.database.db, principal.clientId, args);
    },
  }),
);
