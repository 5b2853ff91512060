import {
  CONTAINER_DATE_REFERENCE_KEYS,
  CONTAINER_STRING_REFERENCE_KEYS,
  SHIPMENT_DATE_REFERENCE_KEYS,
  SHIPMENT_STRING_REFERENCE_KEYS,
} from '../../domain/types.js';
import { builder } from '../builder.js';

type References = Record<string, string | null>;

const NAMED_KEYS: Record<string, string> = {
  customer_name: "The customer's name; empty when unset.",
  cargo_ready_dt: 'When the cargo is ready; null when unset.',
  si_cutoff_dt: 'Shipping instruction cut-off; null when unset.',
  vgm_cutoff_dt: 'Verified gross mass (VGM) cut-off; null when unset.',
  booking_dt: 'When the booking was made; null when unset.',
  stuffing_dt: 'When the container was stuffed; null when unset.',
  free_time_exp_dt: 'When free time expires (DEMURRAGE_RISK and DETENTION_RISK are judged against it); null when unset.',
};

/** What a references key holds: named keys as above, numbered ones free-form. */
function keyDescription(key: string): string {
  const numbered = /^(string|date)_ref(\d+)$/.exec(key);
  if (numbered) {
    return numbered[1] === 'string'
      ? `Free-form string reference ${numbered[2]}; empty when unset.`
      : `Free-form date reference ${numbered[2]}; null when unset.`;
  }
  const named = NAMED_KEYS[key];
  if (!named) throw new Error(`references key ${key} has no description`);
  return named;
}

/** The spec's `references` objects: string keys (possibly empty) and date keys (timestamp or null). */
function referencesType(name: string, description: string, stringKeys: readonly string[], dateKeys: readonly string[]) {
  return builder.objectRef<References>(name).implement({
    description,
    fields: (t) => ({
      ...Object.fromEntries(
        stringKeys.map((key) => [key, t.string({ description: keyDescription(key), resolve: (refs) => refs[key] ?? '' })]),
      ),
      ...Object.fromEntries(
        dateKeys.map((key) => [
          key,
          t.field({ type: 'DateTime', nullable: true, description: keyDescription(key), resolve: (refs) => refs[key] ?? null }),
        ]),
      ),
    }),
  });
}

export const ShipmentReferencesType = referencesType(
  'ShipmentReferences',
  'Booking-level reference fields: every key is always present.',
  SHIPMENT_STRING_REFERENCE_KEYS,
  SHIPMENT_DATE_REFERENCE_KEYS,
);

export const ContainerReferencesType = referencesType(
  'ContainerReferences',
  'Container-level reference fields: every key is always present.',
  CONTAINER_STRING_REFERENCE_KEYS,
  CONTAINER_DATE_REFERENCE_KEYS,
);
