import { explainInvalidContainerNumber } from './container-number.js';

/**
 * What a tracking request names (docs/tracking-requests.md): exactly one reference, and the carrier that
 * issued it, given or recognised from the reference's prefix among the configured carriers. Pure.
 */

/** TRD: a bill of lading (transport document); BKG: a carrier booking; EQ: a container. */
export type ReferenceKind = 'TRD' | 'BKG' | 'EQ';

export interface TrackingReferenceInput {
  transportDocumentReference?: string | null;
  carrierBookingReference?: string | null;
  equipmentReference?: string | null;
  carrierCode?: string | null;
}

export interface TrackingReference {
  kind: ReferenceKind;
  reference: string;
  /** Given by the client, or null when it is to be recognised from the prefix. */
  carrierCode: string | null;
}

/** The DCSA 2.2 query parameter that filters a carrier's events by each kind of reference. */
export const REFERENCE_FILTER: Record<ReferenceKind, string> = {
  TRD: 'transportDocumentReference',
  BKG: 'carrierBookingReference',
  EQ: 'equipmentReference',
};

/** A refused request: `field` names the input field, `message` says why. */
export type ReferenceCheck = { ok: true; value: TrackingReference } | { ok: false; field: string; message: string };

const TEXT = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
/** DCSA 2.2: transportDocumentReference at most 20, carrierBookingReference at most 35 characters. */
const MAX_LENGTH: Record<'TRD' | 'BKG', number> = { TRD: 20, BKG: 35 };

export function checkTrackingReference(input: TrackingReferenceInput): ReferenceCheck {
  const given = (['transportDocumentReference', 'carrierBookingReference', 'equipmentReference'] as const).filter(
    (k) => input[k] !== undefined && input[k] !== null,
  );
  if (given.length !== 1) {
    return {
      ok: false,
      field: given[1] ?? 'transportDocumentReference',
      message:
        'give exactly one of transportDocumentReference (bill of lading), carrierBookingReference (with carrierCode) or equipmentReference (container)',
    };
  }
  const field = given[0] as (typeof given)[number];
  const value = input[field] as string;
  const kind: ReferenceKind = field === 'transportDocumentReference' ? 'TRD' : field === 'carrierBookingReference' ? 'BKG' : 'EQ';
  if (kind === 'EQ') {
    const problem = explainInvalidContainerNumber(value);
    if (problem) return { ok: false, field, message: `equipmentReference: ${problem}` };
  } else if (value.length === 0 || value.length > MAX_LENGTH[kind] || !TEXT.test(value)) {
    return {
      ok: false,
      field,
      message: `${field} must be 1 to ${MAX_LENGTH[kind]} printable characters without surrounding spaces`,
    };
  }
  const carrierCode = input.carrierCode ?? null;
  if (carrierCode !== null && !/^[A-Z]{2,4}$/.test(carrierCode)) {
    return { ok: false, field: 'carrierCode', message: 'carrierCode must be 2 to 4 upper-case letters (SCAC)' };
  }
  if (kind === 'BKG' && carrierCode === null) {
    return { ok: false, field: 'carrierCode', message: 'carrierBookingReference needs its carrierCode: a booking number names no carrier' };
  }
  return { ok: true, value: { kind, reference: value, carrierCode } };
}

/** A configured carrier and the prefixes its references start with (its carrier code when none are configured). */
export interface CarrierPrefixes {
  carrierCode: string;
  prefixes: readonly string[];
}

export type Recognised = { ok: true; carrierCode: string } | { ok: false; message: string; candidates: string[] };

/**
 * The carrier a reference names by its prefix: of the carriers with a prefix the reference starts with,
 * the one with the longest such prefix. None, or several with the same longest prefix, is refused with
 * the candidates named, so the client can give carrierCode.
 */
export function recogniseCarrier(reference: string, carriers: readonly CarrierPrefixes[]): Recognised {
  let best = 0;
  let matches: string[] = [];
  for (const carrier of carriers) {
    const length = Math.max(0, ...carrier.prefixes.filter((p) => p.length > 0 && reference.startsWith(p)).map((p) => p.length));
    if (length === 0) continue;
    if (length > best) {
      best = length;
      matches = [carrier.carrierCode];
    } else if (length === best) matches.push(carrier.carrierCode);
  }
  if (matches.length === 1) return { ok: true, carrierCode: matches[0] as string };
  if (matches.length > 1) {
    const candidates = matches.sort();
    return {
      ok: false,
      candidates,
      message: `the reference's prefix matches several carriers (${candidates.join(', ')}); give carrierCode`,
    };
  }
  const known = carriers
    .map((c) => c.carrierCode)
    .sort()
    .slice(0, 20);
  return {
    ok: false,
    candidates: [],
    message:
      known.length === 0
        ? 'no carrier is configured to fetch events from; an operator adds one with `tracking carrier add`'
        : `no configured carrier recognises this reference's prefix; give carrierCode (configured: ${known.join(', ')})`,
  };
}

/** Parses a stored or given prefix list (comma-separated); empty entries dropped. */
export function parsePrefixes(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}
