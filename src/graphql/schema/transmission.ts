import type { TransmissionHeader } from '../../executor/context.js';
import { ifNoneMatchMatches, shipmentEtag } from '../../domain/conditional-read.js';
import { TRIGGER_TYPE_LIST } from '../../domain/enumerations.js';
import { findShipment } from '../../store/shipments/shipment-lookup.js';
import { builder } from '../builder.js';
import { codeListEnum } from '../code-list-enum.js';
import { lookupArgs, shipmentNotFound, toShipmentLookup } from '../../arguments/lookup-arguments.js';
import { ShipmentSource } from '../shipment-source.js';
import { ShipmentTrackingType } from './shipment-tracking.js';
import { policy } from '../../executor/field-policy.js';
import { READ_SCOPE } from '../../auth/scopes.js';

export const SCHEMA_VERSION = '1.2';

export const TriggerTypeEnum = codeListEnum('TriggerType', 'Why a transmission was sent.', TRIGGER_TYPE_LIST);

export const TransmissionHeaderType = builder.objectRef<TransmissionHeader>('TransmissionHeader').implement({
  description: 'Metadata about this delivery.',
  fields: (t) => ({
    transmissionID: t.exposeString('transmissionID', {
      description: 'TXN- followed by digits; unique per transmission, for de-duplication.',
    }),
    transmissionDateTime: t.expose('transmissionDateTime', { type: 'DateTime', description: 'When the transmission was sent.' }),
    triggerType: t.expose('triggerType', {
      type: TriggerTypeEnum,
      description: 'Why it was sent: MANUAL_TRIGGER for a lookup; for a pushed transmission, the change that triggered it.',
    }),
    triggeredByEvent: t.exposeString('triggeredByEvent', {
      nullable: true,
      description: 'eventID that caused the transmission; null for manual snapshots.',
    }),
    senderID: t.exposeString('senderID', { description: 'Constant that always identifies the service.' }),
    receiverID: t.exposeString('receiverID', { description: 'The client identifier (client_id).' }),
    schemaVersion: t.exposeString('schemaVersion', { description: `Payload schema version; currently ${SCHEMA_VERSION}.` }),
  }),
});

export interface Transmission {
  transmissionHeader: TransmissionHeader;
  shipmentTracking: ShipmentSource;
}

export const TransmissionType = builder.objectRef<Transmission>('Transmission').implement({
  description: 'One delivery: a header and the shipment. Every lookup returns the full current snapshot.',
  fields: (t) => ({
    transmissionHeader: t.expose('transmissionHeader', {
      type: TransmissionHeaderType,
      description: 'Metadata about this delivery.',
    }),
    shipmentTracking: t.expose('shipmentTracking', { type: ShipmentTrackingType, description: 'The shipment.' }),
  }),
});

builder.queryType({ description: 'Reads: the shipment lookup.' });

builder.queryField('shipment', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups', conditional: true }),
    type: TransmissionType,
    nullable: true,
    description:
      'The current snapshot of one shipment, by (a) carrierCode + carrierBookingReference, (b) billOfLadingNumber or ' +
      '(c) equipmentReference, alone or combined with (a) or (b); combined parameters must all match one shipment. ' +
      'Requires a bearer token with scope track-and-trace.read.',
    args: {
      carrierCode: t.arg.string({ required: false, description: 'Carrier SCAC code; required with carrierBookingReference.' }),
      carrierBookingReference: t.arg.string({
        required: false,
        description: 'Carrier booking number, at most 35 characters; requires carrierCode.',
      }),
      billOfLadingNumber: t.arg.string({ required: false, description: 'Bill of lading number, at most 20 characters.' }),
      equipmentReference: t.arg.string({ required: false, description: 'Container number (ISO 6346).' }),
    },
    validate: lookupArgs,
    resolve: async (_root, args, ctx) => {
      // Known already when the authentication plugin checked it without waiting (a poll's usual case).
      const principal = ctx.principalNow() ?? (await ctx.principal());
      const { services } = ctx;
      // An answer made from REST's stored rendering reads it with the row, unless it may be a 304 (the version alone).
      const restRendering = Boolean(ctx.rendered?.stored || ctx.rendered?.derived) && !ctx.conditional?.ifNoneMatch;
      const row = await findShipment(services.database.db, toShipmentLookup(args), principal.accountIds, { restRendering });
      if (!row) throw shipmentNotFound();
      if (ctx.conditional) {
        // Decided before a transmissionID is drawn or a snapshot part is read: a 304 costs the lookup alone.
        const etag = shipmentEtag(row.id, row.version, ctx.conditional.selection);
        ctx.conditional.etag = etag;
        if (ifNoneMatchMatches(ctx.conditional.ifNoneMatch, etag)) {
          ctx.conditional.notModified = true;
          return null;
        }
      }
      const transmissionHeader: TransmissionHeader = {
        // A pushed transmission has its own (stable) ID and trigger; a lookup is a manual snapshot.
        transmissionID: ctx.transmission?.transmissionID ?? (await services.transmissionIds.next()),
        transmissionDateTime: services.now().toISOString(),
        triggerType: ctx.transmission?.triggerType ?? 'MANUAL_TRIGGER',
        triggeredByEvent: ctx.transmission?.triggeredByEvent ?? null,
        senderID: services.config.senderId,
        receiverID: principal.clientId,
        schemaVersion: SCHEMA_VERSION,
      };
      const snapshot = services.snapshots.snapshot(row);
      if (ctx.rendered) {
        // The service's own run (REST, push) of an unchanged version it rendered before: the kept text
        // stands for the field, which is null so that nothing of the snapshot is walked again.
        // A version not rendered yet: REST's rendering stored with the snapshot, read as text (one column).
        const { rendered } = ctx;
        let tracking = snapshot.rendering(rendered.name);
        if (tracking === undefined && rendered.stored) tracking = await snapshot.storedRendering(rendered.name, row.restRenderingZ);
        // A GraphQL selection REST's rendering answers (src/executor/rest-projection.ts): made from it, kept or stored.
        if (tracking === undefined && rendered.derived) {
          const { from, make } = rendered.derived;
          const source = snapshot.rendering(from) ?? (await snapshot.storedRendering(from, row.restRenderingZ));
          if (source !== undefined) {
            tracking = make(source);
            snapshot.keepRendering(rendered.name, tracking);
          }
        }
        if (tracking !== undefined) {
          rendered.hit = { header: transmissionHeader, tracking };
          // The prediction moves with time: read for this request, as the walk's field reads it (shipment-tracking.ts).
          if (rendered.predicted) {
            const predicted = services.predictions.forShipment(row, services.now());
            rendered.hit.predictedArrival = predicted instanceof Promise ? await predicted : predicted;
          }
          return null;
        }
        rendered.keep = (text) => snapshot.keepRendering(rendered.name, text);
      }
      return { transmissionHeader, shipmentTracking: new ShipmentSource(row, snapshot) };
    },
  }),
);
