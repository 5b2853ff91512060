import type { GraphQLError } from 'graphql';
import { countIngestedBundle, countUnwrittenBundle } from '../observability/metrics.js';
import { currentRequest } from '../observability/request-context.js';
import { requireScope } from '../auth/request-auth.js';
import { OPERATOR_INGEST_SCOPE } from '../auth/scopes.js';
import { DCSA } from '../errors/errors.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { IngestSummary } from '../ingest/ingest-bundle.js';
import { ingestRetrying } from '../carriers/ingest-retrying.js';
import { BundleJsonError, readBundle } from '../ingest/read-bundle.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { BodyTooLargeError, limitedChunks, readLimitedBytes } from '../http-messages/limited-body.js';
import type { AppServices } from '../graphql/context.js';
import type { EdiFormat } from '../domain/edi-status-map.js';
import { ediFormatOf, ingestEdiBody, refuseUnconfiguredFormat } from './edi-ingest-body.js';

export const OPERATOR_INGEST_PATH = '/v2/operator/ingest';

/**
 * `POST /v2/operator/ingest`: `tracking ingest` over HTTP, for operators'
 * pipelines. The body is one ingest bundle (README "Loading data"), streamed
 * through the CLI's reader (readBundle: validated entry by entry as it
 * arrives, with the size limit enforced while reading) and written by
 * ingestBundle in one transaction. The answer is the CLI's `--json` summary.
 *
 * Needs a bearer token with `tracking-operator.ingest`, a scope an operator
 * grants per client (`tracking client grant CLIENT_ID tracking-operator.ingest`).
 */
export async function handleOperatorIngest(request: Request, services: AppServices, correlationId: string): Promise<Response> {
  const respond = new DcsaResponder(request, services, correlationId);
  if (request.method !== 'POST') {
    return respond.fail(405, [{ ...DCSA.invalidQuery, errorCodeMessage: 'Use POST for this resource.' }], { Allow: 'POST' });
  }
  try {
    const principal = await services.authenticate(request);
    const info = currentRequest();
    if (info) info.clientId = principal.clientId;
    requireScope(principal, OPERATOR_INGEST_SCOPE);
  } catch (err) {
    if ((err as GraphQLError).extensions?.code) return respond.resultError(err as GraphQLError);
    throw err;
  }
  const maxBytes = services.config.carriers.operatorIngestMaxBytes;
  const ediFormat = ediFormatOf(request.headers.get('content-type'));
  if (ediFormat) return operatorEdi(request, services, respond, ediFormat, maxBytes, correlationId);
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) {
    return respond.fail(415, [
      {
        ...DCSA.invalidParameter,
        errorCodeMessage: 'Content-Type must be application/json (or application/edi-x12, application/edifact).',
      },
    ]);
  }

  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes)
    return respond.fail(413, [{ ...DCSA.invalidParameter, errorCodeMessage: new BodyTooLargeError(maxBytes).message }]);
  let parsed;
  try {
    parsed = await readBundle(limitedChunks(request.body as ReadableStream<Uint8Array> | null, maxBytes));
  } catch (err) {
    if (err instanceof BodyTooLargeError) return respond.fail(413, [{ ...DCSA.invalidParameter, errorCodeMessage: err.message }]);
    if (err instanceof BundleJsonError) {
      countUnwrittenBundle('rejected');
      return respond.invalid(`Invalid JSON at line ${err.line}, column ${err.column}, nothing written: ${err.message}`.slice(0, 300));
    }
    throw err;
  }
  if (!parsed.ok) {
    countUnwrittenBundle('rejected');
    return respond.fail(
      400,
      parsed.issues.map((issue) => ({
        ...DCSA.invalidParameter,
        ...(issue.path ? { property: issue.path, jsonPath: `$.${issue.path}` } : {}),
        errorCodeMessage: issue.message,
      })),
    );
  }
  let summary: IngestSummary;
  try {
    summary = await ingestRetrying(services.database, parsed.bundle, { now: () => services.now(), thresholds: services.config.thresholds });
  } catch (err) {
    countUnwrittenBundle('failed');
    // The database is down, not ready (a Galera node joining) or still contended after the retries: the same
    // bundle later will do (docs/operating.md, Running on a Galera cluster).
    if (isDatabaseUnavailable(err)) {
      services.log('warn', 'operator ingest: database unavailable', { correlationId, error: String(err) });
      return respond.unavailable('The database is unavailable; nothing was written. Send the bundle again later.');
    }
    services.log('error', 'operator ingest failed', { correlationId, error: err instanceof Error ? err.stack : String(err) });
    return respond.fail(500, [
      { ...DCSA.internalError, errorCodeMessage: 'Unexpected error; nothing was written. Quote providerCorrelationReference.' },
    ]);
  }
  countIngestedBundle(summary);
  services.push.wake();
  return jsonResponse(summary, 200, { 'Cache-Control': 'no-store' });
}

/**
 * An operator's EDI file (docs/carriers.md "EDI"): `?carrierCode=` names the carrier that sent it, which
 * must be configured to send that format; the answer is the summary `tracking ingest --format --json` prints.
 */
async function operatorEdi(
  request: Request,
  services: AppServices,
  respond: DcsaResponder,
  format: EdiFormat,
  maxBytes: number,
  correlationId: string,
): Promise<Response> {
  const carrierCode = new URL(request.url).searchParams.get('carrierCode') ?? '';
  if (!/^[A-Z]{2,4}$/.test(carrierCode)) {
    return respond.invalid('An EDI body needs the query parameter carrierCode: the carrier (SCAC) that sent it.', 'carrierCode');
  }
  const refused = await refuseUnconfiguredFormat(services, respond, carrierCode, format);
  if (refused) return refused;
  let body: Buffer;
  try {
    body = await readLimitedBytes(request.body as ReadableStream<Uint8Array> | null, maxBytes, request.headers.get('content-length'));
  } catch (err) {
    if (!(err instanceof BodyTooLargeError)) throw err;
    return respond.fail(413, [{ ...DCSA.invalidParameter, errorCodeMessage: err.message }]);
  }
  return ingestEdiBody(services, respond, { carrierCode, format, body }, correlationId);
}
