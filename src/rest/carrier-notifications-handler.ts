import { countIngestedBundle, countUnwrittenBundle } from '../observability/metrics.js';
import { carrierEventsBundle, describeIssues, validEventsOf } from '../carriers/carrier-events.js';
import { keepRejected, rejectedRows } from '../carriers/rejected-events.js';
import { verifyNotification } from '../carriers/notification-signature.js';
import { DCSA } from '../errors/errors.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { ingestRetrying } from '../carriers/ingest-retrying.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import { BodyTooLargeError, readLimitedBytes } from '../http-messages/limited-body.js';
import type { AppServices } from '../graphql/context.js';
import { ediFormatOf, ingestEdiBody, refuseUnconfiguredFormat } from './edi-ingest-body.js';

const ROUTE = /^\/v2\/carrier-notifications\/([^/]+)$/;
const ALLOWED = 'HEAD, POST';

/**
 * `POST /v2/carrier-notifications/{carrierCode}`: the callbackUrl of a
 * carrier's DCSA Track & Trace 2.2 event subscription. The body is the DCSA
 * notification, a JSON array of events, signed with
 * `Notification-Signature: sha256=<hex HMAC-SHA256 of the body>` under the
 * carrier's secret (src/carriers/notification-signature.ts).
 *
 * Order of checks: the carrier (404 unknown or disabled: nothing to learn,
 * since HEAD must answer without credentials anyway), the body size while
 * reading (413), the signature over the exact bytes (401, nothing parsed or
 * stored), then the content (415, 400 naming each event's index and field).
 * The events go through ingestBundle, the code path of `tracking ingest`,
 * in one transaction; 204 only after the commit. A replayed notification
 * changes nothing (eventIDs already stored are skipped) and is answered 204.
 *
 * `HEAD` answers 204 for an active carrier: DCSA publishers check a
 * callback URL that way before they send to it.
 */
export function isCarrierNotificationRoute(path: string): boolean {
  return ROUTE.test(path);
}

export async function handleCarrierNotification(
  request: Request,
  url: URL,
  services: AppServices,
  correlationId: string,
): Promise<Response> {
  const respond = new DcsaResponder(request, services, correlationId, 'No active carrier source has this carrier code.');
  const code = decodePathSegment(ROUTE.exec(url.pathname.replace(/\/+$/, ''))?.[1] ?? '');
  if (request.method !== 'POST' && request.method !== 'HEAD') {
    return respond.fail(405, [{ ...DCSA.invalidQuery, errorCodeMessage: `Use ${ALLOWED} for this resource.` }], { Allow: ALLOWED });
  }
  // The carrier's secret, and during a rotation's overlap the previous one too.
  const keys = await services.carriers.notificationKeys(code);
  if (request.method === 'HEAD') return new Response(null, { status: keys ? 204 : 404 });
  if (!keys) {
    return respond.fail(404, [
      { ...DCSA.notFound, property: 'carrierCode', errorCodeMessage: `No active carrier source ${code.slice(0, 20)}.` },
    ]);
  }

  let body: Buffer;
  try {
    body = await readLimitedBytes(
      request.body as ReadableStream<Uint8Array> | null,
      services.config.carriers.notificationMaxBytes,
      request.headers.get('content-length'),
    );
  } catch (err) {
    if (!(err instanceof BodyTooLargeError)) throw err;
    return respond.fail(413, [{ ...DCSA.invalidParameter, errorCodeMessage: err.message }]);
  }
  const header = request.headers.get('notification-signature');
  const checks = keys.map((key) => verifyNotification(header, body, key));
  const check = checks.includes('valid') ? 'valid' : (checks[0] ?? 'mismatch');
  if (check !== 'valid') {
    const reason =
      check === 'missing'
        ? 'The Notification-Signature header is required.'
        : check === 'malformed'
          ? 'Notification-Signature must be sha256= followed by 64 hex digits.'
          : "Notification-Signature does not match the body under this carrier's secret.";
    // Not a token problem: say what is wrong with the signature, not "A valid access token is required".
    return respond.fail(
      401,
      [{ ...DCSA.unauthorized, property: 'Notification-Signature', errorCodeMessage: reason }],
      {},
      "The notification is not signed with this carrier's notification secret.",
    );
  }

  const ediFormat = ediFormatOf(request.headers.get('content-type'));
  if (ediFormat) {
    // EDI status messages, signed like a DCSA notification (docs/carriers.md "EDI").
    return (
      (await refuseUnconfiguredFormat(services, respond, code, ediFormat)) ??
      ingestEdiBody(services, respond, { carrierCode: code, format: ediFormat, body }, correlationId)
    );
  }
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) {
    return respond.fail(415, [
      {
        ...DCSA.invalidParameter,
        errorCodeMessage: 'Content-Type must be application/json (or application/edi-x12, application/edifact).',
      },
    ]);
  }
  let events: unknown;
  try {
    events = JSON.parse(body.toString('utf8'));
  } catch (err) {
    countUnwrittenBundle('rejected');
    return respond.invalid(`The body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
  }
  if (!Array.isArray(events)) {
    countUnwrittenBundle('rejected');
    return respond.invalid('The body must be a JSON array of DCSA events.');
  }
  if (events.length === 0) return new Response(null, { status: 204 });

  const parsed = carrierEventsBundle(code, events);
  if (!parsed.ok) {
    countUnwrittenBundle('rejected');
    await keepRefusedNotification(services, code, events, correlationId);
    return respond.fail(
      400,
      parsed.issues.map((issue) => {
        // The bundle's `events[3].eventDateTime` is `[3].eventDateTime` of this body (an array).
        const property = issue.path.replace(/^events(?=\[)/, '');
        return { ...DCSA.invalidParameter, ...(property ? { property, jsonPath: `$${property}` } : {}), errorCodeMessage: issue.message };
      }),
    );
  }
  let summary;
  try {
    summary = await ingestRetrying(services.database, parsed.bundle, { now: () => services.now(), thresholds: services.config.thresholds });
  } catch (err) {
    // Nothing was committed: the carrier retries, and its retry is as good as the first try.
    countUnwrittenBundle('failed');
    if (isDatabaseUnavailable(err)) {
      services.log('warn', 'carrier notification: database unavailable', { correlationId, carrierCode: code, error: String(err) });
      return respond.unavailable('The database is unavailable; nothing was stored. Send the notification again later.');
    }
    services.log('error', 'carrier notification failed', {
      correlationId,
      carrierCode: code,
      error: err instanceof Error ? err.stack : String(err),
    });
    return respond.fail(500, [
      { ...DCSA.internalError, errorCodeMessage: 'Unexpected error; nothing was stored. Quote providerCorrelationReference.' },
    ]);
  }
  countIngestedBundle(summary);
  services.push.wake();
  if (summary.eventsUnlinked > 0) {
    services.log('info', 'carrier events stored for no known shipment (yet)', {
      correlationId,
      carrierCode: code,
      eventsUnlinked: summary.eventsUnlinked,
      hint: 'tracking carrier unlinked',
    });
  }
  services.log('debug', 'carrier notification ingested', {
    correlationId,
    carrierCode: code,
    eventsStored: summary.eventsStored,
    eventsAlreadyStored: summary.eventsAlreadyStored,
  });
  return new Response(null, { status: 204 });
}

/**
 * A refused notification stores nothing, but its events are kept with their
 * errors (docs/carriers.md "Carrier onboarding": `tracking carrier rejected`): the
 * invalid ones with their issues, the valid ones as refused with them, so
 * that a replay once the cause is fixed brings in the whole notification.
 * Keeping them must not turn the carrier's 400 into a 500: a failure is logged.
 */
async function keepRefusedNotification(services: AppServices, code: string, events: unknown[], correlationId: string): Promise<void> {
  const { refused } = validEventsOf(code, events);
  const bad = new Map(refused.map((r) => [r.index, r.issues]));
  const invalid = [...bad.keys()].slice(0, 10).map((i) => `[${i}]`);
  const all = events.map((_, index) => ({ index, issues: bad.get(index) ?? [] }));
  const note = (index: number) => {
    const issues = bad.get(index);
    return issues ? describeIssues(issues) : `valid, refused with its notification (invalid: ${invalid.join(', ')})`;
  };
  try {
    await keepRejected(
      services.database,
      rejectedRows(code, 'notification', events, all, note),
      services.now(),
      services.config.carriers.rejectedEventsMax,
    );
  } catch (err) {
    services.log('error', 'keeping refused carrier events failed', { correlationId, carrierCode: code, error: String(err) });
  }
}

/** A path segment decoded; a malformed %-escape is no carrier code (404), not a failure. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}
