import { runDocument } from '../executor/run-document.js';
import { TRACKING_REQUEST_DOCUMENTS } from '../executor/tracking-request-documents.js';
import type { Executor } from '../executor/executor.js';
import type { AppServices } from '../graphql/context.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import { DCSA } from '../errors/errors.js';
import { readJsonBody } from '../http-messages/json-body.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { omitAbsent } from '../http-messages/rest-body.js';

/** Tracking request bodies are tiny JSON objects. */
export const TRACKING_REQUEST_BODY_BYTES = 4 * 1024;
const NO_STORE = { 'Cache-Control': 'no-store' };
const FIELDS = ['transportDocumentReference', 'carrierBookingReference', 'equipmentReference', 'carrierCode'];

/**
 * The tracking request routes (docs/tracking-requests.md), thin HTTP handlers over the GraphQL fields of
 * src/graphql/schema/tracking-request.ts, run through the executor like the lookup: same authentication,
 * validation, errors (DCSA bodies) and plugins.
 *
 *   POST   /v2/tracking-requests                    track a reference (201; 200 with your active request for it)
 *   GET    /v2/tracking-requests                    yours, oldest first (limit, cursor; Next-Page-Cursor)
 *   GET    /v2/tracking-requests/{trackingRequestID}  one
 *   DELETE /v2/tracking-requests/{trackingRequestID}  stop it (204)
 */
export async function handleTrackingRequests(
  request: Request,
  url: URL,
  params: Record<string, string>,
  executor: Executor,
  services: AppServices,
  correlationId: string,
): Promise<Response> {
  const respond = new DcsaResponder(request, services, correlationId, 'The requested tracking request was not found.', 'request.');
  const id = params.trackingRequestID;
  const allowed = id === undefined ? 'GET, POST' : 'GET, DELETE';
  if (!allowed.split(', ').includes(request.method)) {
    return respond.fail(405, [{ ...DCSA.invalidQuery, errorCodeMessage: `Use ${allowed} for this resource.` }], { Allow: allowed });
  }
  const run = async <T>(document: { query: string; operationName: string }, variables: Record<string, unknown>) => {
    const result = await runDocument<T>(executor, { request, ...document, variables, context: { correlationId } });
    const error = result.errors?.[0];
    return error ? { error: respond.resultError(error) } : { data: result.data as T };
  };

  if (id === undefined && request.method === 'POST') {
    const read = await readJsonBody(request, TRACKING_REQUEST_BODY_BYTES);
    if (!read.ok) {
      return read.status === 400
        ? respond.invalid(read.message)
        : respond.fail(read.status, [{ ...DCSA.invalidParameter, errorCodeMessage: read.message }]);
    }
    const value = read.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return respond.invalid('the body must be a JSON object');
    const extra = Object.keys(value).find((k) => !FIELDS.includes(k));
    if (extra) return respond.invalid(`Unknown field ${extra.slice(0, 100)}; allowed: ${FIELDS.join(', ')}.`, extra.slice(0, 100));
    const r = await run<{ createTrackingRequest: { trackingRequest: { trackingRequestID: string }; created: boolean } }>(
      TRACKING_REQUEST_DOCUMENTS.create,
      { request: value },
    );
    if (r.error) return r.error;
    const { trackingRequest, created } = r.data.createTrackingRequest;
    return jsonResponse(omitAbsent(trackingRequest), created ? 201 : 200, {
      ...NO_STORE,
      Location: `/v2/tracking-requests/${trackingRequest.trackingRequestID}`,
    });
  }
  if (id === undefined) {
    const unknown = [...url.searchParams.keys()].find((k) => k !== 'limit' && k !== 'cursor');
    if (unknown) return respond.invalid(`Unknown query parameter ${unknown.slice(0, 100)}; allowed: limit, cursor.`, unknown.slice(0, 100));
    const limit = url.searchParams.get('limit');
    if (limit !== null && !/^\d{1,4}$/.test(limit)) return respond.invalid('limit must be an integer from 1 to 500', 'limit');
    const r = await run<{ trackingRequests: { trackingRequests: object[]; nextCursor: string | null } }>(TRACKING_REQUEST_DOCUMENTS.list, {
      cursor: url.searchParams.get('cursor'),
      limit: limit === null ? null : Number(limit),
    });
    if (r.error) return r.error;
    const { trackingRequests, nextCursor } = r.data.trackingRequests;
    return jsonResponse(
      trackingRequests.map((x) => omitAbsent(x)),
      200,
      { ...NO_STORE, ...(nextCursor ? { 'Next-Page-Cursor': nextCursor } : {}) },
    );
  }
  if (request.method === 'DELETE') {
    const r = await run<{ stopTrackingRequest: boolean }>(TRACKING_REQUEST_DOCUMENTS.stop, { trackingRequestID: id });
    return r.error ?? new Response(null, { status: 204 });
  }
  const r = await run<{ trackingRequest: object }>(TRACKING_REQUEST_DOCUMENTS.get, { trackingRequestID: id });
  return r.error ?? jsonResponse(omitAbsent(r.data.trackingRequest), 200, NO_STORE);
}
