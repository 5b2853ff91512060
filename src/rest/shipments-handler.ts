import { GraphQLError } from 'graphql';
import { requireScope } from '../auth/request-auth.js';
import { READ_SCOPE } from '../auth/scopes.js';
import { Response } from '@whatwg-node/fetch';
import { conditionalHeaders, selectionKey } from '../domain/conditional-read.js';
import type { ConditionalRead } from '../executor/context.js';
import { DCSA, type DetailedError } from '../errors/errors.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import { jsonBytesResponse } from '../http-messages/json-response.js';
import { renderShipment, transmissionBytes } from '../executor/shipment-rendering.js';
import { LOOKUP_PARAMETERS, SHIPMENT_DOCUMENT } from '../executor/shipment-document.js';
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

function checkParameters(params: URLSearchParams): DetailedError[] {
  const errors: DetailedError[] = [];
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (!(LOOKUP_PARAMETERS as readonly string[]).includes(name)) {
      errors.push({
        ...DCSA.invalidParameter,
        property: name.slice(0, 100),
        errorCodeMessage: `Unknown query parameter ${name.slice(0, 100)}; allowed: ${LOOKUP_PARAMETERS.join(', ')}.`,
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
