import { GraphQLError } from 'graphql';
import { requireScope } from '../auth/request-auth.js';
import { READ_SCOPE } from '../auth/scopes.js';
import { TIME_OPERATORS } from '../domain/dcsa/dcsa-event-filter.js';
import { toDcsaEvent } from '../domain/dcsa/dcsa-events.js';
import { EVENTS_DOCUMENT, EVENTS_VARIABLES } from '../executor/event-documents.js';
import type { Executor } from '../executor/executor.js';
import { runDocument } from '../executor/run-document.js';
import type { AppServices } from '../graphql/context.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { API_VERSION_HEADER, TntResponder } from '../errors/tnt-responses.js';

/**
 * GET /v2/events, DCSA Track & Trace 2.2 (docs/dcsa-events.md: Consuming the service as a DCSA publisher): the query
 * parameters become variables of the fixed `events` document, run through the executor like every REST route;
 * the answer is the page's events in 2.2 spelling with the standard's page headers (Current-Page, Next-Page,
 * Prev-Page, First-Page, Last-Page: each a cursor for `?cursor=`) and API-Version. Only HTTP concerns live here:
 * parameter names (the operator form `eventCreatedDateTime:gte`), lists, repeats and the 2.2 error body; the
 * values are checked by the field, whose messages name the parameter and what it allows.
 */

const LIST_PARAMETERS = new Set([
  'eventType',
  'shipmentEventTypeCode',
  'documentTypeCode',
  'transportEventTypeCode',
  'equipmentEventTypeCode',
]);
/** Deprecated 2.2 parameters with a successor. */
const ALIASES: Record<string, string> = { bookingReference: 'carrierBookingReference', carrierVoyageNumber: 'exportVoyageNumber' };
/** Deprecated 2.2 parameters this service has nothing to filter on. */
const REFUSED: Record<string, string> = {
  transportDocumentID: 'transportDocumentID is deprecated in 2.2 and not supported; use transportDocumentReference',
  scheduleID: 'scheduleID is deprecated in 2.2 (added by mistake) and not supported',
};
const PARAMETERS = [
  ...Object.keys(EVENTS_VARIABLES).filter((n) => n !== 'eventIDs' && n !== 'eventCreatedDateTime'),
  'eventCreatedDateTime',
  ...TIME_OPERATORS.map((op) => `eventCreatedDateTime:${op}`),
];

export async function handleEvents(
  request: Request,
  url: URL,
  executor: Executor,
  services: AppServices,
  correlationId: string,
): Promise<Response> {
  const respond = new TntResponder(request, services, correlationId);
  if (request.method !== 'GET') {
    return respond.fail(405, [{ reason: 'invalidQuery', message: 'Use GET for /v2/events.' }], { Allow: 'GET' });
  }
  const parsed = parseParameters(url.searchParams, request.headers.get('api-version'));
  if (typeof parsed === 'string') {
    // Authentication comes first, as on /v2/shipments: the 401/403 the document would give, before any 400.
    const denied = await authenticationError(request, services);
    return denied ? respond.resultError(denied) : respond.invalid(parsed, 'invalidQuery');
  }
  const result = await runDocument<{ events: Page }>(executor, {
    request,
    ...EVENTS_DOCUMENT,
    variables: parsed,
    context: { correlationId },
  });
  const error = result.errors?.[0];
  if (error || !result.data) return respond.resultError(error ?? new GraphQLError('no data', { originalError: new Error('no data') }));
  const page = result.data.events;
  return jsonResponse(page.events.map(toDcsaEvent), 200, { ...API_VERSION_HEADER, 'Cache-Control': 'no-store', ...pageHeaders(page) });
}

interface Page {
  events: Record<string, unknown>[];
  currentPage: string;
  nextPage: string | null;
  previousPage: string | null;
  firstPage: string | null;
  lastPage: string | null;
}

/** The standard's page headers; each value is a cursor (GET /v2/events?cursor=VALUE). */
export function pageHeaders(page: Omit<Page, 'events'>): Record<string, string> {
  const headers: Record<string, string> = { 'Current-Page': page.currentPage };
  if (page.nextPage) headers['Next-Page'] = page.nextPage;
  if (page.previousPage) headers['Prev-Page'] = page.previousPage;
  if (page.firstPage) headers['First-Page'] = page.firstPage;
  if (page.lastPage) headers['Last-Page'] = page.lastPage;
  return headers;
}

/** The request's API-Version, when given, must be the URI's major version (2.2: "MUST only contain MAJOR version"). */
export function apiVersionProblem(header: string | null): string | null {
  if (header === null || /^\s*2(\.\d+){0,2}\s*$/.test(header)) return null;
  return `API-Version must be 2, the major version of /v2 (got ${JSON.stringify(header.slice(0, 20))})`;
}

/** The document's variables, or what is wrong with the parameters (naming the parameter and what it allows). */
function parseParameters(params: URLSearchParams, apiVersion: string | null): Record<string, unknown> | string {
  const versionProblem = apiVersionProblem(apiVersion);
  if (versionProblem) return versionProblem;
  const variables: Record<string, unknown> = {};
  const created: Record<string, string> = {};
  for (const raw of new Set(params.keys())) {
    const name = raw.slice(0, 100);
    if (params.getAll(raw).length > 1) return `Query parameter ${name} is given more than once (lists are comma-separated).`;
    const value = params.get(raw) as string;
    if (REFUSED[name]) return REFUSED[name];
    const target = ALIASES[name] ?? name;
    if (!PARAMETERS.includes(target)) return `Unknown query parameter ${name}; allowed: ${PARAMETERS.join(', ')}.`;
    if (target !== name && params.has(target)) return `${name} is the deprecated name of ${target}; give one of them`;
    if (target.startsWith('eventCreatedDateTime')) {
      const op = target.split(':')[1] ?? 'eq';
      if (op in created) return 'eventCreatedDateTime and eventCreatedDateTime:eq are the same bound; give one of them';
      created[op] = value;
    } else if (target === 'limit') {
      if (!/^\d{1,9}$/.test(value)) return 'limit must be an integer from 1 to 1000';
      variables.limit = Number(value);
    } else if (LIST_PARAMETERS.has(target)) {
      const items = value.split(',').map((v) => v.trim());
      if (items.some((v) => v === '')) return `${target} must be a comma-separated list of values, without empty ones`;
      variables[target] = items;
    } else {
      variables[target] = value;
    }
  }
  if (Object.keys(created).length > 0) variables.eventCreatedDateTime = created;
  return variables;
}

/** Why the request may not read events at all (401 or 403), or undefined when it may. */
async function authenticationError(request: Request, services: AppServices): Promise<GraphQLError | undefined> {
  try {
    requireScope(await services.authenticate(request), READ_SCOPE);
    return undefined;
  } catch (err) {
    return err instanceof GraphQLError ? err : new GraphQLError('Unexpected error.', { originalError: err as Error });
  }
}
