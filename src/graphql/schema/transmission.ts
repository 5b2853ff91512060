import { z } from 'zod';
import { explainInvalidContainerNumber } from '../../domain/container-number.js';
import { findShipment } from '../../store/shipment-lookup.js';
import { builder } from '../builder.js';
import { DCSA, lookupError } from '../errors.js';
import { ShipmentSource } from '../shipment-source.js';
import { ShipmentTrackingType } from './shipment-tracking.js';

export const SCHEMA_VERSION = '1.2';

export const TriggerTypeEnum = builder.enumType('TriggerType', {
  values: {
    MANUAL_TRIGGER: { description: 'Full current snapshot; the only value returned by the lookup in v1.' },
    SCHEDULED_TRIGGER: { description: 'Periodic refresh (push, roadmap only).' },
    EVENT_TRIGGER: { description: 'New milestone (push, roadmap only).' },
    EXCEPTION_DETECTED: { description: 'New exception raised (push, roadmap only).' },
    EXCEPTION_RESOLVED: { description: 'Exception cleared (push, roadmap only).' },
  },
});

export interface TransmissionHeader {
  transmissionID: string;
  transmissionDateTime: string;
  triggerType: 'MANUAL_TRIGGER';
  triggeredByEvent: string | null;
  senderID: string;
  receiverID: string;
  schemaVersion: string;
}

export const TransmissionHeaderType = builder.objectRef<TransmissionHeader>('TransmissionHeader').implement({
  description: 'Metadata about this delivery.',
  fields: (t) => ({
    transmissionID: t.exposeString('transmissionID', {
      description: 'TXN- followed by digits; unique per transmission, for de-duplication.',
    }),
    transmissionDateTime: t.exposeString('transmissionDateTime'),
    triggerType: t.expose('triggerType', { type: TriggerTypeEnum }),
    triggeredByEvent: t.exposeString('triggeredByEvent', { nullable: true, description: 'Null for manual snapshots.' }),
    senderID: t.exposeString('senderID'),
    receiverID: t.exposeString('receiverID', { description: 'The client identifier.' }),
    schemaVersion: t.exposeString('schemaVersion'),
  }),
});

export interface Transmission {
  transmissionHeader: TransmissionHeader;
  shipmentTracking: ShipmentSource;
}

export const TransmissionType = builder.objectRef<Transmission>('Transmission').implement({
  fields: (t) => ({
    transmissionHeader: t.expose('transmissionHeader', { type: TransmissionHeaderType }),
    shipmentTracking: t.expose('shipmentTracking', { type: ShipmentTrackingType }),
  }),
});

/**
 * A lookup value compared exactly with stored identifiers (DESIGN section 10):
 * no normalisation, so `maeu…` is not `MAEU…`. Surrounding whitespace can
 * never match (ingest refuses it too), so it is a 400 rather than a silent 404.
 * Lengths follow the DCSA domain (carrierBookingReference 35,
 * transportDocumentReference 20).
 */
function exactReference(name: string, maxLength: number) {
  return z
    .string()
    .min(1, `${name} must not be empty`)
    .max(maxLength, `${name} must be at most ${maxLength} characters`)
    .refine((v) => v.trim() === v, `${name} must not start or end with whitespace`)
    .nullish();
}

const lookupArgs = z
  .object({
    carrierCode: z
      .string()
      .regex(/^[A-Z]{2,4}$/, 'carrierCode must be a carrier SCAC code of 2 to 4 upper-case letters')
      .nullish(),
    carrierBookingReference: exactReference('carrierBookingReference', 35),
    billOfLadingNumber: exactReference('billOfLadingNumber', 20),
    equipmentReference: z
      .string()
      .superRefine((value, ctx) => {
        const problem = explainInvalidContainerNumber(value);
        if (problem) ctx.addIssue({ code: 'custom', message: `equipmentReference ${problem}` });
      })
      .nullish(),
  })
  .superRefine((args, ctx) => {
    if (args.carrierBookingReference != null && args.carrierCode == null) {
      ctx.addIssue({
        code: 'custom',
        path: ['carrierCode'],
        message: 'carrierCode is required with carrierBookingReference: a carrier booking number is unique only within one carrier',
      });
    }
    if (args.carrierBookingReference == null && args.billOfLadingNumber == null && args.equipmentReference == null) {
      ctx.addIssue({
        code: 'custom',
        message:
          'give a lookup parameter: carrierCode with carrierBookingReference, billOfLadingNumber, or equipmentReference',
      });
    }
  });

builder.queryType({});

builder.queryField('shipment', (t) =>
  t.field({
    type: TransmissionType,
    nullable: true,
    description:
      'The current snapshot of one shipment, by (a) carrierCode + carrierBookingReference, (b) billOfLadingNumber or ' +
      '(c) equipmentReference, alone or combined with (a) or (b); combined parameters must all match one shipment. ' +
      'Requires a bearer token with scope track-and-trace.read.',
    args: {
      carrierCode: t.arg.string({ required: false, description: 'Carrier SCAC code; required with carrierBookingReference.' }),
      carrierBookingReference: t.arg.string({ required: false }),
      billOfLadingNumber: t.arg.string({ required: false }),
      equipmentReference: t.arg.string({ required: false, description: 'Container number (ISO 6346).' }),
    },
    validate: lookupArgs,
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      const { services } = ctx;
      const row = await findShipment(
        services.database.db,
        {
          carrierCode: args.carrierCode ?? undefined,
          carrierBookingReference: args.carrierBookingReference ?? undefined,
          billOfLadingNumber: args.billOfLadingNumber ?? undefined,
          equipmentReference: args.equipmentReference ?? undefined,
        },
        principal.accountIds,
      );
      if (!row) {
        // The same answer whether nothing matches or the shipment belongs to another account.
        throw lookupError('NOT_FOUND', 'no shipment matches the given parameters', [
          { ...DCSA.notFound, errorCodeMessage: 'No shipment matches the given parameters.' },
        ]);
      }
      return {
        transmissionHeader: {
          transmissionID: await services.transmissionIds.next(),
          transmissionDateTime: services.now().toISOString(),
          triggerType: 'MANUAL_TRIGGER' as const,
          triggeredByEvent: null,
          senderID: services.config.senderId,
          receiverID: principal.clientId,
          schemaVersion: SCHEMA_VERSION,
        },
        shipmentTracking: new ShipmentSource(row, services.snapshots.snapshot(row)),
      };
    },
  }),
);
