import type { Principal } from '../auth/principal.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { checkTrackingReference, parsePrefixes, recogniseCarrier, type TrackingReferenceInput } from '../domain/tracking-reference.js';
import { DCSA, lookupError } from '../errors/errors.js';
import {
  createTrackingRequest,
  getTrackingRequest,
  listTrackingRequests,
  RequestCapError,
  stopTrackingRequest,
  trackableCarriers,
  type TrackingRequestView,
} from '../store/carriers/tracking-requests.js';

/**
 * The rules of tracking requests as the API serves them (docs/tracking-requests.md): one reference, its carrier
 * given or recognised, one active request per client and reference, a cap per client, and requests visible to
 * their own client alone (another's is NOT_FOUND, as an unknown one).
 */

function badInput(property: string, message: string) {
  return lookupError('BAD_USER_INPUT', message, [
    { ...DCSA.invalidParameter, property, jsonPath: `$.${property}`, errorCodeMessage: message },
  ]);
}

export function trackingRequestNotFound() {
  return lookupError('NOT_FOUND', 'no such tracking request', [{ ...DCSA.notFound, errorCodeMessage: 'No such tracking request.' }]);
}

export async function requestTracking(
  database: Database,
  config: Pick<Config, 'tracking'>,
  principal: Principal,
  input: TrackingReferenceInput,
  now: Date,
): Promise<{ trackingRequest: TrackingRequestView; created: boolean }> {
  const checked = checkTrackingReference(input);
  if (!checked.ok) throw badInput(checked.field, checked.message);
  const { kind, reference } = checked.value;
  const carriers = (await trackableCarriers(database.db)).filter((c) => c.status === 'ACTIVE' && c.eventsUrl !== null);
  let carrierCode = checked.value.carrierCode;
  if (carrierCode === null) {
    const recognised = recogniseCarrier(
      reference,
      carriers.map((c) => ({ carrierCode: c.carrierCode, prefixes: c.prefixes === null ? [c.carrierCode] : parsePrefixes(c.prefixes) })),
    );
    if (!recognised.ok) throw badInput('carrierCode', recognised.message);
    carrierCode = recognised.carrierCode;
  } else if (!carriers.some((c) => c.carrierCode === carrierCode)) {
    throw badInput('carrierCode', `carrier ${carrierCode} is not a carrier the service fetches events from`);
  }
  try {
    const { request, created } = await createTrackingRequest(
      database.db,
      { carrierCode, kind, reference, clientId: principal.clientId, accountIds: principal.accountIds },
      now,
      config.tracking.maxRequestsPerClient,
    );
    return { trackingRequest: request, created };
  } catch (err) {
    if (err instanceof RequestCapError) throw badInput('trackingRequestID', err.message);
    throw err;
  }
}

export async function requireTrackingRequest(database: Database, principal: Principal, id: string): Promise<TrackingRequestView> {
  const request = await getTrackingRequest(database.db, principal.clientId, id);
  if (!request) throw trackingRequestNotFound();
  return request;
}

export async function stopTracking(database: Database, principal: Principal, id: string, now: Date): Promise<boolean> {
  if (!(await stopTrackingRequest(database.db, principal.clientId, id, now))) throw trackingRequestNotFound();
  return true;
}

/** The page cursor: opaque to clients (base64url of the last request's creation time and id). */
export function encodeCursor(request: Pick<TrackingRequestView, 'createdDateTime' | 'trackingRequestID'>): string {
  return Buffer.from(`${request.createdDateTime}|${request.trackingRequestID}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f-]{36})$/.exec(text);
  return m ? { createdAt: m[1] as string, id: m[2] as string } : null;
}

export async function pageOfTrackingRequests(
  database: Database,
  principal: Principal,
  options: { after?: string | null; limit?: number | null },
  /** The argument the cursor came in, named by a refusal. */
  cursorProperty = 'cursor',
): Promise<{ trackingRequests: TrackingRequestView[]; nextCursor: string | null; more: boolean }> {
  const limit = options.limit ?? 100;
  let after: { createdAt: string; id: string } | undefined;
  if (options.after) {
    const decoded = decodeCursor(options.after);
    if (!decoded) {
      const use = cursorProperty === 'cursor' ? 'nextCursor' : 'a cursor';
      throw badInput(cursorProperty, `${cursorProperty} is not one this service gave (use ${use} of a previous page)`);
    }
    after = decoded;
  }
  const { requests, more } = await listTrackingRequests(database.db, principal.clientId, { ...(after ? { after } : {}), limit });
  const last = requests[requests.length - 1];
  return { trackingRequests: requests, nextCursor: more && last ? encodeCursor(last) : null, more };
}
