/**
 * REST omits optional fields that have no value (docs/architecture.md, Snapshot rules), where GraphQL answers
 * null. JSON null stays only where the spec uses it: the identifier fields that are always carried,
 * triggeredByEvent, a container without events' latestEvent, and the date keys of `references`. The rule is
 * applied to executed results by http-messages/rest-body.ts (omitAbsent) and followed by the stored rendering
 * (rest-tracking.ts).
 */

/** Keys whose null is kept wherever they occur (the OpenAPI document describes them as required and nullable). */
export const ALWAYS_CARRIED: ReadonlySet<string> = new Set([
  'bookingReference',
  'carrierBookingReference',
  'billOfLadingNumber',
  'carrierCode',
  'carrierName',
  'serviceType',
  'etd',
  'eta',
  'triggeredByEvent',
  'latestEvent',
]);

/** Every key of an object under this key is carried: its nulls are kept (the date keys of `references`). */
export const NULLS_KEPT_UNDER = 'references';
