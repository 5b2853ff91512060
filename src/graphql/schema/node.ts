import { brandWithType } from '@pothos/core';
import { z } from 'zod';
import { READ_SCOPE, SUBSCRIBE_SCOPE, TRACK_SCOPE } from '../../auth/scopes.js';
import type { Principal } from '../../auth/principal.js';
import type { ContainerSnapshot, TrackingEvent, TrackingException } from '../../domain/types.js';
import { policy } from '../../executor/field-policy.js';
import { DEFAULT_EVENT_SORT } from '../../arguments/dcsa-event-query.js';
import { readEventPage } from '../../store/events/dcsa-events.js';
import { getDcsaSubscription, type DcsaSubscription } from '../../store/push/dcsa-subscriptions.js';
import { listDeliveries, type DeliveryLogEntry } from '../../store/push/delivery-queue.js';
import { shipmentOfException } from '../../store/exceptions/exception-list.js';
import { findShipment, findShipmentById, type ShipmentRow } from '../../store/shipments/shipment-lookup.js';
import { getTrackingRequest, type TrackingRequestView } from '../../store/carriers/tracking-requests.js';
import { getSubscription, type WebhookSubscription } from '../../store/push/webhook-subscriptions.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { containerKey, MAX_GLOBAL_ID_LENGTH, parseContainerKey, parseGlobalId, parseShipmentKey, shipmentKey } from '../global-id.js';
import { ShipmentSource } from '../shipment-source.js';
import { ContainerType, containerShipment } from './container.js';
import { EventSubscriptionType } from './event-subscription.js';
import { EventSubscriptionDeliveryType } from './event-subscription-deliveries.js';
import { TrackingExceptionType } from './exception.js';
import { ShipmentTrackingType } from './shipment-tracking.js';
import { TrackingRequestType } from './tracking-request.js';
import { WebhookDeliveryType, WebhookSubscriptionType } from './webhook-subscription.js';

/**
 * Global object identification (docs/graphql.md, Object identification): every object a client caches is a
 * `Node` with an opaque, stable `id` (src/graphql/global-id.ts), and `node(id:)`/`nodes(ids:)` fetch it again
 * under the rule of its direct lookup: a shipment (and its containers, exceptions and events) when one of the
 * caller's accounts sees it, as `shipment` and `events` do; a subscription, delivery or tracking request when
 * it is the caller's own and the token holds the scope its own fields need. Anything else (another tenant's,
 * unknown, deleted, forged, or beyond the token's scope) is null: the same answer, so no one learns what exists
 * elsewhere.
 */

/** What `node` fetches one type by: its key and the caller; null when the caller may not see it. */
type Loader = (key: string, principal: Principal, ctx: GraphQLContext) => Promise<object | null>;

builder.nodeRef(ShipmentTrackingType, {
  id: { resolve: (s: ShipmentSource) => shipmentKey(s.master.carrierCode, s.master.carrierBookingReference) },
});
builder.nodeRef(ContainerType, {
  id: {
    resolve: (c: ContainerSnapshot) => {
      const shipment = containerShipment.get(c);
      // Every container reaches the schema through ShipmentTracking.containers or node(id:), which record it.
      if (!shipment) throw new Error('a container without its shipment');
      return containerKey(shipment.carrierCode, shipment.carrierBookingReference, c.containerNumber);
    },
  },
});
builder.nodeRef(TrackingExceptionType, { id: { resolve: (e: TrackingException) => e.exceptionID } });
// Events: the Event interface implements Node (./events.ts).
builder.nodeRef(TrackingRequestType, { id: { resolve: (r: TrackingRequestView) => r.trackingRequestID } });
builder.nodeRef(WebhookSubscriptionType, { id: { resolve: (s: WebhookSubscription) => s.subscriptionID } });
builder.nodeRef(WebhookDeliveryType, { id: { resolve: (d: DeliveryLogEntry) => d.deliveryID } });
builder.nodeRef(EventSubscriptionType, { id: { resolve: (s: DcsaSubscription) => s.subscriptionID } });
builder.nodeRef(EventSubscriptionDeliveryType, { id: { resolve: (d: DeliveryLogEntry) => d.deliveryID } });

const holds = (principal: Principal, scope: string) => principal.scopes.includes(scope);

function shipmentAt(row: ShipmentRow | null, ctx: GraphQLContext): ShipmentSource | null {
  return row ? new ShipmentSource(row, ctx.services.snapshots.snapshot(row)) : null;
}

async function visibleShipment(key: string, principal: Principal, ctx: GraphQLContext): Promise<ShipmentSource | null> {
  const parts = parseShipmentKey(key);
  if (!parts || !holds(principal, READ_SCOPE)) return null;
  return shipmentAt(await findShipment(ctx.services.database.db, parts, principal.accountIds), ctx);
}

async function visibleContainer(key: string, principal: Principal, ctx: GraphQLContext): Promise<ContainerSnapshot | null> {
  const parts = parseContainerKey(key);
  const shipment = parts && (await visibleShipment(shipmentKey(parts.carrierCode, parts.carrierBookingReference), principal, ctx));
  if (!parts || !shipment) return null;
  const container = (await shipment.snapshot.containers()).find((c) => c.containerNumber === parts.containerNumber);
  if (!container) return null;
  containerShipment.set(container, shipment.master);
  return container;
}

async function visibleException(key: string, principal: Principal, ctx: GraphQLContext) {
  if (!holds(principal, READ_SCOPE)) return null;
  const { db } = ctx.services.database;
  const shipmentId = await shipmentOfException(db, key);
  const shipment = shipmentAt(shipmentId === null ? null : await findShipmentById(db, shipmentId, principal.accountIds), ctx);
  return (await shipment?.snapshot.exceptions())?.find((e) => e.exceptionID === key) ?? null;
}

/** An event as `events(eventIDs:)` finds it: linked to a shipment one of the caller's accounts sees. */
function visibleEvent(eventType: TrackingEvent['eventType']): Loader {
  return async (key, principal, ctx) => {
    if (!holds(principal, READ_SCOPE)) return null;
    const { rows } = await readEventPage(ctx.services.database.db, {
      accountIds: principal.accountIds,
      filter: {},
      created: {},
      sort: DEFAULT_EVENT_SORT,
      limit: 1,
      position: { at: 'start' },
      eventIds: [key],
    });
    const event = rows[0]?.event;
    return event?.eventType === eventType ? event : null;
  };
}

const LOADERS: Record<string, Loader> = {
  ShipmentTracking: visibleShipment,
  Container: visibleContainer,
  Exception: visibleException,
  ShipmentEvent: visibleEvent('SHIPMENT'),
  TransportEvent: visibleEvent('TRANSPORT'),
  EquipmentEvent: visibleEvent('EQUIPMENT'),
  TrackingRequest: async (key, principal, ctx) =>
    holds(principal, TRACK_SCOPE) ? getTrackingRequest(ctx.services.database.db, principal.clientId, key) : null,
  WebhookSubscription: async (key, principal, ctx) =>
    holds(principal, SUBSCRIBE_SCOPE) ? getSubscription(ctx.services.database.db, principal.clientId, key) : null,
  WebhookDelivery: async (key, principal, ctx) => {
    if (!holds(principal, SUBSCRIBE_SCOPE)) return null;
    const [delivery] = await listDeliveries(ctx.services.database.db, {
      deliveryId: key,
      clientId: principal.clientId,
      liveWebhook: true,
      limit: 1,
    });
    return delivery ?? null;
  },
  EventSubscription: async (key, principal, ctx) =>
    holds(principal, SUBSCRIBE_SCOPE) ? getDcsaSubscription(ctx.services.database.db, principal.clientId, key) : null,
  EventSubscriptionDelivery: async (key, principal, ctx) => {
    if (!holds(principal, SUBSCRIBE_SCOPE)) return null;
    const [delivery] = await listDeliveries(ctx.services.database.db, {
      deliveryId: key,
      clientId: principal.clientId,
      liveDcsa: true,
      limit: 1,
    });
    return delivery ?? null;
  },
};

/** The object a global ID names, branded with its type for the Node interface; null when the caller may not see it. */
async function resolveNode(id: string, principal: Principal, ctx: GraphQLContext): Promise<object | null> {
  const parsed = parseGlobalId(id);
  const load = parsed && Object.hasOwn(LOADERS, parsed.typename) ? LOADERS[parsed.typename] : undefined;
  const found = parsed && load ? await load(parsed.key, principal, ctx) : null;
  if (found && parsed) brandWithType(found, parsed.typename as never);
  return found;
}

/** IDs per nodes(ids:) call: each one is a lookup. */
export const MAX_NODE_IDS = 100;

const NodeInterface = builder.nodeInterfaceRef();

builder.queryField('node', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups' }),
    type: NodeInterface,
    nullable: true,
    description:
      'The object with this global ID, under the rule of its direct lookup (shipment, events, trackingRequest, webhookSubscription, ' +
      "eventSubscription); null for another tenant's, an unknown, a deleted or a forged ID alike. Requires a bearer token.",
    args: { id: t.arg.id({ required: true, description: 'A global ID, as an `id` field gave it.' }) },
    validate: z.object({ id: z.string().max(MAX_GLOBAL_ID_LENGTH, `id is at most ${MAX_GLOBAL_ID_LENGTH} characters`) }).loose(),
    resolve: async (_root, args, ctx) => resolveNode(String(args.id), await ctx.principal(), ctx),
  }),
);

builder.queryField('nodes', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups' }),
    type: [NodeInterface],
    nullable: { list: false, items: true },
    description: `The objects with these global IDs, in the same order, each as node(id:) answers it (null where it does; at most ${MAX_NODE_IDS}).`,
    args: { ids: t.arg.idList({ required: true, description: 'Global IDs, as `id` fields gave them.' }) },
    validate: z
      .object({
        ids: z
          .array(z.string().max(MAX_GLOBAL_ID_LENGTH, `ids are at most ${MAX_GLOBAL_ID_LENGTH} characters each`))
          .max(MAX_NODE_IDS, `ids holds at most ${MAX_NODE_IDS} IDs`),
      })
      .loose(),
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      return Promise.all(args.ids.map((id) => resolveNode(String(id), principal, ctx)));
    },
  }),
);
