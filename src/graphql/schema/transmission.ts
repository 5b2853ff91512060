import { z } from 'zod';
import { explainInvalidContainerNumber } from '../../domain/container-number.js';
import { TRIGGER_TYPE_LIST } from '../../domain/enumerations.js';
import { findShipment } from '../../store/shipment-lookup.js';
import { builder } from '../builder.js';
import { codeListEnum } from '../code-list-enum.js';
import { DCSA, lookupError } from '../errors.js';
import { ShipmentSource } from '../shipment-source.js';
import { ShipmentTrackingType } from './shipment-tracking.js';

export const SCHEMA_VERSION = '1.2';

export const TriggerTypeEnum = codeListEnum('TriggerType', 'Why a transmission was sent.', TRIGGER_TYPE_LIST);

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
    transmissionDateTime: t.expose('transmissionDateTime', { type: 'DateTime', description: 'When the transmission was sent.' }),
    triggerType: t.expose('triggerType', {
      type: TriggerTypeEnum,
      description: 'Why it was sent: MANUAL_TRIGGER for every lookup in v1.',
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

builder.queryType({ description: 'Reads: the shipment lookup.' });

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
      carrierBookingReference: t.arg.string({
        required: false,
        description: 'Carrier booking number, at most 35 characters; requires carrierCode.',
      }),
      billOfLadingNumber: t.arg.string({ required: false, description: 'Bill of lading number, at most 20 characters.' }),
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
