import { z } from 'zod';
import { TRACK_SCOPE } from '../../auth/scopes.js';
import {
  encodeCursor as trackingRequestCursor,
  pageOfTrackingRequests,
  requestTracking,
  requireTrackingRequest,
  stopTracking,
} from '../../carriers/tracking-request-service.js';
import { policy } from '../../executor/field-policy.js';
import type { TrackingRequestView } from '../../store/carriers/tracking-requests.js';
import { builder } from '../builder.js';
import { connectionOf, pagingDirection } from '../connection.js';

/**
 * Tracking requests (docs/tracking-requests.md): a client asks the service to follow a bill of lading, a booking
 * or a container, and the service fetches it from the carrier. The /v2/tracking-requests routes run these fields
 * (src/rest/tracking-requests-handler.ts). They need the track-and-trace.track scope; a request is its client's alone.
 */

export const TrackingRequestStatusEnum = builder.enumType('TrackingRequestStatus', {
  description: 'Where a tracking request stands.',
  values: {
    PENDING: { description: 'Accepted; the carrier has not been asked yet.' },
    TRACKING: { description: "The carrier's events were found: the shipment is served and followed." },
    AWAITING_CARRIER_DATA: { description: 'The carrier has nothing for this reference yet; it is asked again until the give-up time.' },
    FAILED: { description: 'Given up: the carrier had nothing within the give-up time, or cannot be asked (see failureReason).' },
    STOPPED: { description: 'No longer followed: DELETED by the client, COMPLETED, or GIVEN_UP after a long silence (see stopReason).' },
  },
});

interface TrackedShipment {
  carrierCode: string;
  carrierBookingReference: string;
  billOfLadingNumber: string | null;
}

const TrackedShipmentType = builder.objectRef<TrackedShipment>('TrackedShipment').implement({
  description: 'The shipment a tracking request found: look it up with these (GET /v2/shipments, GraphQL shipment).',
  fields: (t) => ({
    carrierCode: t.exposeString('carrierCode', { description: 'Carrier SCAC code.' }),
    carrierBookingReference: t.exposeString('carrierBookingReference', { description: 'Carrier booking reference.' }),
    billOfLadingNumber: t.exposeString('billOfLadingNumber', { nullable: true, description: 'Bill of lading number, when known.' }),
  }),
});

export const TrackingRequestType = builder.objectRef<TrackingRequestView>('TrackingRequest').implement({
  description: 'A request to track one reference with one carrier.',
  fields: (t) => ({
    trackingRequestID: t.exposeString('trackingRequestID', { description: 'UUID of the request.' }),
    status: t.field({ type: TrackingRequestStatusEnum, description: 'Where it stands.', resolve: (r) => r.status }),
    carrierCode: t.exposeString('carrierCode', { description: 'The carrier asked (given, or recognised from the prefix).' }),
    transportDocumentReference: t.string({
      nullable: true,
      description: 'The bill of lading tracked.',
      resolve: (r) => (r.kind === 'TRD' ? r.reference : null),
    }),
    carrierBookingReference: t.string({
      nullable: true,
      description: 'The carrier booking tracked.',
      resolve: (r) => (r.kind === 'BKG' ? r.reference : null),
    }),
    equipmentReference: t.string({
      nullable: true,
      description: 'The container tracked.',
      resolve: (r) => (r.kind === 'EQ' ? r.reference : null),
    }),
    failureReason: t.exposeString('failureReason', { nullable: true, description: 'When FAILED: why.' }),
    stopReason: t.exposeString('stopReason', { nullable: true, description: 'When STOPPED: DELETED, COMPLETED or GIVEN_UP.' }),
    shipment: t.field({
      type: TrackedShipmentType,
      nullable: true,
      description: 'The shipment found, once TRACKING.',
      resolve: (r) => r.shipment,
    }),
    eventsReceived: t.exposeInt('eventsReceived', { description: "The carrier's events received for the reference so far." }),
    createdDateTime: t.expose('createdDateTime', { type: 'DateTime', description: 'When it was made.' }),
    updatedDateTime: t.expose('updatedDateTime', { type: 'DateTime', description: 'When it last changed.' }),
    statusChangedDateTime: t.expose('statusChangedDateTime', { type: 'DateTime', description: 'When its status last changed.' }),
    trackingSinceDateTime: t.expose('trackingSinceDateTime', {
      type: 'DateTime',
      nullable: true,
      description: "When the carrier's events were first found.",
    }),
    lastFetchedDateTime: t.expose('lastFetchedDateTime', {
      type: 'DateTime',
      nullable: true,
      description: 'When the carrier was last asked.',
    }),
    nextFetchDateTime: t.expose('nextFetchDateTime', {
      type: 'DateTime',
      nullable: true,
      description: 'While followed: when the carrier is asked next.',
    }),
  }),
});

const TrackingRequestPageType = builder
  .objectRef<{ trackingRequests: TrackingRequestView[]; nextCursor: string | null }>('TrackingRequestPage')
  .implement({
    description: 'A page of your tracking requests, oldest first.',
    fields: (t) => ({
      trackingRequests: t.field({ type: [TrackingRequestType], description: 'The requests.', resolve: (p) => p.trackingRequests }),
      nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' }),
    }),
  });

const TrackingRequestCreatedType = builder
  .objectRef<{ trackingRequest: TrackingRequestView; created: boolean }>('TrackingRequestCreated')
  .implement({
    description: 'The request made, or your active request for the same reference (created false).',
    fields: (t) => ({
      trackingRequest: t.field({ type: TrackingRequestType, description: 'The request.', resolve: (r) => r.trackingRequest }),
      created: t.exposeBoolean('created', { description: 'False when your active request for this reference was returned.' }),
    }),
  });

export const TrackingRequestInput = builder.inputType('TrackingRequestInput', {
  description: 'What to track: exactly one reference, and the carrier (optional for a bill of lading or a container).',
  fields: (t) => ({
    transportDocumentReference: t.string({ description: 'A bill of lading number.' }),
    carrierBookingReference: t.string({ description: 'A carrier booking reference (carrierCode required).' }),
    equipmentReference: t.string({ description: 'A container number (ISO 6346).' }),
    carrierCode: t.string({
      description: "The carrier's SCAC code; default: recognised from the reference's prefix among the configured carriers.",
    }),
  }),
});

const ID = z.string().max(100, 'trackingRequestID is at most 100 characters');

builder.queryField('trackingRequests', (t) =>
  t.field({
    ...policy({ access: { scope: TRACK_SCOPE }, quota: 'subscriptions' }),
    deprecationReason: 'Use trackingRequestsConnection',
    type: TrackingRequestPageType,
    description: 'Your tracking requests, oldest first, a page at a time. Requires the track-and-trace.track scope.',
    args: {
      cursor: t.arg.string({ required: false, description: 'nextCursor of the previous page; absent for the first.' }),
      limit: t.arg.int({ required: false, description: 'At most this many, 1 to 500; default 100.' }),
    },
    validate: z
      .object({
        cursor: z.string().max(200, 'cursor is at most 200 characters').nullish(),
        limit: z.int().min(1, 'limit must be 1 to 500').max(500, 'limit must be 1 to 500').nullish(),
      })
      .loose(),
    resolve: async (_root, args, ctx) =>
      pageOfTrackingRequests(ctx.services.database, await ctx.principal(), { after: args.cursor, limit: args.limit }),
  }),
);

const TrackingRequestConnectionType = builder.connectionObject(
  { type: TrackingRequestType, name: 'TrackingRequestConnection', description: 'A page of your tracking requests, oldest first.' },
  { description: 'A tracking request, and the cursor to page on from it.' },
);

builder.queryField('trackingRequestsConnection', (t) =>
  t.field({
    ...policy({ access: { scope: TRACK_SCOPE }, quota: 'subscriptions' }),
    type: TrackingRequestConnectionType,
    description: 'Your tracking requests, oldest first, a page at a time. Requires the track-and-trace.track scope.',
    args: {
      first: t.arg.int({ required: false, description: 'At most this many, 1 to 500; default 100.' }),
      after: t.arg.string({ required: false, description: 'A cursor of an earlier page (its endCursor): the requests after it.' }),
    },
    validate: z.object({ after: z.string().max(200, 'after is at most 200 characters').nullish() }).loose(),
    resolve: async (_root, args, ctx) => {
      const { size } = pagingDirection(args, 100, 500);
      const page = await pageOfTrackingRequests(ctx.services.database, await ctx.principal(), { after: args.after, limit: size }, 'after');
      return connectionOf(page.trackingRequests, trackingRequestCursor, { hasNextPage: page.more, hasPreviousPage: false });
    },
  }),
);

builder.queryField('trackingRequest', (t) =>
  t.field({
    ...policy({ access: { scope: TRACK_SCOPE }, quota: 'subscriptions' }),
    type: TrackingRequestType,
    description: "One of your tracking requests; NOT_FOUND for another client's or an unknown one.",
    args: { trackingRequestID: t.arg.string({ required: true, description: 'The request.' }) },
    validate: z.object({ trackingRequestID: ID }).loose(),
    resolve: async (_root, args, ctx) => requireTrackingRequest(ctx.services.database, await ctx.principal(), args.trackingRequestID),
  }),
);

builder.mutationField('createTrackingRequest', (t) =>
  t.field({
    ...policy({ access: { scope: TRACK_SCOPE }, quota: 'subscriptions' }),
    type: TrackingRequestCreatedType,
    description:
      'Start tracking a reference: the service fetches it from the carrier and serves its shipment to your accounts once found. ' +
      'Asking again for a reference you track returns your request. Requires the track-and-trace.track scope.',
    args: { request: t.arg({ type: TrackingRequestInput, required: true, description: 'What to track.' }) },
    resolve: async (_root, args, ctx) =>
      requestTracking(ctx.services.database, ctx.services.config, await ctx.principal(), args.request, ctx.services.now()),
  }),
);

builder.mutationField('stopTrackingRequest', (t) =>
  t.field({
    ...policy({ access: { scope: TRACK_SCOPE }, quota: 'subscriptions' }),
    type: 'Boolean',
    description: 'Stops one of your tracking requests (STOPPED, stopReason DELETED). The shipment stays visible. True when stopped.',
    args: { trackingRequestID: t.arg.string({ required: true, description: 'The request.' }) },
    validate: z.object({ trackingRequestID: ID }).loose(),
    resolve: async (_root, args, ctx) =>
      stopTracking(ctx.services.database, await ctx.principal(), args.trackingRequestID, ctx.services.now()),
  }),
);
