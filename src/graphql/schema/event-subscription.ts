import { z } from 'zod';
import { SUBSCRIBE_SCOPE } from '../../auth/scopes.js';
import { EVENT_FILTER_FIELDS } from '../../domain/dcsa/dcsa-event-filter.js';
import { policy } from '../../executor/field-policy.js';
import {
  createEventSubscription,
  deleteEventSubscription,
  requireEventSubscription,
  updateEventSubscription,
  updateEventSubscriptionSecret,
} from '../../push/event-subscription-service.js';
import { parseOrRefuse } from '../../arguments/dcsa-event-query.js';
import { DCSA, lookupError } from '../../errors/errors.js';
import { listDcsaSubscriptions, type DcsaSubscription, type DcsaSubscriptionSort } from '../../store/push/dcsa-subscriptions.js';
import { builder } from '../builder.js';
import {
  DocumentTypeCodeEnum,
  EquipmentEventTypeCodeEnum,
  EventTypeEnum,
  ShipmentEventTypeCodeEnum,
  TransportEventTypeCodeEnum,
} from './events.js';
import { badConnectionArgument, connectionOf, pagingDirection } from '../connection.js';

/**
 * DCSA Track & Trace 2.2 event subscriptions (docs/dcsa-events.md: Consuming the service as a DCSA publisher): the
 * /v2/event-subscriptions routes run these fields (src/rest/event-subscriptions-handler.ts). They need the
 * track-and-trace.subscribe scope, as webhook subscriptions do; a subscription is its owner client's alone.
 */

const FILTER_DESCRIPTIONS: Record<(typeof EVENT_FILTER_FIELDS)[number], string> = {
  eventType: 'SHIPMENT, TRANSPORT, EQUIPMENT: any of them.',
  shipmentEventTypeCode: 'Shipment events with any of these codes.',
  documentTypeCode: 'Shipment events about any of these kinds of document.',
  carrierBookingReference: 'Events of the shipment with this carrier booking reference.',
  transportDocumentReference: 'Events of the shipment with this bill of lading number.',
  transportEventTypeCode: 'Transport events with any of these codes (ARRI, DEPA).',
  transportCallID: 'Events at this transport call.',
  vesselIMONumber: "Events whose transport call's vessel has this IMO number.",
  exportVoyageNumber: "Events whose transport call's export voyage is this.",
  carrierServiceCode: "Events whose transport call's service is this.",
  UNLocationCode: "Events at this UN/LOCODE (the transport call's, or an equipment event's location).",
  equipmentEventTypeCode: 'Equipment events with any of these codes.',
  equipmentReference: 'Equipment events of this container.',
  carrierCode: 'Not in the DCSA standard: events this carrier (SCAC) published.',
};

/**
 * The list filters and the DCSA code-list enum of each: a value outside it is refused by GraphQL before the field
 * runs; one inside it but outside DCSA 2.2's own subset (e.g. PENC) by the filter's check, as on REST.
 */
const LISTS = {
  eventType: EventTypeEnum,
  shipmentEventTypeCode: ShipmentEventTypeCodeEnum,
  documentTypeCode: DocumentTypeCodeEnum,
  transportEventTypeCode: TransportEventTypeCodeEnum,
  equipmentEventTypeCode: EquipmentEventTypeCodeEnum,
} as const;
const listEnum = (name: string) => (Object.hasOwn(LISTS, name) ? LISTS[name as keyof typeof LISTS] : undefined);

export const EventSubscriptionType = builder.objectRef<DcsaSubscription>('EventSubscription').implement({
  description: 'A DCSA Track & Trace 2.2 event subscription: where to POST the events that pass its filters.',
  fields: (t) => ({
    subscriptionID: t.exposeString('subscriptionID', { description: 'UUID of the subscription.' }),
    callbackUrl: t.exposeString('callbackUrl', { description: 'Where notifications are POSTed.' }),
    ...Object.fromEntries(
      EVENT_FILTER_FIELDS.map((name) => [
        name,
        listEnum(name)
          ? t.field({
              type: [listEnum(name) as typeof EventTypeEnum],
              nullable: true,
              description: FILTER_DESCRIPTIONS[name],
              resolve: (s) => (s.filter[name] as string[] | undefined) ?? null,
            })
          : t.string({
              nullable: true,
              description: FILTER_DESCRIPTIONS[name],
              resolve: (s) => (s.filter[name] as string | undefined) ?? null,
            }),
      ]),
    ),
  }),
});

const EventSubscriptionRequestInput = builder.inputType('EventSubscriptionRequest', {
  description:
    'The DCSA 2.2 subscription body: callbackUrl, the Base64 secret (at creation only) and filters; every filter given ' +
    'must hold, a list holds when any of its values does.',
  fields: (t) => ({
    subscriptionID: t.string({ description: 'On update only: must be the subscription updated.' }),
    callbackUrl: t.string({ required: true, description: 'HTTPS URL the notifications are POSTed to (http and loopback in the sandbox).' }),
    secret: t.string({ description: 'At creation: the Base64 key (at least 32 bytes) of Notification-Signature (HMAC-SHA256).' }),
    ...Object.fromEntries(
      EVENT_FILTER_FIELDS.map((name) => [
        name,
        listEnum(name)
          ? t.field({ type: [listEnum(name) as typeof EventTypeEnum], description: FILTER_DESCRIPTIONS[name] })
          : t.string({ description: FILTER_DESCRIPTIONS[name] }),
      ]),
    ),
    bookingReference: t.string({ description: 'Deprecated in 2.2: carrierBookingReference.' }),
    carrierVoyageNumber: t.string({ description: 'Deprecated in 2.2: exportVoyageNumber.' }),
    transportDocumentID: t.string({ description: 'Deprecated in 2.2; refused.' }),
    transportDocumentTypeCode: t.stringList({ description: 'Deprecated in 2.2; refused.' }),
    scheduleID: t.string({ description: 'Deprecated in 2.2; refused.' }),
  }),
});

const EventSubscriptionSecretInput = builder.inputType('EventSubscriptionSecret', {
  description: 'A new secret for an event subscription.',
  fields: (t) => ({ secret: t.string({ description: 'The Base64 key (at least 32 bytes) of Notification-Signature.' }) }),
});

interface SubscriptionPage {
  subscriptions: DcsaSubscription[];
  currentPage: string;
  nextPage: string | null;
  previousPage: string | null;
  firstPage: string | null;
  lastPage: string | null;
}

const EventSubscriptionPageType = builder.objectRef<SubscriptionPage>('EventSubscriptionPage').implement({
  description: 'A page of your event subscriptions, and the cursors of the pages around it.',
  fields: (t) => ({
    subscriptions: t.expose('subscriptions', { type: [EventSubscriptionType], description: 'The subscriptions.' }),
    currentPage: t.exposeString('currentPage', { description: 'The cursor of this page.' }),
    nextPage: t.exposeString('nextPage', { nullable: true, description: 'The next page; null on the last.' }),
    previousPage: t.exposeString('previousPage', { nullable: true, description: 'The previous page; null on the first.' }),
    firstPage: t.exposeString('firstPage', { nullable: true, description: 'The first page; null on the first.' }),
    lastPage: t.exposeString('lastPage', { nullable: true, description: 'The last page; null on the last.' }),
  }),
});

const SORT_FIELDS = ['subscriptionID', 'callbackUrl'] as const;
const MAX_LIMIT = 1000;
const PAGE = z.strictObject({
  offset: z.int().min(0),
  limit: z.int().min(1).max(MAX_LIMIT),
  sort: z.array(z.strictObject({ field: z.enum(SORT_FIELDS), descending: z.boolean() })).max(SORT_FIELDS.length),
});
type Page = z.output<typeof PAGE>;

function refusal(property: string, message: string) {
  return lookupError('BAD_USER_INPUT', message, [{ ...DCSA.invalidParameter, property, errorCodeMessage: message }]);
}

/** The page a request asks for: its cursor's (the cursor alone), or the first one of its limit and sort. */
function requestedPage(args: { limit?: number | null; cursor?: string | null; sort?: string | null }): Page {
  if (args.cursor != null) {
    if (args.limit != null || args.sort != null) throw refusal('cursor', 'a cursor carries its limit and sort: send it alone');
    try {
      return PAGE.parse(JSON.parse(Buffer.from(args.cursor, 'base64url').toString('utf8')));
    } catch {
      throw refusal('cursor', 'cursor is not a page cursor this service handed out');
    }
  }
  const limit = args.limit == null ? 100 : parseOrRefuse(z.int().min(1).max(MAX_LIMIT, `limit must be 1 to ${MAX_LIMIT}`), args.limit);
  const sort: DcsaSubscriptionSort = [];
  for (const part of args.sort ? args.sort.split(',') : []) {
    const [field = '', direction = 'ASC', ...rest] = part.trim().split(':');
    if (!(SORT_FIELDS as readonly string[]).includes(field) || rest.length > 0 || !/^(ASC|DESC)$/i.test(direction)) {
      throw refusal('sort', `sort must list fields of ${SORT_FIELDS.join(', ')}, each optionally followed by :ASC or :DESC`);
    }
    sort.push({ field: field as (typeof SORT_FIELDS)[number], descending: direction.toUpperCase() === 'DESC' });
  }
  return { offset: 0, limit, sort: sort as Page['sort'] };
}

const cursorOf = (page: Page) => Buffer.from(JSON.stringify(page), 'utf8').toString('base64url');

builder.queryField('eventSubscriptions', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    deprecationReason: 'Use eventSubscriptionsConnection',
    type: EventSubscriptionPageType,
    description: 'Your DCSA event subscriptions, oldest first unless sorted. Requires the track-and-trace.subscribe scope.',
    args: {
      limit: t.arg.int({ description: `Subscriptions per page, 1 to ${MAX_LIMIT}; default 100.` }),
      sort: t.arg.string({ description: 'subscriptionID or callbackUrl, each optionally :ASC or :DESC, comma-separated.' }),
      cursor: t.arg.string({ description: 'A page cursor from an earlier page.' }),
    },
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      const page = requestedPage(args);
      const { subscriptions, total } = await listDcsaSubscriptions(ctx.services.database.db, principal.clientId, {
        offset: page.offset,
        limit: page.limit,
        sort: page.sort.length > 0 ? page.sort : [{ field: 'createdDateTime', descending: false }],
      });
      const at = (offset: number) => cursorOf({ ...page, offset });
      const hasNext = page.offset + page.limit < total;
      const lastOffset = Math.max(0, Math.floor((total - 1) / page.limit) * page.limit);
      return {
        subscriptions,
        currentPage: at(page.offset),
        nextPage: hasNext ? at(page.offset + page.limit) : null,
        previousPage: page.offset > 0 ? at(Math.max(0, page.offset - page.limit)) : null,
        firstPage: page.offset > 0 ? at(0) : null,
        lastPage: hasNext ? at(lastOffset) : null,
      };
    },
  }),
);

/** An edge's cursor: the subscription's position in its order (which the cursor carries). */
const EDGE_CURSOR = z.strictObject({ at: z.int().min(0), sort: PAGE.shape.sort });
const edgeCursor = (at: number, sort: Page['sort']) => Buffer.from(JSON.stringify({ at, sort }), 'utf8').toString('base64url');

function parseEdgeCursor(cursor: string, property: string): z.output<typeof EDGE_CURSOR> {
  try {
    return EDGE_CURSOR.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw badConnectionArgument(property, `${property} is not a cursor this service handed out`);
  }
}

const EventSubscriptionConnectionType = builder.connectionObject(
  {
    type: EventSubscriptionType,
    name: 'EventSubscriptionConnection',
    description: 'A page of your event subscriptions.',
    fields: (t) => ({
      totalCount: t.exposeInt('totalCount' as never, { description: 'How many subscriptions you have in all.' }),
    }),
  },
  { description: 'An event subscription, and the cursor to page on from it.' },
);

builder.queryField('eventSubscriptionsConnection', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: EventSubscriptionConnectionType,
    description:
      'Your DCSA event subscriptions, oldest first unless sorted, forward (first, after) or backward (last, before). ' +
      'Requires the track-and-trace.subscribe scope.',
    args: {
      first: t.arg.int({ description: `Subscriptions per page, 1 to ${MAX_LIMIT}; default 100.` }),
      after: t.arg.string({ description: 'A cursor of an earlier page: the subscriptions after it.' }),
      last: t.arg.int({ description: `Subscriptions per page read backward, 1 to ${MAX_LIMIT}.` }),
      before: t.arg.string({ description: 'A cursor of an earlier page: the subscriptions before it.' }),
      sort: t.arg.string({
        description: 'subscriptionID or callbackUrl, each optionally :ASC or :DESC, comma-separated; a cursor carries its own.',
      }),
    },
    validate: z
      .object({ after: z.string().max(500, 'after is at most 500 characters').nullish(), before: z.string().max(500).nullish() })
      .loose(),
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      const direction = pagingDirection(args, 100, MAX_LIMIT);
      const given = direction.forward ? direction.after : direction.before;
      const cursor = given === null ? null : parseEdgeCursor(given, direction.forward ? 'after' : 'before');
      if (cursor && args.sort != null) throw refusal('sort', 'a cursor carries its sort: send it without sort');
      const sort = cursor?.sort ?? requestedPage({ sort: args.sort }).sort;
      const read = (offset: number, limit: number) =>
        listDcsaSubscriptions(ctx.services.database.db, principal.clientId, {
          offset,
          limit,
          sort: sort.length > 0 ? sort : [{ field: 'createdDateTime', descending: false }],
        });
      let offset: number;
      let limit = direction.size;
      if (direction.forward) offset = cursor ? cursor.at + 1 : 0;
      else {
        const end = cursor ? cursor.at : (await read(0, 1)).total;
        offset = Math.max(0, end - direction.size);
        limit = end - offset;
      }
      const { subscriptions, total } = await read(offset, limit);
      const connection = connectionOf(subscriptions, (_s, i) => edgeCursor(offset + i, sort), {
        hasNextPage: offset + subscriptions.length < total,
        hasPreviousPage: offset > 0,
      });
      return { ...connection, totalCount: total };
    },
  }),
);

builder.queryField('eventSubscription', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: EventSubscriptionType,
    description: "One of your DCSA event subscriptions; NOT_FOUND for another client's or an unknown one.",
    args: { subscriptionID: t.arg.string({ required: true, description: 'The subscription.' }) },
    resolve: async (_root, args, ctx) => requireEventSubscription(ctx.services.database.db, await ctx.principal(), args.subscriptionID),
  }),
);

builder.mutationField('createEventSubscription', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: EventSubscriptionType,
    description:
      'Subscribe to DCSA 2.2 notifications: the events that pass the filters are POSTed to callbackUrl, signed ' +
      '(Notification-Signature: sha256=HMAC of the body under the Base64-decoded secret). Requires the ' +
      'track-and-trace.subscribe scope; counts toward the per-client subscription cap.',
    args: { request: t.arg({ type: EventSubscriptionRequestInput, required: true, description: 'The subscription body.' }) },
    resolve: async (_root, args, ctx) =>
      createEventSubscription(ctx.services.database.db, ctx.services.push, await ctx.principal(), args.request, ctx.services.now()),
  }),
);

builder.mutationField('updateEventSubscription', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: EventSubscriptionType,
    description: 'Replaces the callback URL and filters of one of your event subscriptions (not its secret).',
    args: {
      subscriptionID: t.arg.string({ required: true, description: 'The subscription.' }),
      request: t.arg({ type: EventSubscriptionRequestInput, required: true, description: 'The new subscription body, without secret.' }),
    },
    resolve: async (_root, args, ctx) =>
      updateEventSubscription(
        ctx.services.database.db,
        ctx.services.push,
        await ctx.principal(),
        args.subscriptionID,
        args.request,
        ctx.services.now(),
      ),
  }),
);

builder.mutationField('deleteEventSubscription', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: 'Boolean',
    description: 'Stops and removes one of your event subscriptions; its pending notifications are given up.',
    args: { subscriptionID: t.arg.string({ required: true, description: 'The subscription.' }) },
    resolve: async (_root, args, ctx) => {
      await deleteEventSubscription(ctx.services.database.db, await ctx.principal(), args.subscriptionID, ctx.services.now());
      return true;
    },
  }),
);

builder.mutationField('updateEventSubscriptionSecret', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: 'Boolean',
    description: 'A new Notification-Signature secret for one of your event subscriptions, used from the next notification on.',
    args: {
      subscriptionID: t.arg.string({ required: true, description: 'The subscription.' }),
      request: t.arg({ type: EventSubscriptionSecretInput, required: true, description: 'The new secret.' }),
    },
    resolve: async (_root, args, ctx) => {
      await updateEventSubscriptionSecret(
        ctx.services.database.db,
        ctx.services.push,
        await ctx.principal(),
        args.subscriptionID,
        args.request,
        ctx.services.now(),
      );
      return true;
    },
  }),
);
