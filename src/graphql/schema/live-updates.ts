import { GraphQLError } from 'graphql';
import { z } from 'zod';
import { READ_SCOPE } from '../../auth/scopes.js';
import { accessDenied, requireScope } from '../../auth/request-auth.js';
import { PREDICTED_ARRIVAL } from '../../domain/push/push-triggers.js';
import { LivePredictedArrival } from '../../push/live-predicted-arrival.js';
import type { StreamItem } from '../../push/live-streams.js';
import { checkPredictedArrivalThresholds } from '../../push/subscription-service.js';
import { findShipment, findShipmentById } from '../../store/shipments/shipment-lookup.js';
import { builder } from '../builder.js';
import { DCSA, lookupError } from '../../errors/errors.js';
import { lookupArgs, shipmentNotFound, toShipmentLookup } from '../../arguments/lookup-arguments.js';
import { ShipmentSource } from '../shipment-source.js';
import { SCHEMA_VERSION, TransmissionType, TriggerTypeEnum, type Transmission } from './transmission.js';
import { predictedArrivalThresholdArgs } from './webhook-subscription.js';
import { policy } from '../../executor/field-policy.js';
import type { TransmissionHeader } from '../../executor/context.js';

/**
 * Live updates (docs/architecture.md, Push): the GraphQL subscription root, served
 * over Server-Sent Events by Yoga (and so usable from GraphiQL). Each change
 * of the shipment that push delivery would send arrives as a Transmission,
 * as the lookup returns it, with triggerType and triggeredByEvent set: the
 * same transitions as webhooks, from the change log every instance tails
 * (src/push/change-feed.ts), so a change committed by any process reaches
 * every subscriber. The caller's account is checked again at each change.
 *
 * A stream lives only while its holder may see the shipment: it asks the access check again every few
 * seconds (src/push/live-streams.ts) and, when access has ended, sends a last event with the error saying
 * why (UNAUTHENTICATED or FORBIDDEN) and completes. A client holds at most TT_STREAMS_PER_CLIENT_MAX open
 * streams per instance; one more is refused with RATE_LIMITED (HTTP 429, Retry-After).
 *
 * PREDICTED_ARRIVAL (docs/push.md, Predicted arrival) is opt-in, with the webhook subscription's thresholds and
 * their checks: it is not a change of the change log but the stream's own evaluation of the prediction
 * (src/push/live-predicted-arrival.ts), its mark held in memory for as long as the stream lives. Its first
 * evaluation, as the stream starts, is the starting point.
 */

/** The triggers a stream may list: the shipment's changes, and PREDICTED_ARRIVAL (never a default). */
const STREAM_TRIGGER_TYPES: readonly string[] = [
  'EVENT_TRIGGER',
  'EXCEPTION_DETECTED',
  'EXCEPTION_RESOLVED',
  'SHIPMENT_MERGED',
  PREDICTED_ARRIVAL,
];
const DEFAULT_STREAM_TRIGGER_TYPES = ['EVENT_TRIGGER', 'EXCEPTION_DETECTED', 'EXCEPTION_RESOLVED', 'SHIPMENT_MERGED'];

/** Seconds a client refused for its stream cap is asked to wait (about the access check's cadence). */
const STREAM_CAP_RETRY_AFTER_SECONDS = 5;

function streamCapExceeded(max: number): GraphQLError {
  return new GraphQLError(`Quota exceeded: ${max} open live streams for this client; close one, or retry after Retry-After seconds.`, {
    extensions: {
      code: 'RATE_LIMITED',
      quota: 'streams',
      http: { status: 429, headers: { 'Retry-After': String(STREAM_CAP_RETRY_AFTER_SECONDS) } },
    },
  });
}

builder.subscriptionType({ description: 'Live updates, over Server-Sent Events (Accept: text/event-stream).' });

builder.subscriptionField('shipmentUpdates', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups' }),
    type: TransmissionType,
    description:
      "The shipment's changes as they are committed: a Transmission for each new milestone or flip to ACT " +
      '(EVENT_TRIGGER) and each exception detected or resolved, looked up by the same parameters and rules as ' +
      'Query.shipment; and, when asked for with a threshold, each move of the predicted arrival (PREDICTED_ARRIVAL). ' +
      'Requires a bearer token with scope track-and-trace.read.',
    args: {
      carrierCode: t.arg.string({ required: false, description: 'Carrier SCAC code; required with carrierBookingReference.' }),
      carrierBookingReference: t.arg.string({ required: false, description: 'Carrier booking number.' }),
      billOfLadingNumber: t.arg.string({ required: false, description: 'Bill of lading number.' }),
      equipmentReference: t.arg.string({ required: false, description: 'Container number (ISO 6346).' }),
      triggerTypes: t.arg({
        type: [TriggerTypeEnum],
        required: false,
        description:
          'Only these changes; default EVENT_TRIGGER, EXCEPTION_DETECTED, EXCEPTION_RESOLVED and SHIPMENT_MERGED. ' +
          'PREDICTED_ARRIVAL is never a default: list it with predictedArrivalShiftHours and/or predictedLatenessHours.',
      }),
      predictedArrivalShiftHours: t.arg.int({
        required: false,
        description:
          'PREDICTED_ARRIVAL: push when the predicted arrival moved by more than this many hours (1 to 720) since the one last ' +
          'pushed on this stream (the first, evaluated when the stream opens, is the starting point). Needs PREDICTED_ARRIVAL in triggerTypes.',
      }),
      predictedLatenessHours: t.arg.int({
        required: false,
        description:
          "PREDICTED_ARRIVAL: push when the predicted arrival first becomes later than the carrier's planned arrival by at " +
          "least this many hours (1 to 720) while the carrier's own ETA is not yet that late. Needs PREDICTED_ARRIVAL in triggerTypes.",
      }),
    },
    // The thresholds' ranges, as a webhook subscription's (the same checks, the same messages).
    validate: z.object(predictedArrivalThresholdArgs).loose(),
    subscribe: async (_root, args, ctx) => {
      // Authentication first, as for every protected field (src/executor/use-authentication.ts).
      const principal = await ctx.principal();
      requireScope(principal, READ_SCOPE);
      const parsed = lookupArgs.safeParse(args);
      if (!parsed.success) {
        const message = parsed.error.issues.map((i) => i.message).join('; ');
        throw lookupError('BAD_USER_INPUT', message, [{ ...DCSA.invalidParameter, errorCodeMessage: message }]);
      }
      const wanted = new Set<string>(args.triggerTypes ?? DEFAULT_STREAM_TRIGGER_TYPES);
      if ([...wanted].some((t) => !STREAM_TRIGGER_TYPES.includes(t))) {
        const message = `triggerTypes may list ${STREAM_TRIGGER_TYPES.join(', ')}`;
        throw lookupError('BAD_USER_INPUT', message, [{ ...DCSA.invalidParameter, property: 'triggerTypes', errorCodeMessage: message }]);
      }
      // The webhook subscription's rule: a threshold only with the trigger, the trigger with a threshold. No wait for
      // the upgrade's finish (the webhook path's 409): a stream writes nothing to the database, and its items are
      // rendered by this instance, which knows the trigger; a 0.4.0 instance has no such argument to accept.
      const predicted = checkPredictedArrivalThresholds({ ...args, triggerTypes: [...wanted] });
      const row = await findShipment(ctx.services.database.db, toShipmentLookup(args), principal.accountIds);
      if (!row) throw shipmentNotFound();
      await ctx.services.changes.start();
      const grant = principal.token;
      if (!grant) throw shipmentNotFound();
      const { services } = ctx;
      // Its first evaluation, as the stream starts, is the starting point, as a webhook subscription's first: a move is
      // measured from it, and it pushes only a lateness crossing the carrier's ETA has not made.
      const evaluation = predicted
        ? new LivePredictedArrival({
            db: services.database.db,
            predictions: services.predictions,
            shipmentId: row.id,
            thresholds: { shiftHours: args.predictedArrivalShiftHours ?? null, latenessHours: args.predictedLatenessHours ?? null },
            now: services.now,
          })
        : undefined;
      const stream = services.streams.start({
        grant,
        scope: READ_SCOPE,
        shipmentId: row.id,
        accept: (change) => wanted.has(change.triggerType),
        ...(evaluation ? { evaluation } : {}),
      });
      if (!stream) throw streamCapExceeded(ctx.services.streams.maxPerClient);
      return stream;
    },
    resolve: async (item: StreamItem, _args, ctx): Promise<Transmission> => {
      // The last event of a stream whose access ended: the error says why.
      if ('ended' in item) throw accessDenied(item.ended);
      // A change of the feed, or the stream's own PREDICTED_ARRIVAL (no event caused it, as for a webhook's).
      const pushed: { shipmentId: number; triggerType: TransmissionHeader['triggerType']; triggeredByEvent: string | null } =
        'change' in item
          ? {
              shipmentId: item.change.shipmentId,
              triggerType: item.change.triggerType as TransmissionHeader['triggerType'],
              triggeredByEvent: item.change.triggeredByEvent,
            }
          : { shipmentId: item.predictedArrival.shipmentId, triggerType: PREDICTED_ARRIVAL, triggeredByEvent: null };
      const principal = await ctx.principal();
      const { services } = ctx;
      const row = await findShipmentById(services.database.db, pushed.shipmentId, principal.accountIds);
      if (!row) throw shipmentNotFound();
      return {
        transmissionHeader: {
          transmissionID: await services.transmissionIds.next(),
          transmissionDateTime: services.now().toISOString(),
          triggerType: pushed.triggerType,
          triggeredByEvent: pushed.triggeredByEvent,
          senderID: services.config.senderId,
          receiverID: principal.clientId,
          schemaVersion: SCHEMA_VERSION,
        },
        shipmentTracking: new ShipmentSource(row, services.snapshots.snapshot(row)),
      };
    },
  }),
);
