import { z } from 'zod';
import type { GraphQLResolveInfo } from 'graphql';
import { READ_SCOPE } from '../../auth/scopes.js';
import { ChangeCursorExpiredError, InvalidChangeCursorError } from '../../domain/change-cursor.js';
import { decodeShipmentCursor, encodeShipmentCursor, InvalidFeedCursorError } from '../../domain/feed-cursor.js';
import { policy } from '../../executor/field-policy.js';
import { RETRY_AFTER_SECONDS } from '../../db/unavailable.js';
import { DCSA, lookupError, serviceUnavailableError } from '../../errors/errors.js';
import { countAccountFeedPage } from '../../observability/metrics.js';
import {
  DEFAULT_FEED_LIMIT,
  MAX_FEED_LIMIT,
  readAccountFeed,
  visibleShipments,
  type AccountShipment,
  type FeedChange,
  type FeedEntry,
  type FeedPage,
} from '../../store/changes/account-feed.js';
import { FeedBusyError, withFeedReadSlot } from '../../store/changes/feed-read-gate.js';
import { builder } from '../builder.js';
import { connectionOf, pagingDirection } from '../connection.js';
import type { GraphQLContext } from '../context.js';
import { ShipmentSource } from '../shipment-source.js';
import { ExceptionTypeEnum } from './exception.js';
import { ShipmentTrackingType } from './shipment-tracking.js';
import { TriggerTypeEnum } from './transmission.js';

/**
 * An account's view (docs/account-feed.md): the change feed of every shipment the caller's account sees
 * (`accountChanges`, behind GET /v2/changes) and the `shipments` connection for dashboards. Both follow the
 * lookup's tenant rule and need the read scope; cursors are opaque and good on every instance and after restarts.
 */

/** Snapshots rendered in one page at most: a page of full snapshots is a page of lookups. */
export const MAX_SNAPSHOTS_PER_PAGE = 100;
const DEFAULT_SHIPMENTS_PAGE = 50;
const MAX_SHIPMENTS_PAGE = 500;

const ShipmentChangeType = builder.objectRef<FeedChange>('ShipmentChange').implement({
  description:
    'One change of a shipment, as push delivery sends it (the same triggers as webhooks and live updates), or of your ' +
    "account's access to it: GRANTED (your account was given the shipment), REVOKED (it was taken back).",
  fields: (t) => ({
    triggerType: t.field({ type: TriggerTypeEnum, description: 'What changed.', resolve: (c) => c.triggerType }),
    triggeredByEvent: t.exposeString('triggeredByEvent', { nullable: true, description: 'The eventID that caused it.' }),
    exceptionID: t.exposeString('exceptionID', { nullable: true, description: 'For exception triggers: the exception.' }),
    exceptionType: t.field({
      type: ExceptionTypeEnum,
      nullable: true,
      description: "For exception triggers: the exception's type.",
      resolve: (c) => c.exceptionType as never,
    }),
    changedDateTime: t.expose('changedAt', { type: 'DateTime', description: 'When the change was committed.' }),
  }),
});

function shipmentFields<T extends AccountShipment>(t: PothosFieldBuilder<T>) {
  return {
    carrierCode: t.string({ description: 'Carrier SCAC code.', resolve: (s) => s.row.carrier_code }),
    carrierBookingReference: t.string({ description: 'Carrier booking number.', resolve: (s) => s.row.carrier_booking_reference }),
    billOfLadingNumber: t.string({ nullable: true, description: 'Bill of lading number.', resolve: (s) => s.billOfLadingNumber }),
    version: t.int({
      description: "The shipment's current version: it moves with every change to the shipment, its events or its exceptions.",
      resolve: (s) => s.row.version,
    }),
    shipmentTracking: t.field({
      type: ShipmentTrackingType,
      // Never null: nullable so that REST bodies, which carry it only on request (include=snapshot), document it as optional.
      nullable: true,
      description: 'The current snapshot, as the lookup returns it (loaded only when selected).',
      resolve: (s, _args, ctx) => new ShipmentSource(s.row, ctx.services.snapshots.snapshot(s.row)),
    }),
  };
}
type PothosFieldBuilder<T extends AccountShipment> = Parameters<
  Parameters<ReturnType<typeof builder.objectRef<T>>['implement']>[0]['fields'] & object
>[0];

const AccountChangeType = builder.objectRef<FeedEntry>('AccountChange').implement({
  description:
    'A shipment your account sees and what changed: in the first listing (no cursor) each shipment once with no changes; ' +
    'after a cursor, the changes of this page, in commit order.',
  fields: (t) => ({
    ...shipmentFields(t),
    // A shipment taken back from the account shows its identifiers and its access changes, nothing more.
    version: t.int({
      nullable: true,
      description:
        "The shipment's current version: it moves with every change to the shipment, its events or its exceptions. " +
        'Null (absent in REST) when your account no longer sees the shipment (its changes end with REVOKED).',
      resolve: (e) => (e.visible ? e.row.version : null),
    }),
    shipmentTracking: t.field({
      type: ShipmentTrackingType,
      nullable: true,
      description:
        'The current snapshot, as the lookup returns it (loaded only when selected); null (absent in REST) when your ' +
        'account no longer sees the shipment.',
      resolve: (e, _args, ctx) => (e.visible ? new ShipmentSource(e.row, ctx.services.snapshots.snapshot(e.row)) : null),
    }),
    changedDateTime: t.expose('changedAt', {
      type: 'DateTime',
      description: 'When it last changed: its last change in this page (in the listing, when the shipment last changed).',
    }),
    changes: t.field({
      type: [ShipmentChangeType],
      description: 'What changed, in commit order; empty in the listing.',
      resolve: (e) => e.changes,
    }),
  }),
});

const AccountChangePageType = builder.objectRef<FeedPage>('AccountChangePage').implement({
  description: 'One page of the change feed.',
  fields: (t) => ({
    changes: t.field({ type: [AccountChangeType], description: 'The shipments of this page.', resolve: (p) => p.entries }),
    next: t.exposeString('next', { description: 'The cursor to read after this page: pass it as `after` (now, or on your next poll).' }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More may follow at once; false: caught up, poll `next` later.' }),
  }),
});

const AccountShipmentType = builder.objectRef<AccountShipment>('AccountShipment').implement({
  description: 'A shipment your account sees.',
  fields: (t) => ({
    ...shipmentFields(t),
    updatedDateTime: t.expose('updatedAt', { type: 'DateTime', description: 'When the shipment last changed.' }),
  }),
});

interface ShipmentConnection {
  nodes: AccountShipment[];
  endCursor: string | null;
  hasNextPage: boolean;
}

const PageInfoType = builder.objectRef<ShipmentConnection>('ShipmentPageInfo').implement({
  description: 'Where the page ends.',
  fields: (t) => ({
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Pass as `after` for the next page; null for an empty page.' }),
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'More shipments follow.' }),
  }),
});

const ShipmentConnectionType = builder.objectRef<ShipmentConnection>('ShipmentConnection').implement({
  description: 'A page of your shipments, in a stable order.',
  fields: (t) => ({
    nodes: t.field({ type: [AccountShipmentType], description: 'The shipments of this page.', resolve: (c) => c.nodes }),
    pageInfo: t.field({ type: PageInfoType, description: 'Where the page ends.', resolve: (c) => c }),
  }),
});

function badCursor(property: string, message: string) {
  return lookupError('BAD_USER_INPUT', message, [{ ...DCSA.invalidParameter, property, errorCodeMessage: message }]);
}

/** Whether the field's selection asks for snapshots (changes { shipmentTracking }), fragments included. */
function selectsSnapshots(info: GraphQLResolveInfo, below = 0): boolean {
  // `below`: how many levels of objects stand between the field and its entries (edges { node } in a connection).
  const visit = (set: { selections: readonly any[] } | undefined, depth: number): boolean =>
    !!set &&
    set.selections.some((s) => {
      if (s.kind === 'Field') return s.name.value === 'shipmentTracking' || (depth < 1 + below && visit(s.selectionSet, depth + 1));
      if (s.kind === 'InlineFragment') return visit(s.selectionSet, depth);
      if (s.kind === 'FragmentSpread') return visit(info.fragments[s.name.value]?.selectionSet, depth);
      return false;
    });
  return info.fieldNodes.some((node) => visit(node.selectionSet, 0));
}

/** One page of the account feed, with the field's refusals for bad limits and cursors. */
async function readFeedPage(
  ctx: GraphQLContext,
  after: string | null,
  limit: number,
  info: GraphQLResolveInfo,
  below = 0,
): Promise<FeedPage> {
  if (limit > MAX_SNAPSHOTS_PER_PAGE && selectsSnapshots(info, below)) {
    throw badCursor('limit', `limit must be at most ${MAX_SNAPSHOTS_PER_PAGE} when snapshots are included`);
  }
  const principal = await ctx.principal();
  try {
    // At most a share of the pool reads feed pages at once; beyond it a page waits briefly for a place, then is refused.
    const { database } = ctx.services;
    const page = await withFeedReadSlot(database, () => readAccountFeed(database.db, { accountIds: principal.accountIds, after, limit }));
    countAccountFeedPage(page.phase, page.entries.length);
    return page;
  } catch (err) {
    if (err instanceof FeedBusyError) throw serviceUnavailableError(RETRY_AFTER_SECONDS);
    if (err instanceof InvalidFeedCursorError || err instanceof InvalidChangeCursorError) {
      throw badCursor('after', 'after is not a cursor of this service: pass a `next` value as it was given');
    }
    if (err instanceof ChangeCursorExpiredError) {
      const message = 'the changes after this cursor are no longer kept: start again without `after`';
      throw lookupError('GONE', message, [{ ...DCSA.invalidParameter, property: 'after', errorCodeMessage: message }]);
    }
    throw err;
  }
}

/** One page of the shipments the caller's accounts see, in id order, filtered. */
async function readShipmentsPage(
  ctx: GraphQLContext,
  args: { after?: string | null; carrierCode?: string | null; exceptionType?: string | null; updatedSince?: string | null },
  limit: number,
) {
  let afterId = 0;
  if (args.after != null) {
    try {
      afterId = decodeShipmentCursor(args.after);
    } catch {
      throw badCursor('after', 'after is not a cursor of this service: pass an endCursor as it was given');
    }
  }
  const principal = await ctx.principal();
  return visibleShipments(ctx.services.database.db, principal.accountIds, {
    afterId,
    limit,
    ...(args.carrierCode != null ? { carrierCode: args.carrierCode } : {}),
    ...(args.exceptionType != null ? { openExceptionType: args.exceptionType } : {}),
    ...(args.updatedSince != null ? { updatedSince: args.updatedSince } : {}),
  });
}

builder.queryField('accountChanges', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups' }),
    deprecationReason: 'Use accountChangesConnection',
    type: AccountChangePageType,
    description:
      'What changed for your account: without `after`, every shipment your account sees, each once at its current ' +
      'version; then, from the `next` cursor of the last page, the shipments that changed since, with what changed. ' +
      'Requires a bearer token with scope track-and-trace.read.',
    args: {
      after: t.arg.string({ required: false, description: 'A `next` cursor of an earlier page; leave out to start with every shipment.' }),
      limit: t.arg.int({
        required: false,
        description: `Changes (in the listing: shipments) per page, 1 to ${MAX_FEED_LIMIT}; default ${DEFAULT_FEED_LIMIT}; at most ${MAX_SNAPSHOTS_PER_PAGE} when shipmentTracking is selected.`,
      }),
    },
    validate: z
      .object({
        limit: z.int().min(1, `limit must be 1 to ${MAX_FEED_LIMIT}`).max(MAX_FEED_LIMIT, `limit must be 1 to ${MAX_FEED_LIMIT}`).nullish(),
        after: z.string().max(200, 'after is not a cursor of this service').nullish(),
      })
      .loose(),
    resolve: (_root, args, ctx: GraphQLContext, info) => readFeedPage(ctx, args.after ?? null, args.limit ?? DEFAULT_FEED_LIMIT, info),
  }),
);

builder.queryField('shipments', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups' }),
    deprecationReason: 'Use shipmentsConnection',
    type: ShipmentConnectionType,
    description:
      'The shipments your account sees, in a stable order, filtered: for dashboards. Requires a bearer token with scope track-and-trace.read.',
    args: {
      first: t.arg.int({
        required: false,
        description: `Shipments per page, 1 to ${MAX_SHIPMENTS_PAGE}; default ${DEFAULT_SHIPMENTS_PAGE}.`,
      }),
      after: t.arg.string({ required: false, description: 'The endCursor of the previous page.' }),
      carrierCode: t.arg.string({ required: false, description: 'Only shipments of this carrier (SCAC code).' }),
      exceptionType: t.arg({
        type: ExceptionTypeEnum,
        required: false,
        description: 'Only shipments with an open exception of this type.',
      }),
      updatedSince: t.arg({ type: 'DateTime', required: false, description: 'Only shipments that changed at or after this time.' }),
    },
    validate: z
      .object({
        first: z
          .int()
          .min(1, `first must be 1 to ${MAX_SHIPMENTS_PAGE}`)
          .max(MAX_SHIPMENTS_PAGE, `first must be 1 to ${MAX_SHIPMENTS_PAGE}`)
          .nullish(),
        carrierCode: z
          .string()
          .regex(/^[A-Z]{2,4}$/, 'carrierCode must be a carrier SCAC code of 2 to 4 upper-case letters')
          .nullish(),
        after: z.string().max(200, 'after is not a cursor of this service').nullish(),
      })
      .loose(),
    resolve: async (_root, args, ctx: GraphQLContext) => {
      const { shipments, more } = await readShipmentsPage(ctx, args as never, args.first ?? DEFAULT_SHIPMENTS_PAGE);
      const last = shipments.at(-1);
      return { nodes: shipments, endCursor: last ? encodeShipmentCursor(last.row.id) : null, hasNextPage: more };
    },
  }),
);

const MAX_CONNECTION_SHIPMENTS = 100;

const ShipmentTrackingConnectionType = builder.connectionObject(
  {
    type: ShipmentTrackingType,
    name: 'ShipmentTrackingConnection',
    description: 'A page of the shipments your account sees, in a stable order.',
  },
  {
    description: 'A shipment of the page, and the cursor to page on from it.',
    fields: (t) => ({
      version: t.int({
        description: "The shipment's current version: it moves with every change to the shipment, its events or its exceptions.",
        resolve: (edge) => (edge as ShipmentEdge).version,
      }),
      updatedDateTime: t.field({
        type: 'DateTime',
        description: 'When the shipment last changed.',
        resolve: (edge) => (edge as ShipmentEdge).updatedDateTime,
      }),
    }),
  },
);

/** An edge of shipmentsConnection: what the listing read of the shipment beside the node. */
interface ShipmentEdge {
  cursor: string;
  node: ShipmentSource;
  version: number;
  updatedDateTime: string;
}

builder.queryField('shipmentsConnection', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups' }),
    type: ShipmentTrackingConnectionType,
    description:
      'The shipments your account sees, in a stable order (new shipments last), filtered: for dashboards. Each node is the ' +
      'snapshot the lookup returns, loaded only as far as it is selected. Requires a bearer token with scope track-and-trace.read.',
    args: {
      first: t.arg.int({
        required: false,
        description: `Shipments per page, 1 to ${MAX_CONNECTION_SHIPMENTS}; default ${DEFAULT_SHIPMENTS_PAGE}.`,
      }),
      after: t.arg.string({ required: false, description: 'The endCursor (or any cursor) of an earlier page: the page after it.' }),
      carrierCode: t.arg.string({ required: false, description: 'Only shipments of this carrier (SCAC code).' }),
      exceptionType: t.arg({
        type: ExceptionTypeEnum,
        required: false,
        description: 'Only shipments with an open exception of this type.',
      }),
      updatedSince: t.arg({ type: 'DateTime', required: false, description: 'Only shipments that changed at or after this time.' }),
    },
    validate: z
      .object({
        carrierCode: z
          .string()
          .regex(/^[A-Z]{2,4}$/, 'carrierCode must be a carrier SCAC code of 2 to 4 upper-case letters')
          .nullish(),
        after: z.string().max(200, 'after is not a cursor of this service').nullish(),
      })
      .loose(),
    resolve: async (_root, args, ctx: GraphQLContext) => {
      const { size } = pagingDirection(args, DEFAULT_SHIPMENTS_PAGE, MAX_CONNECTION_SHIPMENTS);
      const { shipments, more } = await readShipmentsPage(ctx, args as never, size);
      const connection = connectionOf(shipments, (s) => encodeShipmentCursor(s.row.id), { hasNextPage: more, hasPreviousPage: false });
      const edges: ShipmentEdge[] = connection.edges.map(({ cursor, node: s }) => ({
        cursor,
        node: new ShipmentSource(s.row, ctx.services.snapshots.snapshot(s.row)),
        version: s.row.version,
        updatedDateTime: s.updatedAt,
      }));
      return { ...connection, edges };
    },
  }),
);

const AccountChangeConnectionType = builder.connectionObject(
  {
    type: AccountChangeType,
    name: 'AccountChangeConnection',
    description:
      'A page of the change feed: first every shipment your account sees, then the shipments that changed, with what changed. ' +
      'hasNextPage false: caught up; keep endCursor and ask again after it later.',
  },
  {
    description:
      'A shipment and its changes of this page. Its cursor resumes after it: nothing later is skipped (a change may come again).',
  },
);

builder.queryField('accountChangesConnection', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups' }),
    type: AccountChangeConnectionType,
    description:
      'What changed for your account, as a connection: without `after`, every shipment your account sees, each once at its ' +
      'current version; then, after the endCursor of the last page, the shipments that changed since, with what changed. ' +
      'endCursor is set on every page, an empty one included: poll after it. Requires a bearer token with scope track-and-trace.read.',
    args: {
      first: t.arg.int({
        required: false,
        description: `Changes (in the listing: shipments) per page, 1 to ${MAX_FEED_LIMIT}; default ${DEFAULT_FEED_LIMIT}; at most ${MAX_SNAPSHOTS_PER_PAGE} when shipmentTracking is selected.`,
      }),
      after: t.arg.string({ required: false, description: 'A cursor of an earlier page; leave out to start with every shipment.' }),
    },
    validate: z.object({ after: z.string().max(200, 'after is not a cursor of this service').nullish() }).loose(),
    resolve: async (_root, args, ctx: GraphQLContext, info) => {
      const { size, after } = pagingDirection(args, DEFAULT_FEED_LIMIT, MAX_FEED_LIMIT) as { size: number; after: string | null };
      const page = await readFeedPage(ctx, after, size, info, 1);
      const connection = connectionOf(page.entries, (e) => e.cursor, { hasNextPage: page.hasMore, hasPreviousPage: false });
      // An empty page still says where to poll from.
      return page.entries.length === 0 ? { ...connection, pageInfo: { ...connection.pageInfo, endCursor: page.next } } : connection;
    },
  }),
);
