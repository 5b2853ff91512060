import { z } from 'zod';
import {
  CONTAINER_DATE_REFERENCE_KEYS,
  CONTAINER_STRING_REFERENCE_KEYS,
  SHIPMENT_DATE_REFERENCE_KEYS,
  SHIPMENT_STRING_REFERENCE_KEYS,
} from '../domain/types.js';
import type { ShipmentInput } from '../domain/bundle.js';
import { locationShape, normalizeLocation, spellingsAgree } from './event-schema.js';
import {
  carrierCode,
  containerNumber,
  dcsaText,
  evenWhenFieldsFail,
  isoEquipmentCode,
  optional,
  presentFields,
  timestamp,
} from './field-schemas.js';

/**
 * Shipment master data of an ingest bundle (docs/architecture.md, Ingest bundle). This is our
 * own format, so it is strict: an unknown key is an error (most likely a
 * typo that would otherwise silently lose data).
 */

/** References are free text from the customer's systems; DCSA referenceValue allows 100 characters. */
const REFERENCE_TEXT_LENGTH = 100;

// The spec serves string references as possibly empty strings; null is taken to mean empty.
const stringReference = z.string().max(REFERENCE_TEXT_LENGTH, `must be at most ${REFERENCE_TEXT_LENGTH} characters`).nullish();
const dateReference = timestamp.nullish();

/**
 * A `references` object restricted to the given keys; every key is filled
 * (strings '' and dates null) so that served references always carry all keys.
 */
function referencesSchema(stringKeys: readonly string[], dateKeys: readonly string[]) {
  const shape: Record<string, typeof stringReference | typeof dateReference> = {};
  for (const key of stringKeys) shape[key] = stringReference;
  for (const key of dateKeys) shape[key] = dateReference;
  return z
    .strictObject(shape)
    .nullish()
    .transform((given) => {
      const filled: Record<string, string | null> = {};
      for (const key of stringKeys) filled[key] = given?.[key] ?? '';
      for (const key of dateKeys) filled[key] = given?.[key] ?? null;
      return filled;
    });
}

const location = z
  .strictObject({ ...locationShape, address: optional(z.strictObject({ name: dcsaText(100) })) })
  .superRefine((raw, ctx) => spellingsAgree(raw, ctx), evenWhenFieldsFail)
  .nullish()
  .transform((l) => (l ? normalizeLocation(l) : undefined));

const container = z
  .strictObject({
    containerNumber,
    isoType: optional(isoEquipmentCode),
    references: referencesSchema(CONTAINER_STRING_REFERENCE_KEYS, CONTAINER_DATE_REFERENCE_KEYS),
  })
  .transform((c) => presentFields(c));

/** Container numbers must be unique within one shipment (the store keys containers by shipment and number). */
function rejectDuplicateContainers(raw: readonly unknown[], ctx: z.RefinementCtx): void {
  const firstIndex = new Map<string, number>();
  raw.forEach((c, index) => {
    const number = (c as { containerNumber?: unknown } | null)?.containerNumber;
    if (typeof number !== 'string') return;
    const first = firstIndex.get(number);
    if (first === undefined) firstIndex.set(number, index);
    else
      ctx.addIssue({
        code: 'custom',
        path: [index, 'containerNumber'],
        message: `container ${number} is already listed at containers[${first}]`,
      });
  });
}

const containers = z
  .array(container)
  .superRefine((raw, ctx) => rejectDuplicateContainers(raw, ctx), { when: (p) => Array.isArray(p.value) })
  .nullish()
  .transform((list) => list ?? []);

const accounts = z
  .array(dcsaText(100))
  .nullish()
  // Order and repetition carry no meaning: the accounts are a set.
  .transform((list) => [...new Set(list ?? [])]);

/** One entry of `shipments`, normalized to ShipmentInput (field order of ShipmentMaster). */
export const shipmentInput = z
  .strictObject({
    bookingReference: optional(dcsaText(35)),
    carrierBookingReference: dcsaText(35),
    // DCSA transportDocumentReference
    billOfLadingNumber: optional(dcsaText(20)),
    carrierCode,
    carrierName: optional(dcsaText(100)),
    serviceType: optional(dcsaText(50)),
    vesselName: optional(dcsaText(35)),
    voyageNumber: optional(dcsaText(50)),
    portOfLoading: location,
    portOfDischarge: location,
    placeOfReceipt: location,
    placeOfDelivery: location,
    references: referencesSchema(SHIPMENT_STRING_REFERENCE_KEYS, SHIPMENT_DATE_REFERENCE_KEYS),
    accounts,
    containers,
    updatedDateTime: optional(timestamp),
  })
  .transform((s): ShipmentInput =>
    presentFields({
      bookingReference: s.bookingReference,
      carrierBookingReference: s.carrierBookingReference,
      billOfLadingNumber: s.billOfLadingNumber,
      carrierCode: s.carrierCode,
      carrierName: s.carrierName,
      serviceType: s.serviceType,
      vesselName: s.vesselName,
      voyageNumber: s.voyageNumber,
      portOfLoading: s.portOfLoading,
      portOfDischarge: s.portOfDischarge,
      placeOfReceipt: s.placeOfReceipt,
      placeOfDelivery: s.placeOfDelivery,
      references: s.references,
      accounts: s.accounts,
      containers: s.containers,
      updatedDateTime: s.updatedDateTime,
    }),
  );
