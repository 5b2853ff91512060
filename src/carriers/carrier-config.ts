import type { Environment } from '../config/config.js';
import { EDI_FORMATS, type EdiFormat } from '../domain/edi-status-map.js';
import { EDI_TIMES, type EdiTimes } from '../domain/edi-times.js';
import { generateNotificationSecret, notificationKey } from './notification-signature.js';

/**
 * What an operator configures for a carrier (`tracking carrier add`),
 * validated before anything is stored. Pure: no I/O.
 */

/** How the poller authenticates to a carrier's DCSA events endpoint. */
export type EventsAuth =
  | { kind: 'none' }
  /** OAuth 2.0 client credentials (RFC 6749 section 4.4) at the carrier's token endpoint. */
  | { kind: 'oauth2'; tokenUrl: string; clientId: string; clientSecret: string; scope?: string }
  /** A fixed header, e.g. `X-API-Key: …`. */
  | { kind: 'api-key'; header: string; value: string };

export interface CarrierInput {
  carrierCode: string;
  name?: string;
  /** The DCSA notification secret (Base64); generated when absent. */
  secret?: string;
  eventsUrl?: string;
  auth?: EventsAuth;
  pollIntervalSeconds?: number;
  /** Where the first poll starts (eventCreatedDateTime); default: when the carrier is added. */
  pollSince?: string;
}

export interface ValidCarrier {
  carrierCode: string;
  name: string;
  secret: string;
  eventsUrl: string | null;
  auth: EventsAuth;
  pollIntervalSeconds: number;
  pollSince: string | null;
}

export const DEFAULT_POLL_INTERVAL_SECONDS = 300;
export const MIN_POLL_INTERVAL_SECONDS = 10;
export const MAX_POLL_INTERVAL_SECONDS = 86_400;

/** A bad value given to `tracking carrier …`; the CLI reports it as a usage error. */
export class CarrierInputError extends Error {
  override name = 'CarrierInputError';
}

/** SCAC: 2 to 4 upper-case letters, as the ingest bundle's carrierCode. */
export function checkCarrierCode(code: string): string {
  if (!/^[A-Z]{2,4}$/.test(code))
    throw new CarrierInputError(`carrier code must be 2 to 4 upper-case letters (SCAC), got "${code.slice(0, 20)}"`);
  return code;
}

export function checkSecret(secret: string | undefined): string {
  if (secret === undefined) return generateNotificationSecret();
  const key = notificationKey(secret);
  if (!key.ok) throw new CarrierInputError(key.message);
  return secret.trim();
}

/** An http(s) address without user info or fragment; https only in production (credentials travel to it). */
export function checkUrl(what: string, value: string, environment: Environment): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CarrierInputError(`${what} must be an absolute http(s) URL, got "${value.slice(0, 100)}"`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && environment === 'sandbox')) {
    throw new CarrierInputError(`${what} must use https${environment === 'sandbox' ? ' or http' : ' in production'}`);
  }
  if (url.username || url.password) throw new CarrierInputError(`${what} must not carry user:password; use the credential options`);
  if (url.hash) throw new CarrierInputError(`${what} must not have a #fragment`);
  if (value.length > 2000) throw new CarrierInputError(`${what} must be at most 2000 characters`);
  return url.toString();
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'accept']);

export function checkAuth(auth: EventsAuth, environment: Environment): EventsAuth {
  switch (auth.kind) {
    case 'none':
      return auth;
    case 'oauth2': {
      if (!auth.clientId.trim() || !auth.clientSecret) throw new CarrierInputError('OAuth2 needs a client id and a client secret');
      return {
        kind: 'oauth2',
        tokenUrl: checkUrl('the OAuth2 token URL', auth.tokenUrl, environment),
        clientId: auth.clientId.trim(),
        clientSecret: auth.clientSecret,
        ...(auth.scope?.trim() ? { scope: auth.scope.trim() } : {}),
      };
    }
    case 'api-key':
      if (!HEADER_NAME.test(auth.header) || RESERVED_HEADERS.has(auth.header.toLowerCase())) {
        throw new CarrierInputError(`the API key header must be a header name such as X-API-Key, got "${auth.header.slice(0, 100)}"`);
      }
      if (!/^[\x20-\x7e]{1,2000}$/.test(auth.value) || auth.value.trim() !== auth.value) {
        throw new CarrierInputError('the API key must be 1 to 2000 printable characters without surrounding spaces');
      }
      return auth;
  }
}

export function checkCarrier(input: CarrierInput, environment: Environment): ValidCarrier {
  const carrierCode = checkCarrierCode(input.carrierCode);
  const name = (input.name ?? carrierCode).trim();
  if (name.length === 0 || name.length > 200) throw new CarrierInputError('name must be 1 to 200 characters');
  const auth = checkAuth(input.auth ?? { kind: 'none' }, environment);
  if (!input.eventsUrl && auth.kind !== 'none') throw new CarrierInputError('credentials are for the events URL: give --events-url too');
  if (!input.eventsUrl && (input.pollIntervalSeconds !== undefined || input.pollSince !== undefined)) {
    throw new CarrierInputError('--poll-interval and --poll-since need --events-url');
  }
  const interval = checkPollInterval(input.pollIntervalSeconds ?? DEFAULT_POLL_INTERVAL_SECONDS);
  const pollSince = input.pollSince === undefined ? null : checkPollSince(input.pollSince);
  return {
    carrierCode,
    name,
    secret: checkSecret(input.secret),
    eventsUrl: input.eventsUrl ? checkUrl('the events URL', input.eventsUrl, environment) : null,
    auth,
    pollIntervalSeconds: interval,
    pollSince,
  };
}

/** What `tracking carrier update` may change; absent fields stay as they are. */
export interface CarrierUpdate {
  name?: string;
  /** A new events URL, or null to stop polling (push only). */
  eventsUrl?: string | null;
  /** New credentials for the events URL (`none` removes them). */
  auth?: EventsAuth;
  pollIntervalSeconds?: number;
  /** Where polling starts, for a carrier that gets its first events URL now. */
  pollSince?: string;
  /** How long the replaced credentials are still tried when the carrier refuses the new ones. Default 0. */
  overlapSeconds?: number;
}

export interface ValidCarrierUpdate {
  name?: string;
  eventsUrl?: string | null;
  auth?: EventsAuth;
  pollIntervalSeconds?: number;
  pollSince?: string;
  overlapSeconds: number;
}

/** The longest overlap of a rotation: a week, as for webhook signing secrets. */
export const MAX_OVERLAP_SECONDS = 7 * 86_400;

export function checkOverlap(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_OVERLAP_SECONDS) {
    throw new CarrierInputError(`the overlap must be 0 to ${MAX_OVERLAP_SECONDS} seconds`);
  }
  return seconds;
}

function checkPollInterval(interval: number): number {
  if (!Number.isInteger(interval) || interval < MIN_POLL_INTERVAL_SECONDS || interval > MAX_POLL_INTERVAL_SECONDS) {
    throw new CarrierInputError(`the poll interval must be ${MIN_POLL_INTERVAL_SECONDS} to ${MAX_POLL_INTERVAL_SECONDS} seconds`);
  }
  return interval;
}

function checkPollSince(value: string): string {
  const ms = Date.parse(value);
  if (!/(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(ms)) {
    throw new CarrierInputError('--poll-since must be an ISO 8601 timestamp with an offset, e.g. 2026-11-01T00:00:00Z');
  }
  return new Date(ms).toISOString();
}

/** Checks an update against what the carrier has now (its events URL); nothing given is a usage error too. */
export function checkCarrierUpdate(
  input: CarrierUpdate,
  current: { eventsUrl: string | null },
  environment: Environment,
): ValidCarrierUpdate {
  const out: ValidCarrierUpdate = { overlapSeconds: checkOverlap(input.overlapSeconds ?? 0) };
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name.length === 0 || name.length > 200) throw new CarrierInputError('name must be 1 to 200 characters');
    out.name = name;
  }
  if (input.eventsUrl !== undefined)
    out.eventsUrl = input.eventsUrl === null ? null : checkUrl('the events URL', input.eventsUrl, environment);
  const eventsUrl = out.eventsUrl === undefined ? current.eventsUrl : out.eventsUrl;
  if (input.auth !== undefined) {
    if (eventsUrl === null && input.auth.kind !== 'none')
      throw new CarrierInputError('credentials are for the events URL: give --events-url too');
    out.auth = checkAuth(input.auth, environment);
  }
  if (input.pollIntervalSeconds !== undefined) {
    if (eventsUrl === null) throw new CarrierInputError('--poll-interval needs an events URL');
    out.pollIntervalSeconds = checkPollInterval(input.pollIntervalSeconds);
  }
  if (input.pollSince !== undefined) {
    if (current.eventsUrl !== null || !out.eventsUrl) {
      throw new CarrierInputError(
        '--poll-since applies only when the carrier gets its first events URL (the watermark moves by itself after)',
      );
    }
    out.pollSince = checkPollSince(input.pollSince);
  }
  if (input.overlapSeconds !== undefined && input.auth === undefined) throw new CarrierInputError('--overlap is for new credentials');
  if (Object.keys(out).length === 1) throw new CarrierInputError('nothing to change: give at least one option (see --help)');
  return out;
}

/** At most this many reference prefixes per carrier. */
export const MAX_REFERENCE_PREFIXES = 20;

/**
 * The prefixes by which a tracked reference names the carrier (docs/tracking-requests.md), comma-separated:
 * 1 to 11 upper-case letters or digits each (a bill of lading prefix such as MAEU, a container owner code such as
 * MSKU); `-` for none of its own (its carrier code serves). Returns the list, or null for `-`.
 */
export function checkReferencePrefixes(value: string): string[] | null {
  if (value.trim() === '-') return null;
  const prefixes = [...new Set(value.split(',').map((p) => p.trim()))];
  if (prefixes.length === 0 || prefixes.length > MAX_REFERENCE_PREFIXES || prefixes.some((p) => !/^[A-Z0-9]{1,11}$/.test(p))) {
    throw new CarrierInputError(
      `reference prefixes must be 1 to ${MAX_REFERENCE_PREFIXES} comma-separated prefixes of 1 to 11 upper-case letters or digits (or - for the carrier code alone), got "${value.slice(0, 100)}"`,
    );
  }
  return prefixes;
}

/**
 * The EDI formats a carrier sends besides DCSA (docs/carriers.md "EDI"), comma-separated: `x12-315`,
 * `iftsta`; `dcsa` for none. Its pushes and the operator's `tracking ingest --format` accept only these.
 */
export function checkEdiFormats(value: string): EdiFormat[] {
  const given = [...new Set(value.split(',').map((f) => f.trim()))];
  if (given.length === 1 && given[0] === 'dcsa') return [];
  const bad = given.filter((f) => !(EDI_FORMATS as readonly string[]).includes(f));
  if (given.length === 0 || bad.length > 0) {
    throw new CarrierInputError(
      `formats must be comma-separated EDI formats (${EDI_FORMATS.join(', ')}), or dcsa for DCSA only; got "${value.slice(0, 100)}"`,
    );
  }
  return given as EdiFormat[];
}

/**
 * How a carrier's EDI times without a zone code are read (docs/carriers.md "Times"): `local`, the local time of
 * the status location as the carriers' guides say, or `utc` for a carrier that sends UTC.
 */
export function checkEdiTimes(value: string): EdiTimes {
  if (!(EDI_TIMES as readonly string[]).includes(value)) {
    throw new CarrierInputError(`--times must be ${EDI_TIMES.join(' or ')}; got "${value.slice(0, 20)}"`);
  }
  return value as EdiTimes;
}
