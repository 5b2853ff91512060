import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { listOfNames, NEWER_THAN_PREVIOUS_RELEASE, WEBHOOK_TRIGGER_TYPES } from '../../domain/push/push-triggers.js';
import { MAX_CALLBACK_URL_LENGTH } from '../../domain/push/callback-url.js';
import {
  createWebhookSubscription,
  requireSubscription,
  rotateWebhookSecret,
  subscriptionNotFound,
} from '../../push/subscription-service.js';
import { redeliverWebhook, testWebhook, type TrialResult } from '../../push/webhook-trial.js';
import { listDeliveries, pageOfDeliveryLog, type DeliveryLogEntry } from '../../store/push/delivery-queue.js';
import {
  deleteSubscription,
  listSubscriptions,
  pageOfSubscriptions,
  type WebhookSubscription,
} from '../../store/push/webhook-subscriptions.js';
import { builder } from '../builder.js';
import { badConnectionArgument, connectionOf, pagingDirection, type Connection } from '../connection.js';
import { subscriptionTargetArgs } from '../../arguments/lookup-arguments.js';
import { ExceptionTypeEnum } from './exception.js';
import { TriggerTypeEnum } from './transmission.js';
import { MAX_THRESHOLD_HOURS } from '../../domain/push/predicted-arrival-trigger.js';
import { policy } from '../../executor/field-policy.js';
import { SUBSCRIBE_SCOPE } from '../../auth/scopes.js';

/**
 * Push delivery's webhook subscriptions (docs/architecture.md, Push): the spec's
 * SubscriptionRequest and Subscription, named `WebhookSubscription…` in
 * GraphQL so they never collide with the Subscription root type. The
 * /v2/subscriptions routes run these fields (src/rest/subscriptions-handler.ts).
 * All need a token with the track-and-trace.subscribe scope
 * (src/executor/use-authentication.ts); a subscription is its owner client's alone.
 */

export const WebhookSubscriptionStatusEnum = builder.enumType('WebhookSubscriptionStatus', {
  description: 'Whether a subscription still receives deliveries.',
  values: {
    ACTIVE: { description: 'Deliveries are sent.' },
    DISABLED: {
      description: 'No more deliveries: the receiver answered 410 Gone, or the client or shipment access went away (see disabledReason).',
    },
  },
});

export const SubscriptionCoverageEnum = builder.enumType('WebhookSubscriptionCoverage', {
  description: 'What a subscription follows.',
  values: {
    SHIPMENT: { description: 'One shipment, named by a lookup form when the subscription was made.' },
    ACCOUNT: { description: 'Every shipment your account sees, including shipments linked to it later.' },
  },
});

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a delivery stands.',
  values: {
    PENDING: { description: 'Not delivered yet: waiting for its turn or for its next attempt.' },
    DELIVERED: { description: 'The receiver answered 2xx.' },
    FAILED: { description: 'Given up: the retry period ran out, the receiver answered 410, or the subscription stopped.' },
  },
});

export const WebhookSubscriptionType = builder.objectRef<WebhookSubscription>('WebhookSubscription').implement({
  description: "A webhook subscription (the spec's Subscription): where and what the service pushes for one shipment.",
  fields: (t) => ({
    subscriptionID: t.exposeString('subscriptionID', { description: 'UUID of the subscription.' }),
    callbackUrl: t.exposeString('callbackUrl', { description: 'Where deliveries are POSTed.' }),
    carrierCode: t.exposeString('carrierCode', { nullable: true, description: 'The lookup it was created with: carrier SCAC code.' }),
    carrierBookingReference: t.exposeString('carrierBookingReference', {
      nullable: true,
      description: 'The lookup: carrier booking number.',
    }),
    billOfLadingNumber: t.exposeString('billOfLadingNumber', { nullable: true, description: 'The lookup: bill of lading number.' }),
    equipmentReference: t.exposeString('equipmentReference', { nullable: true, description: 'The lookup: container number.' }),
    triggerTypes: t.field({
      type: [TriggerTypeEnum],
      description: 'The changes it receives.',
      resolve: (s) => s.triggerTypes,
    }),
    exceptionTypes: t.field({
      type: [ExceptionTypeEnum],
      nullable: true,
      description: 'Only exception triggers (detected, resolved) of these types; null for every type. Other triggers are not affected.',
      resolve: (s) => s.exceptionTypes as never,
    }),
    carrierCodes: t.stringList({
      nullable: true,
      description: 'Only shipments of these carriers (SCAC codes); null for every carrier.',
      resolve: (s) => s.carrierCodes,
    }),
    coverage: t.expose('coverage', {
      type: SubscriptionCoverageEnum,
      description: 'SHIPMENT: the shipment its lookup named; ACCOUNT: every shipment your account sees, those added later included.',
    }),
    predictedArrivalShiftHours: t.exposeInt('predictedArrivalShiftHours', {
      nullable: true,
      description: 'PREDICTED_ARRIVAL: the move of the predicted arrival, hours, that is pushed; null for none.',
    }),
    predictedLatenessHours: t.exposeInt('predictedLatenessHours', {
      nullable: true,
      description: "PREDICTED_ARRIVAL: the lateness against the carrier's planned arrival, hours, that is pushed; null for none.",
    }),
    scheduledIntervalSeconds: t.exposeInt('scheduledIntervalSeconds', {
      nullable: true,
      description: 'Seconds between SCHEDULED_TRIGGER refreshes; null for none.',
    }),
    status: t.expose('status', { type: WebhookSubscriptionStatusEnum, description: 'ACTIVE or DISABLED.' }),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'Why it was disabled.' }),
    previousSecretExpiresDateTime: t.expose('previousSecretExpiresDateTime', {
      type: 'DateTime',
      nullable: true,
      description: 'After a secret rotation: until when deliveries are also signed with the previous secret.',
    }),
    createdDateTime: t.expose('createdDateTime', { type: 'DateTime', description: 'When it was created.' }),
    updatedDateTime: t.expose('updatedDateTime', { type: 'DateTime', description: 'When it last changed.' }),
  }),
});

interface WithSecret {
  subscription: WebhookSubscription;
  secret: string;
}

export const WebhookSubscriptionSecretType = builder.objectRef<WithSecret>('WebhookSubscriptionWithSecret').implement({
  description: 'A subscription and its signing secret, shown this once (at creation and rotation).',
  fields: (t) => ({
    subscription: t.expose('subscription', { type: WebhookSubscriptionType, description: 'The subscription.' }),
    secret: t.exposeString('secret', {
      description: 'The HMAC-SHA256 signing secret of its deliveries. Store it now: it is not shown again.',
    }),
  }),
});

export const WebhookDeliveryType = builder.objectRef<DeliveryLogEntry>('WebhookDelivery').implement({
  description: 'One delivery of one change to one subscription: its entry in the delivery log.',
  fields: (t) => ({
    deliveryID: t.exposeString('deliveryID', { description: 'UUID; also the Tracking-Delivery-ID header of every attempt.' }),
    transmissionID: t.exposeString('transmissionID', { description: 'The transmissionID of its body, the same on every attempt.' }),
    triggerType: t.field({ type: TriggerTypeEnum, description: 'The change it delivers.', resolve: (d) => d.triggerType as never }),
    triggeredByEvent: t.exposeString('triggeredByEvent', { nullable: true, description: 'The eventID that caused it.' }),
    exceptionID: t.exposeString('exceptionID', { nullable: true, description: 'For exception triggers: the exception.' }),
    status: t.field({ type: WebhookDeliveryStatusEnum, description: 'PENDING, DELIVERED or FAILED.', resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    lastStatus: t.exposeInt('lastStatus', { nullable: true, description: 'HTTP status of the last attempt; null when none came.' }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'What went wrong in the last attempt.' }),
    nextAttemptDateTime: t.expose('nextAttemptDateTime', {
      type: 'DateTime',
      nullable: true,
      description: 'While PENDING: when it is next tried.',
    }),
    createdDateTime: t.expose('createdDateTime', {
      type: 'DateTime',
      description: 'When the change was committed (and the delivery enqueued).',
    }),
    deliveredDateTime: t.expose('deliveredDateTime', { type: 'DateTime', nullable: true, description: 'When the receiver accepted it.' }),
  }),
});

const SECRET = z
  .string()
  .regex(/^[\x21-\x7e]{32,256}$/, 'secret must be 32 to 256 printable characters without spaces (at least 256 bits)');

const pushTriggerType = z.enum(WEBHOOK_TRIGGER_TYPES, {
  error: () => `triggerTypes may list ${WEBHOOK_TRIGGER_TYPES.join(', ')} (MANUAL_TRIGGER is the lookup's)`,
});

/** A PREDICTED_ARRIVAL threshold: whole hours, 1 to 720 (30 days). */
const thresholdHours = (name: string) =>
  z
    .int(`${name} must be a whole number of hours`)
    .min(1, `${name} must be at least 1 (hour)`)
    .max(MAX_THRESHOLD_HOURS, `${name} must be at most ${MAX_THRESHOLD_HOURS} (30 days)`)
    .nullish();

/** PREDICTED_ARRIVAL's thresholds' checks, for a webhook subscription request and a live stream (shipmentUpdates). */
export const predictedArrivalThresholdArgs = {
  predictedArrivalShiftHours: thresholdHours('predictedArrivalShiftHours'),
  predictedLatenessHours: thresholdHours('predictedLatenessHours'),
};

/** The SubscriptionRequest rules: one lookup form, a callback URL, sensible trigger types and interval. */
const subscriptionRequest = subscriptionTargetArgs.and(
  z
    .object({
      callbackUrl: z
        .string()
        .min(1, 'callbackUrl is required')
        .max(MAX_CALLBACK_URL_LENGTH, `callbackUrl must be at most ${MAX_CALLBACK_URL_LENGTH} characters`),
      triggerTypes: z
        .array(pushTriggerType)
        .min(1, 'triggerTypes must not be empty; leave it out for every change')
        .refine((l) => new Set(l).size === l.length, 'triggerTypes must not repeat a value')
        .nullish(),
      exceptionTypes: z
        .array(z.string())
        .min(1, 'exceptionTypes must not be empty; leave it out for every exception type')
        .refine((l) => new Set(l).size === l.length, 'exceptionTypes must not repeat a value')
        .nullish(),
      carrierCodes: z
        .array(z.string().regex(/^[A-Z]{2,4}$/, 'carrierCodes must list carrier SCAC codes of 2 to 4 upper-case letters'))
        .min(1, 'carrierCodes must not be empty; leave it out for every carrier')
        .max(50, 'carrierCodes may list at most 50 carriers')
        .refine((l) => new Set(l).size === l.length, 'carrierCodes must not repeat a value')
        .nullish(),
      scheduledIntervalSeconds: z
        .int()
        .min(300, 'scheduledIntervalSeconds must be at least 300 (5 minutes)')
        .max(7 * 86_400, 'scheduledIntervalSeconds must be at most 604800 (7 days)')
        .nullish(),
      ...predictedArrivalThresholdArgs,
      secret: SECRET.nullish(),
    })
    .superRefine((r, ctx) => {
      const scheduled = r.triggerTypes?.includes('SCHEDULED_TRIGGER') ?? false;
      if (scheduled && r.scheduledIntervalSeconds == null) {
        ctx.addIssue({ code: 'custom', path: ['scheduledIntervalSeconds'], message: 'SCHEDULED_TRIGGER needs scheduledIntervalSeconds' });
      }
      if (r.triggerTypes && !scheduled && r.scheduledIntervalSeconds != null) {
        ctx.addIssue({
          code: 'custom',
          path: ['triggerTypes'],
          message: 'scheduledIntervalSeconds needs SCHEDULED_TRIGGER in triggerTypes',
        });
      }
    }),
);

export const WebhookSubscriptionRequestInput = builder.inputType('WebhookSubscriptionRequest', {
  description:
    "A webhook subscription request (the spec's SubscriptionRequest): one lookup form of GET /v2/shipments naming a " +
    'shipment your account may see, and where to POST its changes.',
  fields: (t) => ({
    callbackUrl: t.string({
      required: true,
      description: 'HTTPS URL the deliveries are POSTed to (http and loopback allowed in the sandbox).',
    }),
    carrierCode: t.string({ description: 'Carrier SCAC code; required with carrierBookingReference.' }),
    carrierBookingReference: t.string({ description: 'Carrier booking number.' }),
    billOfLadingNumber: t.string({ description: 'Bill of lading number.' }),
    equipmentReference: t.string({ description: 'Container number (ISO 6346).' }),
    triggerTypes: t.field({
      type: [TriggerTypeEnum],
      description:
        'The changes to receive; default EVENT_TRIGGER, EXCEPTION_DETECTED, EXCEPTION_RESOLVED, SHIPMENT_MERGED (and SCHEDULED_TRIGGER with an ' +
        'interval; GRANTED and REVOKED, which only an account-wide subscription may list, for an account-wide one). ' +
        'PREDICTED_ARRIVAL is never a default: list it with predictedArrivalShiftHours and/or predictedLatenessHours. ' +
        `Until the upgrade to this release is finished, ${listOfNames(NEWER_THAN_PREVIOUS_RELEASE)} are ` +
        "refused (CONFLICT) and the default is the previous release's: EVENT_TRIGGER, EXCEPTION_DETECTED, EXCEPTION_RESOLVED.",
    }),
    exceptionTypes: t.field({
      type: [ExceptionTypeEnum],
      description: 'Only exception triggers of these types (other triggers are not affected); default every type.',
    }),
    carrierCodes: t.stringList({ description: 'Only shipments of these carriers (SCAC codes); default every carrier.' }),
    scheduledIntervalSeconds: t.int({ description: 'Seconds between SCHEDULED_TRIGGER refreshes, 300 to 604800.' }),
    predictedArrivalShiftHours: t.int({
      description:
        'PREDICTED_ARRIVAL: push when the predicted arrival moved by more than this many hours (1 to 720) since the one last ' +
        'pushed to this subscription. Needs PREDICTED_ARRIVAL in triggerTypes.',
    }),
    predictedLatenessHours: t.int({
      description:
        "PREDICTED_ARRIVAL: push when the predicted arrival first becomes later than the carrier's planned arrival by at " +
        "least this many hours (1 to 720) while the carrier's own ETA is not yet that late. Needs PREDICTED_ARRIVAL in triggerTypes.",
    }),
    secret: t.string({ description: 'Your own signing secret (32 to 256 printable characters); default: one is generated.' }),
  }),
});

builder.queryField('webhookSubscriptions', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    deprecationReason: 'Use webhookSubscriptionsConnection',
    type: [WebhookSubscriptionType],
    description: 'Your webhook subscriptions, oldest first. Requires the track-and-trace.subscribe scope.',
    resolve: async (_root, _args, ctx) => listSubscriptions(ctx.services.database.db, (await ctx.principal()).clientId),
  }),
);

const WebhookSubscriptionConnectionType = builder.connectionObject(
  {
    type: WebhookSubscriptionType,
    name: 'WebhookSubscriptionConnection',
    description: 'A page of your webhook subscriptions, oldest first.',
  },
  { description: 'A webhook subscription, and the cursor to page on from it.' },
);

/** A subscription's position in the listing's order (created, then ID), opaque to clients. */
const subscriptionCursor = (s: WebhookSubscription) => Buffer.from(`${s.createdDateTime}|${s.subscriptionID}`).toString('base64url');

function parseSubscriptionCursor(cursor: string): { createdAt: string; subscriptionId: string } {
  const m = /^([0-9T:.Z-]{20,30})\|([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badConnectionArgument('after', 'after is not a cursor this service handed out');
  return { createdAt: m[1] as string, subscriptionId: m[2] as string };
}

builder.queryField('webhookSubscriptionsConnection', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: WebhookSubscriptionConnectionType,
    description: 'Your webhook subscriptions, oldest first, a page at a time. Requires the track-and-trace.subscribe scope.',
    args: {
      first: t.arg.int({ required: false, description: 'Subscriptions per page, 1 to 500; default 100.' }),
      after: t.arg.string({ required: false, description: 'A cursor of an earlier page (its endCursor): the subscriptions after it.' }),
    },
    validate: z.object({ after: z.string().max(200, 'after is at most 200 characters').nullish() }).loose(),
    resolve: async (_root, args, ctx) => {
      const { size } = pagingDirection(args, 100, 500);
      const after = args.after == null ? undefined : parseSubscriptionCursor(args.after);
      const clientId = (await ctx.principal()).clientId;
      const page = await pageOfSubscriptions(ctx.services.database.db, clientId, { ...(after ? { after } : {}), limit: size });
      return connectionOf(page.subscriptions, subscriptionCursor, { hasNextPage: page.more, hasPreviousPage: false });
    },
  }),
);

builder.queryField('webhookSubscription', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: WebhookSubscriptionType,
    description: "One of your webhook subscriptions; NOT_FOUND for another client's or an unknown one.",
    args: { subscriptionID: t.arg.string({ required: true, description: 'The subscription.' }) },
    resolve: async (_root, args, ctx) => requireSubscription(ctx.services.database.db, await ctx.principal(), args.subscriptionID),
  }),
);

/**
 * A delivery log's arguments, checks and listing, shared by both kinds of subscription (webhookDeliveries,
 * eventSubscriptionDeliveries): the same statuses, limit and order, newest first.
 */
export const deliveryLogArgs = builder.args((t) => ({
  subscriptionID: t.string({ required: true, description: 'The subscription.' }),
  status: t.field({ type: WebhookDeliveryStatusEnum, required: false, description: 'Only deliveries in this state.' }),
  limit: t.int({ required: false, description: 'At most this many, 1 to 500; default 100.' }),
}));

export const DELIVERY_LOG_VALIDATION = z
  .object({ limit: z.int().min(1, 'limit must be 1 to 500').max(500, 'limit must be 1 to 500').nullish() })
  .loose();

/** The log of a subscription whose ownership the caller checked (each kind by its own rule). */
export function deliveryLog(
  db: Parameters<typeof listDeliveries>[0],
  clientId: string,
  args: { subscriptionID: string; status?: DeliveryLogEntry['status'] | null; limit?: number | null },
): Promise<DeliveryLogEntry[]> {
  return listDeliveries(db, {
    subscriptionId: args.subscriptionID,
    clientId,
    ...(args.status ? { status: args.status } : {}),
    limit: args.limit ?? 100,
  });
}

/** A delivery log as a connection's arguments: the same filters, paged by `first`/`after` (newest first). */
export const deliveryLogConnectionArgs = builder.args((t) => ({
  subscriptionID: t.string({ required: true, description: 'The subscription.' }),
  status: t.field({ type: WebhookDeliveryStatusEnum, required: false, description: 'Only deliveries in this state.' }),
  first: t.int({ required: false, description: 'Deliveries per page, 1 to 500; default 100.' }),
  after: t.string({ required: false, description: 'A cursor of an earlier page (its endCursor): the older deliveries after it.' }),
}));

export const DELIVERY_LOG_CONNECTION_VALIDATION = z
  .object({ after: z.string().max(100, 'after is at most 100 characters').nullish() })
  .loose();

/** A delivery's position in the log, opaque to clients. */
const deliveryCursor = (position: number) => Buffer.from(`delivery:${position}`).toString('base64url');

function parseDeliveryCursor(cursor: string): number {
  const m = /^delivery:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badConnectionArgument('after', 'after is not a cursor this service handed out');
  return Number(m[1]);
}

/** A page of the log of a subscription whose ownership the caller checked, as a connection. */
export async function deliveryLogConnection(
  db: Parameters<typeof listDeliveries>[0],
  clientId: string,
  args: { subscriptionID: string; status?: DeliveryLogEntry['status'] | null; first?: number | null; after?: string | null },
): Promise<Connection<DeliveryLogEntry>> {
  const { size } = pagingDirection(args, 100, 500);
  const before = args.after == null ? undefined : parseDeliveryCursor(args.after);
  const page = await pageOfDeliveryLog(db, {
    subscriptionId: args.subscriptionID,
    clientId,
    ...(args.status ? { status: args.status } : {}),
    ...(before === undefined ? {} : { beforePosition: before }),
    limit: size,
  });
  const positions = page.entries.map((e) => e.position);
  return connectionOf(
    page.entries.map((e) => e.entry),
    (_entry, i) => deliveryCursor(positions[i] as number),
    { hasNextPage: page.more, hasPreviousPage: false },
  );
}

const WebhookDeliveryConnectionType = builder.connectionObject(
  { type: WebhookDeliveryType, name: 'WebhookDeliveryConnection', description: "A page of a subscription's delivery log, newest first." },
  { description: 'A delivery, and the cursor to page on from it.' },
);

builder.queryField('webhookDeliveriesConnection', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: WebhookDeliveryConnectionType,
    description:
      "A subscription's delivery log, newest first, a page at a time; NOT_FOUND for another client's or an unknown subscription. " +
      'Requires the track-and-trace.subscribe scope.',
    args: deliveryLogConnectionArgs,
    validate: DELIVERY_LOG_CONNECTION_VALIDATION,
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      await requireSubscription(ctx.services.database.db, principal, args.subscriptionID);
      return deliveryLogConnection(ctx.services.database.db, principal.clientId, args);
    },
  }),
);

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    deprecationReason: 'Use webhookDeliveriesConnection',
    type: [WebhookDeliveryType],
    description: "A subscription's delivery log, newest first.",
    args: deliveryLogArgs,
    validate: DELIVERY_LOG_VALIDATION,
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      await requireSubscription(ctx.services.database.db, principal, args.subscriptionID);
      return deliveryLog(ctx.services.database.db, principal.clientId, args);
    },
  }),
);

builder.mutationField('createWebhookSubscription', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: WebhookSubscriptionSecretType,
    description:
      "Subscribe to a shipment's changes: they are POSTed to callbackUrl, signed (Tracking-Signature). Returns the " +
      'signing secret this once. Requires the track-and-trace.subscribe scope.',
    args: { request: t.arg({ type: WebhookSubscriptionRequestInput, required: true, description: 'What to subscribe to, and where.' }) },
    validate: z.object({ request: subscriptionRequest }),
    resolve: async (_root, args, ctx) =>
      createWebhookSubscription(ctx.services.database.db, ctx.services.push, await ctx.principal(), args.request, ctx.services.now()),
  }),
);

builder.mutationField('deleteWebhookSubscription', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: 'Boolean',
    description: 'Stops and removes one of your subscriptions; its pending deliveries are given up. True when deleted.',
    args: { subscriptionID: t.arg.string({ required: true, description: 'The subscription.' }) },
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      const deleted = await deleteSubscription(ctx.services.database.db, principal.clientId, args.subscriptionID, ctx.services.now());
      if (!deleted) throw subscriptionNotFound();
      return true;
    },
  }),
);

builder.mutationField('rotateWebhookSubscriptionSecret', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: WebhookSubscriptionSecretType,
    description:
      'A new signing secret, returned this once. For overlapSeconds (default 86400) deliveries are signed with both ' +
      'the new and the previous secret, so your receiver can switch without dropping any.',
    args: {
      subscriptionID: t.arg.string({ required: true, description: 'The subscription.' }),
      overlapSeconds: t.arg.int({
        required: false,
        description: 'How long the previous secret keeps signing, 0 to 604800; default 86400.',
      }),
      secret: t.arg.string({ required: false, description: 'Your own new secret; default: one is generated.' }),
    },
    validate: z
      .object({
        overlapSeconds: z
          .int()
          .min(0, 'overlapSeconds must be 0 to 604800')
          .max(7 * 86_400, 'overlapSeconds must be 0 to 604800')
          .nullish(),
        secret: SECRET.nullish(),
      })
      .loose(),
    resolve: async (_root, args, ctx) =>
      rotateWebhookSecret(
        ctx.services.database.db,
        ctx.services.push,
        await ctx.principal(),
        args.subscriptionID,
        { overlapSeconds: args.overlapSeconds ?? 86_400, secret: args.secret },
        ctx.services.now(),
      ),
  }),
);

const WebhookTrialResultType = builder.objectRef<TrialResult>('WebhookTrialResult').implement({
  description: "A delivery sent while you waited (a test or a redelivery), and the receiver's answer.",
  fields: (t) => ({
    deliveryID: t.exposeString('deliveryID', { description: 'The Tracking-Delivery-ID header it carried.' }),
    transmissionID: t.exposeString('transmissionID', { description: 'The transmissionID of its body.' }),
    status: t.exposeInt('status', { nullable: true, description: "The receiver's HTTP status; null when it did not answer in time." }),
    latencyMs: t.exposeInt('latencyMs', { description: "Milliseconds from sending to the receiver's answer (or the failure)." }),
    error: t.exposeString('error', { nullable: true, description: 'What went wrong; null when the receiver answered 2xx.' }),
    delivered: t.exposeBoolean('delivered', { description: 'The receiver answered 2xx.' }),
    test: t.exposeBoolean('test', { description: 'A test delivery (header Tracking-Test: true), not recorded in the delivery log.' }),
  }),
});

builder.mutationField('testWebhookSubscription', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: WebhookTrialResultType,
    description:
      'Sends a signed test delivery now (header Tracking-Test: true; triggerType MANUAL_TRIGGER) of a current snapshot: the ' +
      "subscription's shipment, or for an account-wide one the shipment that changed last; answers with the receiver's status " +
      'and latency. Not recorded in the delivery log.',
    args: { subscriptionID: t.arg.string({ required: true, description: 'The subscription.' }) },
    resolve: async (_root, args, ctx) =>
      testWebhook(
        ctx.services.database.db,
        ctx.services.push,
        await ctx.principal(),
        args.subscriptionID,
        { deliveryId: `test-${randomUUID()}`, transmissionId: await ctx.services.transmissionIds.next() },
        ctx.services.now(),
      ),
  }),
);

builder.mutationField('redeliverWebhookDelivery', (t) =>
  t.field({
    ...policy({ access: { scope: SUBSCRIBE_SCOPE }, quota: 'subscriptions' }),
    type: WebhookTrialResultType,
    description:
      'Sends a past delivery (delivered or failed) again now: same delivery ID and transmissionID, the current snapshot, header ' +
      "Tracking-Redelivery: true; answers with the receiver's status and latency and records the attempt in the delivery log.",
    args: {
      subscriptionID: t.arg.string({ required: true, description: 'The subscription.' }),
      deliveryID: t.arg.string({ required: true, description: 'The delivery, from the delivery log.' }),
    },
    resolve: async (_root, args, ctx) =>
      redeliverWebhook(
        ctx.services.database.db,
        ctx.services.push,
        await ctx.principal(),
        args.subscriptionID,
        args.deliveryID,
        ctx.services.now(),
      ),
  }),
);
