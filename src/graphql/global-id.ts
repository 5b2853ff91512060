import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';

/**
 * Global IDs (docs/graphql.md, Object identification): the plugin's encoding, Base64 of `Type:key`, where the key
 * is made of the object's own stable identifiers (carrier code and booking, container number, the UUIDs of
 * events, exceptions, subscriptions, deliveries and tracking requests), never a row number: the same data has
 * the same IDs on SQLite and MySQL/MariaDB, and after a restart.
 */

/** The type and key of a global ID, or null when it is not one this service hands out (forged, truncated, re-encoded). */
export function parseGlobalId(id: string): { typename: string; key: string } | null {
  if (id.length > MAX_GLOBAL_ID_LENGTH) return null;
  try {
    const { typename, id: key } = decodeGlobalID(id);
    // Only the canonical spelling: the same object never answers to two IDs.
    return encodeGlobalID(typename, key) === id ? { typename, key } : null;
  } catch {
    return null;
  }
}

/** Longer than any ID the service hands out (a booking of 35 characters and a container number are the longest keys). */
export const MAX_GLOBAL_ID_LENGTH = 200;

/** The key of a shipment: its natural key (docs/architecture.md, Identity). */
export function shipmentKey(carrierCode: string, carrierBookingReference: string): string {
  return `${carrierCode}:${carrierBookingReference}`;
}

/** The parts of a shipment key; a SCAC code holds no colon, a booking may. */
export function parseShipmentKey(key: string): { carrierCode: string; carrierBookingReference: string } | null {
  const at = key.indexOf(':');
  if (at <= 0 || at === key.length - 1) return null;
  return { carrierCode: key.slice(0, at), carrierBookingReference: key.slice(at + 1) };
}

/** The key of a container of a shipment: a container number is reused across shipments, so it names its shipment. */
export function containerKey(carrierCode: string, carrierBookingReference: string, containerNumber: string): string {
  return `${shipmentKey(carrierCode, carrierBookingReference)}:${containerNumber}`;
}

/** The parts of a container key; an ISO 6346 number holds no colon. */
export function parseContainerKey(key: string): { carrierCode: string; carrierBookingReference: string; containerNumber: string } | null {
  const at = key.lastIndexOf(':');
  const shipment = at > 0 ? parseShipmentKey(key.slice(0, at)) : null;
  const containerNumber = key.slice(at + 1);
  return shipment && containerNumber ? { ...shipment, containerNumber } : null;
}
