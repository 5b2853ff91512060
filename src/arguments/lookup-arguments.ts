import { z } from 'zod';
import { explainInvalidContainerNumber } from '../domain/container-number.js';
import type { ShipmentLookup } from '../store/shipments/shipment-lookup.js';
import { DCSA, lookupError } from '../errors/errors.js';

/**
 * The lookup parameters of spec section 4.2 and their rules, shared by every
 * field that names a shipment (the lookup, webhook subscriptions, live
 * updates), so all of them accept and refuse exactly the same input.
 */
/**
 * A lookup value compared exactly with stored identifiers (docs/architecture.md, Identity):
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

/** The lookup parameters, each well-formed, none required. */
export const lookupFields = z.object({
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
});

/** The lookup parameters' schema: one lookup form, each value well-formed. */
export const lookupArgs = lookupFields.superRefine((args, ctx) => {
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
      message: 'give a lookup parameter: carrierCode with carrierBookingReference, billOfLadingNumber, or equipmentReference',
    });
  }
});

/** Whether lookup arguments name no shipment at all (an account-wide webhook subscription). */
export function namesNoShipment(args: LookupArgs): boolean {
  return args.carrierBookingReference == null && args.billOfLadingNumber == null && args.equipmentReference == null;
}

/**
 * A webhook subscription's target: one lookup form, or none at all for every shipment of the account
 * (docs/account-feed.md). carrierCode alone names no shipment and is refused (carrierCodes filters carriers).
 */
export const subscriptionTargetArgs = lookupFields.superRefine((args, ctx) => {
  if (args.carrierBookingReference != null && args.carrierCode == null) {
    ctx.addIssue({
      code: 'custom',
      path: ['carrierCode'],
      message: 'carrierCode is required with carrierBookingReference: a carrier booking number is unique only within one carrier',
    });
  }
  if (args.carrierCode != null && namesNoShipment(args)) {
    ctx.addIssue({
      code: 'custom',
      path: ['carrierCode'],
      message:
        'carrierCode alone names no shipment: add carrierBookingReference, or leave the lookup out for the whole account and filter with carrierCodes',
    });
  }
});

export type LookupArgs = z.input<typeof lookupArgs>;

export function toShipmentLookup(args: LookupArgs): ShipmentLookup {
  return {
    carrierCode: args.carrierCode ?? undefined,
    carrierBookingReference: args.carrierBookingReference ?? undefined,
    billOfLadingNumber: args.billOfLadingNumber ?? undefined,
    equipmentReference: args.equipmentReference ?? undefined,
  };
}

/** The same answer whether nothing matches or the shipment belongs to another account. */
export function shipmentNotFound() {
  return lookupError('NOT_FOUND', 'no shipment matches the given parameters', [
    { ...DCSA.notFound, errorCodeMessage: 'No shipment matches the given parameters.' },
  ]);
}
