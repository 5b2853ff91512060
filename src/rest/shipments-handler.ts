import type { ExecutionResult, GraphQLError } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { AppServices } from '../graphql/context.js';
import { DCSA, STATUS_BY_CODE, readErrorCode, type DetailedError } from '../graphql/errors.js';
import { dcsaErrorBody } from './error-body.js';
import { jsonResponse } from './json-response.js';
import { omitAbsent } from './rest-body.js';
import { LOOKUP_PARAMETERS, SHIPMENT_DOCUMENT } from './shipment-document.js';

type Yoga = YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;

/**
 * GET /v2/shipments: turns query parameters into variables of the fixed
 * lookup document and runs it through Yoga's envelop (parse, validate,
 * contextFactory, execute), so authentication, validation and every plugin
 * are the code path of /graphql. Only HTTP concerns live here: parameter
 * names, repeats, statuses and the DCSA error body.
 */
export async function handleShipmentLookup(
  request: Request,
  url: URL,
  yoga: Yoga,
  services: AppServices,
  correlationId: string,
): Promise<Response> {
  const fail = (status: number, errors: DetailedError[], headers: Record<string, string> = {}) => {
    // Debug: refusals are the caller's problem, and an anonymous flood must not grow the logs at info.
    services.log('debug', 'lookup refused', { correlationId, status, errors: errors.map((e) => e.errorCodeMessage) });
    return jsonResponse(dcsaErrorBody(request, status, correlationId, errors, services.now()), status, headers);
  };

  if (request.method !== 'GET') {
    return fail(405, [{ ...DCSA.invalidQuery, errorCodeMessage: 'Use GET for /v2/shipments.' }], { Allow: 'GET' });
  }
  const parameterErrors = checkParameters(url.searchParams);
  if (parameterErrors.length > 0) return fail(400, parameterErrors);

  const variables = Object.fromEntries(
    LOOKUP_PARAMETERS.filter((name) => url.searchParams.has(name)).map((name) => [name, url.searchParams.get(name)]),
  );
  const enveloped = yoga.getEnveloped({ request, correlationId });
  // Yoga's parser and validation caches make these lookups after the first request.
  const document = enveloped.parse(SHIPMENT_DOCUMENT);
  const validationErrors = enveloped.validate(enveloped.schema, document);
  if (validationErrors.length > 0) throw new Error(`REST document is invalid: ${validationErrors[0]?.message}`);
  const contextValue = await enveloped.contextFactory({ request, correlationId, params: { query: SHIPMENT_DOCUMENT, variables } });
  const result = (await enveloped.execute({
    schema: enveloped.schema,
    document,
    operationName: 'RestShipmentLookup',
    variableValues: variables,
    contextValue,
  })) as ExecutionResult<{ shipment: unknown }>;

  const error = result.errors?.[0];
  if (error) return errorResponse(error, fail, correlationId, services);
  return jsonResponse(omitAbsent(result.data?.shipment), 200, { 'Cache-Control': 'no-store' });
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

function errorResponse(
  error: GraphQLError,
  fail: (status: number, errors: DetailedError[], headers?: Record<string, string>) => Response,
  correlationId: string,
  services: AppServices,
): Response {
  const code = readErrorCode(error);
  if (!code || code === 'INTERNAL_SERVER_ERROR') {
    services.log('error', 'lookup failed', { correlationId, error: error.originalError?.stack ?? error.message });
    return fail(500, [{ ...DCSA.internalError, errorCodeMessage: 'Unexpected error; quote providerCorrelationReference.' }]);
  }
  const details = (error.extensions.details as DetailedError[] | undefined) ?? [];
  const http = error.extensions.http as { headers?: Record<string, string> } | undefined;
  return fail(STATUS_BY_CODE[code], details, http?.headers ?? {});
}
