import { z } from 'zod';
import { explainInvalidContainerNumber } from '../domain/container-number.js';
import { explainInvalidImoNumber } from '../domain/imo-number.js';
import { toUtcIso } from '../domain/timestamps.js';

/**
 * Field-level schemas shared by the event and shipment schemas: identifier
 * patterns and lengths of the DCSA domain (`dcsa_domain_v3.1.1.yaml`),
 * timestamps, check digits. Every schema carries its own message so that an
 * issue reads well after its path, e.g. `events[3].eventDateTime: ...`.
 */

/**
 * DCSA free text: at most `maxLength` characters, not empty, no leading or
 * trailing whitespace (the domain's pattern `^\S+(\s+\S+)*$`).
 */
export function dcsaText(maxLength: number) {
  return z
    .string()
    .min(1, 'must not be empty')
    .max(maxLength, `must be at most ${maxLength} characters`)
    .refine((s) => s.length === 0 || s.trim() === s, 'must not start or end with whitespace');
}

/**
 * An optional field. JSON exporters commonly write null for a missing value;
 * it means the same as leaving the field out.
 */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish();
}

/**
 * Copies `source` without its absent (undefined or null) fields, keeping key
 * order: stored JSON never holds null to mean "missing", and equal data
 * always serializes to equal JSON (ingest compares stored and new documents).
 */
export function presentFields<T extends object>(source: T): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const key in source) {
    const value = source[key];
    if (value != null) out[key] = value;
  }
  return out as { [K in keyof T]: Exclude<T[K], null> };
}

/** SCAC: 2 to 4 upper-case letters (docs/architecture.md, REST contract; DCSA carrierCode is at most 4). */
export const carrierCode = z.string().regex(/^[A-Z]{2,4}$/, 'must be a SCAC carrier code: 2 to 4 upper-case letters, e.g. MAEU');

/** UN/LOCODE: ISO 3166 country code and 3 letters or digits 2-9 (DCSA UNLocationCode). */
export const unLocationCode = z
  .string()
  .regex(/^[A-Z]{2}[A-Z2-9]{3}$/, 'must be a UN/LOCODE: 2 letters and 3 letters or digits 2-9, e.g. NLRTM');

const TIMESTAMP_WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * ISO 8601 date-time with a UTC offset, normalized to canonical UTC (`Z`).
 * DCSA eventDateTime is local time with offset; without one the instant is
 * ambiguous, so it is rejected rather than guessed.
 */
export const timestamp = z.string().transform((value, ctx) => {
  const utc = toUtcIso(value);
  if (utc !== null) return utc;
  ctx.issues.push({
    code: 'custom',
    input: value,
    message: TIMESTAMP_WITHOUT_OFFSET.test(value)
      ? `timestamp "${value}" has no UTC offset; add Z or ±hh:mm, e.g. ${value}Z`
      : `"${value}" is not a valid ISO 8601 timestamp with offset, e.g. 2024-03-01T14:30:00+01:00`,
  });
  return z.NEVER;
});

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * DCSA eventID (`format: uuid`). Any 8-4-4-4-12 hex string is accepted, as
 * OpenAPI validators do (no RFC 4122 version check); it is lower-cased
 * because UUIDs compare case-insensitively and the eventID is the
 * idempotency key.
 */
export const eventId = z
  .string()
  .regex(UUID, 'must be a UUID, e.g. 3cecb101-7a1a-43a4-9d62-e88a131651e2')
  .transform((s) => s.toLowerCase());

/** ISO 6346 container number with a valid check digit. */
export const containerNumber = z.string().check((ctx) => {
  const problem = explainInvalidContainerNumber(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
});

/** IMO number with a valid check digit. */
export const imoNumber = z.string().check((ctx) => {
  const problem = explainInvalidImoNumber(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
});

/** ISO 6346 size and type code, e.g. 22G1, or a type group such as 45RT (DCSA ISOEquipmentCode). */
export const isoEquipmentCode = z.string().regex(/^[0-9A-Z]{4}$/, 'must be an ISO 6346 size-type code such as 22G1 or 45R1');

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parameters for a cross-field `superRefine` that must run even when some
 * fields already failed, so that one pass reports every issue. The check
 * then sees the raw input and must read it defensively; it is skipped only
 * when the input is not an object at all.
 */
export const evenWhenFieldsFail = { when: (payload: { value: unknown }) => isRecord(payload.value) };
