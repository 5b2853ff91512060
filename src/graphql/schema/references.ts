import {
  CONTAINER_DATE_REFERENCE_KEYS,
  CONTAINER_STRING_REFERENCE_KEYS,
  SHIPMENT_DATE_REFERENCE_KEYS,
  SHIPMENT_STRING_REFERENCE_KEYS,
} from '../../domain/types.js';
import { builder } from '../builder.js';

type References = Record<string, string | null>;

/** The spec's `references` objects: string keys (possibly empty) and date keys (timestamp or null). */
function referencesType(name: string, description: string, stringKeys: readonly string[], dateKeys: readonly string[]) {
  return builder.objectRef<References>(name).implement({
    description,
    fields: (t) => ({
      ...Object.fromEntries(
        stringKeys.map((key) => [key, t.string({ resolve: (refs) => refs[key] ?? '' })]),
      ),
      ...Object.fromEntries(
        dateKeys.map((key) => [
          key,
          t.string({ nullable: true, description: 'ISO 8601 UTC timestamp or null.', resolve: (refs) => refs[key] ?? null }),
        ]),
      ),
    }),
  });
}

export const ShipmentReferencesType = referencesType(
  'ShipmentReferences',
  'Booking-level reference fields.',
  SHIPMENT_STRING_REFERENCE_KEYS,
  SHIPMENT_DATE_REFERENCE_KEYS,
);

export const ContainerReferencesType = referencesType(
  'ContainerReferences',
  'Container-level reference fields.',
  CONTAINER_STRING_REFERENCE_KEYS,
  CONTAINER_DATE_REFERENCE_KEYS,
);
