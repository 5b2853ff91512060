import { GraphQLError } from 'graphql';
import { READ_SCOPE } from '../../auth/scopes.js';
import { accessDenied, requireScope } from '../../auth/request-auth.js';
import { PUSH_TRIGGER_TYPES, type PushTriggerType } from '../../domain/push/push-triggers.js';
import type { StreamItem } from '../../push/live-streams.js';
import { findShipment, findShipmentById } from '../../store/shipments/shipment-lookup.js';
import { builder } from '../builder.js';
import { DCSA, lookupError } from '../../errors/errors.js';
import { lookupArgs, shipmentNotFound, toShipmentLookup } from '../../arguments/lookup-arguments.js';
import { ShipmentSource } from '../shipment-source.js';
import { SCHEMA_VERSION, TransmissionType, TriggerTypeEnum, type Transmission } from './transmission.js';
import { policy } from '../../executor/field-policy.js';

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
 */

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
      'Query.shipment. Requires a bearer token with scope track-and-trace.read.',
    args: {
      carrierCode: t.arg.string({ required: false, description: 'Carrier SCAC code; required with carrierBookingReference.' }),
      carrierBookingReference: t.arg.string({ required: false, description: 'Carrier booking number.' }),
      billOfLadingNumber: t.arg.string({ required: false, description: 'Bill of lading number.' }),
      equipmentReference: t.arg.string({ required: false, description: 'Container number (ISO 6346).' }),
      triggerTypes: t.arg({
        type: [TriggerTypeEnum],
        required: false,
        description: 'Only these changes; default EVENT_TRIGGER, EXCEPTION_DETECTED, EXCEPTION_RESOLVED and SHIPMENT_MERGED.',
      }),
    },
    subscribe: async (_root, args, ctx) => {
      // Authentication first, as for every protected field (src/executor/use-authentication.ts).
      const principal = await ctx.principal();
      requireScope(principal, READ_SCOPE);
      const parsed = lookupArgs.safeParse(args);
      if (!parsed.success) {
        const message = parsed.error.issues.map((i) => i.message).join('; ');
        throw lookupError('BAD_USER_INPUT', message, [{ ...DCSA.invalidParameter, errorCodeMessage: message }]);
      }
      const wanted = new Set<string>(args.triggerTypes ?? ['EVENT_TRIGGER', 'EXCEPTION_DETECTED', 'EXCEPTION_RESOLVED', 'SHIPMENT_MERGED']);
      if ([...wanted].some((t) => !(PUSH_TRIGGER_TYPES as readonly string[]).includes(t) || t === 'SCHEDULED_TRIGGER')) {
        // PREDICTED_ARRIVAL is a webhook trigger only, so far (docs/push.md, Predicted arrival): its thresholds are a
        // subscription's, evaluated by serve's passes, not changes of the change log that streams tail.
        const message =
          'triggerTypes may list EVENT_TRIGGER, EXCEPTION_DETECTED, EXCEPTION_RESOLVED and SHIPMENT_MERGED' +
          (wanted.has('PREDICTED_ARRIVAL') ? ' (PREDICTED_ARRIVAL is pushed to webhook subscriptions only)' : '');
        throw lookupError('BAD_USER_INPUT', message, [{ ...DCSA.invalidParameter, property: 'triggerTypes', errorCodeMessage: message }]);
      }
      const row = await findShipment(ctx.services.database.db, toShipmentLookup(args), principal.accountIds);
      if (!row) throw shipmentNotFound();
      await ctx.services.changes.start();
      const grant = principal.token;
      if (!grant) throw shipmentNotFound();
      const stream = ctx.services.streams.start({
        grant,
        scope: READ_SCOPE,
        shipmentId: row.id,
        accept: (change) => wanted.has(change.triggerType as PushTriggerType),
      });
      if (!stream) throw streamCapExceeded(ctx.services.streams.maxPerClient);
      return stream;
    },
    resolve: async (item: StreamItem, _args, ctx): Promise<Transmission> => {
      // The last event of a stream whose access ended: the error says why.
      if ('ended' in item) throw accessDenied(item.ended);
      const { change } = item;
      const principal = await ctx.principal();
      const { services } = ctx;
      const row = await findShipmentById(services.database.db, change.shipmentId, principal.accountIds);
      if (!row) throw shipmentNotFound();
      return {
        transmissionHeader: {
          transmissionID: await services.transmissionIds.next(),
          transmissionDateTime: services.now().toISOString(),
          triggerType: change.triggerType as Exclude<PushTriggerType, 'SCHEDULED_TRIGGER'>,
          triggeredByEvent: change.triggeredByEvent,
          senderID: services.config.senderId,
          receiverID: principal.clientId,
          schemaVersion: SCHEMA_VERSION,
        },
        shipmentTracking: new ShipmentSource(row, services.snapshots.snapshot(row)),
      };
    },
  }),
);
