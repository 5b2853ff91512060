/**
 * REST omits optional fields that have no value (DESIGN section 5), where
 * GraphQL answers null. JSON null stays only where the spec uses it: the
 * identifier fields that are always carried, triggeredByEvent, a container
 * without events' latestEvent, and the date keys of `references`.
 */

const ALWAYS_CARRIED = new Set([
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

export function omitAbsent(value: unknown, keepNulls = false): unknown {
  if (Array.isArray(value)) return value.map((v) => omitAbsent(v));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null && !keepNulls && !ALWAYS_CARRIED.has(key)) continue;
    // Every key of a `references` object is carried: date keys are null when absent.
    out[key] = omitAbsent(v, key === 'references');
  }
  return out;
}
