import { GraphQLError } from 'graphql';
import { requireScope } from '../auth/request-auth.js';
import { READ_SCOPE } from '../auth/scopes.js';
import { Response } from '@whatwg-node/fetch';
import { conditionalHeaders, etagWithPart, ifNoneMatchMatches, selectionKey } from '../domain/conditional-read.js';
import type { ConditionalRead } from '../executor/context.js';
import { DCSA, type DetailedError } from '../errors/errors.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import { jsonBytesResponse } from '../http-messages/json-response.js';
import { renderShipment, transmissionBytes } from '../executor/shipment-rendering.js';
import { LOOKUP_PARAMETERS, PREDICTED_ARRIVAL_DOCUMENT, SHIPMENT_DOCUMENT } from '../executor/shipment-document.js';
import { runDocument } from '../executor/run-document.js';
import { omitAbsent } from '../http-messages/rest-body.js';
import type { AppServices } from '../graphql/context.js';
import type { Executor } from '../executor/executor.js';

/** The lookup document's part of every ETag (src/domain/conditional-read.ts). */
const SHIPMENT_SELECTION = selectionKey(SHIPMENT_DOCUMENT);

/**
 * GET /v2/shipments: turns query parameters into variables of the fixed
 * lookup document and runs it through the executor's envelop (parse, validate,
 * contextFactory, execute), so authentication, validation and every plugin
 * are the code path of /graphql. Only HTTP concerns live here: parameter
 * names, repeats, statuses and the DCSA error body.
 */
export async function handleShipmentLookup(
  request: Request,
  url: URL,
  executor: Executor,
  services: AppServices,
  correlationId: string,
): Promise<Response> {
  const respond = new DcsaResponder(request, services, correlationId, 'The requested shipment was not found.');
  const fail = respond.fail.bind(respond);

  if (request.method !== 'GET') {
    return fail(405, [{ ...DCSA.invalidQuery, errorCodeMessage: 'Use GET for /v2/shipments.' }], { Allow: 'GET' });
  }
  const parameterErrors = checkParameters(url.searchParams);
  if (parameterErrors.length > 0) {
    // Authentication comes first (README): the 401/403 the lookup document would give, before any 400.
    const denied = await authenticationError(request, services);
    return denied ? respond.resultError(denied) : fail(400, parameterErrors);
  }

  const variables = Object.fromEntries(
    LOOKUP_PARAMETERS.filter((name) => url.searchParams.has(name)).map((name) => [name, url.searchParams.get(name)]),
  );
  if (url.searchParams.has('include')) return lookupWithPrediction(request, variables, executor, respond, correlationId);
  const conditional: ConditionalRead = { ifNoneMatch: request.headers.get('if-none-match'), selection: SHIPMENT_SELECTION };
  const rendering = await renderShipment(executor, { request, variables, context: { correlationId, conditional } });

  const caching = conditionalHeaders(conditional.etag);
  if (rendering.kind === 'not-modified') return new Response(null, { status: 304, headers: caching });
  if (rendering.kind === 'failed') {
    // Neither data nor an error cannot happen; if it did, the route's net answers 500 and logs it.
    if (!rendering.error) throw new Error('the lookup document returned neither data nor an error');
    return respond.resultError(rendering.error);
  }
  return jsonBytesResponse(transmissionBytes(rendering.header, rendering.tracking), 200, caching);
}

/**
 * `include=predictedArrival` (docs/predicted-arrival.md, REST): the default body with the prediction added to its
 * `shipmentTracking`. The default body and its entity tag are untouched by it: the lookup document runs as for any
 * lookup (its stored rendering, its tag), and the prediction beside it (PREDICTED_ARRIVAL_DOCUMENT, the GraphQL
 * field), so a poller without `include` keeps its 304s however the prediction moves. This answer's own tag covers
 * both, so it changes when the prediction does; its 304 is decided once both are known.
 */
async function lookupWithPrediction(
  request: Request,
  variables: Record<string, unknown>,
  executor: Executor,
  respond: DcsaResponder,
  correlationId: string,
): Promise<Response> {
  const conditional: ConditionalRead = { ifNoneMatch: null, selection: SHIPMENT_SELECTION };
  const rendering = await renderShipment(executor, { request, variables, context: { correlationId, conditional } });
  if (rendering.kind !== 'rendered') {
    if (rendering.kind === 'failed' && rendering.error) return respond.resultError(rendering.error);
    throw new Error('the lookup document returned neither data nor an error');
  }
  const predicted = await runDocument<{ shipment: { shipmentTracking: { predictedArrival: unknown } | null } | null }>(executor, {
    request,
    query: PREDICTED_ARRIVAL_DOCUMENT,
    operationName: 'RestPredictedArrival',
    variables,
    context: { correlationId },
  });
  const error = predicted.errors?.[0];
  if (error) return respond.resultError(error);
  const prediction = omitAbsent(predicted.data?.shipment?.shipmentTracking?.predictedArrival ?? null);
  // REST omits what has no value: no prediction, no key.
  const part = prediction === null || prediction === undefined ? '' : JSON.stringify(prediction);
  const etag = conditional.etag ? etagWithPart(conditional.etag, part) : undefined;
  const caching = conditionalHeaders(etag);
  if (etag && ifNoneMatchMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers: caching });
  const tracking = part === '' ? rendering.tracking : withMember(rendering.tracking, 'predictedArrival', part);
  return jsonBytesResponse(transmissionBytes(rendering.header, tracking), 200, caching);
}

/** A JSON object's text (UTF-8) with one more member at its end. */
function withMember(object: Buffer, name: string, valueJson: string): Buffer {
  const end = object.lastIndexOf('}');
  const empty = object.subarray(0, end).toString('utf8').trim() === '{';
  const member = Buffer.from(`${empty ? '' : ','}${JSON.stringify(name)}:${valueJson}}`, 'utf8');
  return Buffer.concat([object.subarray(0, end), member]);
}

/** What `include` may name: parts of the answer a client asks for (comma-separated). */
export const INCLUDE_VALUES = ['predictedArrival'] as const;

function checkParameters(params: URLSearchParams): DetailedError[] {
  const errors: DetailedError[] = [];
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (name === 'include' && !seen.has(name)) {
      const unknown = (params.get(name) ?? '').split(',').filter((v) => !(INCLUDE_VALUES as readonly string[]).includes(v));
      if (unknown.length > 0) {
        errors.push({
          ...DCSA.invalidParameter,
          property: 'include',
          errorCodeMessage: `Unknown include value ${JSON.stringify(unknown[0]?.slice(0, 100))}; allowed: ${INCLUDE_VALUES.join(', ')}.`,
        });
      }
    } else if (name !== 'include' && !(LOOKUP_PARAMETERS as readonly string[]).includes(name)) {
      errors.push({
        ...DCSA.invalidParameter,
        property: name.slice(0, 100),
        errorCodeMessage: `Unknown query parameter ${name.slice(0, 100)}; allowed: ${[...LOOKUP_PARAMETERS, 'include'].join(', ')}.`,
      });
    } else if (seen.has(name)) {
      errors.push({
        ...DCSA.invalidParameter,
        property: name,
        errorCodeMessage: `Query parameter ${name} is given more than once.`,
      });
    }
    seen.add(name);
  }
  return errors;
}

/** Why the request may not look up shipments at all (401 or 403), or undefined when it may. */
async function authenticationError(request: Request, services: AppServices): Promise<GraphQLError | undefined> {
  try {
    requireScope(await services.authenticate(request), READ_SCOPE);
    return undefined;
  } catch (err) {
    return err instanceof GraphQLError ? err : new GraphQLError('Unexpected error.', { originalError: err as Error });
  }
}
