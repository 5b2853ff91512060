import { GraphQLError } from 'graphql';
import { EVENT_SUBSCRIPTION_DOCUMENTS } from '../executor/event-documents.js';
import type { Executor } from '../executor/executor.js';
import { runDocument } from '../executor/run-document.js';
import type { AppServices } from '../graphql/context.js';
import { unknownFilterCode } from '../arguments/dcsa-event-query.js';
import { readJsonBody } from '../http-messages/json-body.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { API_VERSION_HEADER, TntResponder } from '../errors/tnt-responses.js';
import { apiVersionProblem, pageHeaders } from './events-handler.js';
import { WEBHOOK_DELIVERY_STATUSES } from '../domain/types.js';

/** Subscription bodies are small JSON objects. */
export const EVENT_SUBSCRIPTION_BODY_BYTES = 16 * 1024;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The DCSA Track & Trace 2.2 event subscription routes (docs/dcsa-events.md: Consuming the service as a DCSA publisher),
 * thin HTTP handlers over the fields of src/graphql/schema/event-subscription.ts, run through the executor:
 *
 *   POST   /v2/event-subscriptions                       create (201)
 *   GET    /v2/event-subscriptions                       yours, paged (limit, cursor, sort; the page headers)
 *   GET    /v2/event-subscriptions/{subscriptionID}      one
 *   PUT    /v2/event-subscriptions/{subscriptionID}      replace callback and filters (200)
 *   DELETE /v2/event-subscriptions/{subscriptionID}      stop (204)
 *   PUT    /v2/event-subscriptions/{subscriptionID}/secret   new secret (204)
 *   GET    /v2/event-subscriptions/{subscriptionID}/deliveries   its delivery log (status, limit), as /v2/subscriptions/{id}/deliveries
 *
 * Answers carry API-Version; errors are the 2.2 error body.
 */
export async function handleEventSubscriptions(
  request: Request,
  url: URL,
  params: Record<string, string>,
  executor: Executor,
  services: AppServices,
  correlationId: string,
): Promise<Response> {
  const respond = new TntResponder(request, services, correlationId);
  const id = params.subscriptionID;
  const path = url.pathname.replace(/\/+$/, '');
  const secret = path.endsWith('/secret');
  const deliveries = path.endsWith('/deliveries');
  const allowed = id === undefined ? 'GET, POST' : secret ? 'PUT' : deliveries ? 'GET' : 'GET, PUT, DELETE';
  if (!allowed.split(', ').includes(request.method)) {
    return respond.fail(405, [{ reason: 'invalidQuery', message: `Use ${allowed} for this resource.` }], { Allow: allowed });
  }
  const versionProblem = apiVersionProblem(request.headers.get('api-version'));
  if (versionProblem) return respond.invalid(versionProblem, 'invalidQuery');
  if (id !== undefined && !UUID.test(id)) return respond.invalid('subscriptionID in the path must be a UUID', 'invalidParameter');

  const done = (body: unknown, status: number, headers: Record<string, string> = {}) =>
    body === null
      ? new Response(null, { status, headers: { ...API_VERSION_HEADER, 'Cache-Control': 'no-store', ...headers } })
      : jsonResponse(body, status, { ...API_VERSION_HEADER, 'Cache-Control': 'no-store', ...headers });
  const run = async <T>(document: { query: string; operationName: string }, variables: Record<string, unknown>) => {
    const result = await runDocument<T>(executor, { request, ...document, variables, context: { correlationId } });
    const error = result.errors?.[0] ?? (result.data ? undefined : new GraphQLError('no data', { originalError: new Error('no data') }));
    return error ? { error: respond.resultError(error) } : { data: result.data as T };
  };
  const body = async () => {
    const read = await readJsonBody(request, EVENT_SUBSCRIPTION_BODY_BYTES);
    if (!read.ok)
      return {
        error:
          read.status === 400
            ? respond.invalid(read.message)
            : respond.fail(read.status, [{ reason: 'invalidParameter', message: read.message }]),
      };
    if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) {
      return { error: respond.invalid('the body must be a JSON object') };
    }
    // The GraphQL input types its list filters as DCSA code-list enums; a value outside them would be refused by
    // variable coercion, in GraphQL's words: refused here first, as the filter's own check words it.
    const unknownCode = unknownFilterCode(read.value as Record<string, unknown>);
    if (unknownCode) return { error: respond.resultError(unknownCode) };
    return { value: read.value as Record<string, unknown> };
  };

  if (id === undefined && request.method === 'POST') {
    const input = await body();
    if (input.error) return input.error;
    const r = await run<{ createEventSubscription: Record<string, unknown> }>(EVENT_SUBSCRIPTION_DOCUMENTS.create, {
      request: input.value,
    });
    return r.error ?? done(present(r.data.createEventSubscription), 201);
  }
  if (id === undefined) {
    const unknown = [...url.searchParams.keys()].find((k) => !['limit', 'cursor', 'sort'].includes(k));
    if (unknown) return respond.invalid(`Unknown query parameter ${unknown.slice(0, 100)}; allowed: limit, cursor, sort.`, 'invalidQuery');
    const limit = url.searchParams.get('limit');
    if (limit !== null && !/^\d{1,9}$/.test(limit)) return respond.invalid('limit must be an integer from 1 to 1000');
    const r = await run<{ eventSubscriptions: { subscriptions: Record<string, unknown>[] } & Parameters<typeof pageHeaders>[0] }>(
      EVENT_SUBSCRIPTION_DOCUMENTS.list,
      { limit: limit === null ? null : Number(limit), cursor: url.searchParams.get('cursor'), sort: url.searchParams.get('sort') },
    );
    if (r.error) return r.error;
    const page = r.data.eventSubscriptions;
    return done(page.subscriptions.map(present), 200, pageHeaders(page));
  }
  if (deliveries) {
    // The query parameters and their checks of GET /v2/subscriptions/{id}/deliveries (src/rest/subscriptions-handler.ts).
    const unknown = [...url.searchParams.keys()].find((k) => k !== 'status' && k !== 'limit');
    if (unknown) return respond.invalid(`Unknown query parameter ${unknown.slice(0, 100)}; allowed: status, limit.`, 'invalidQuery');
    const limit = url.searchParams.get('limit');
    if (limit !== null && !/^\d{1,4}$/.test(limit)) return respond.invalid('limit must be an integer from 1 to 500');
    const status = url.searchParams.get('status');
    if (status !== null && !(WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(status)) {
      return respond.invalid(`status must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}; got "${status.slice(0, 40)}"`);
    }
    const r = await run<{ eventSubscriptionDeliveries: Record<string, unknown>[] }>(EVENT_SUBSCRIPTION_DOCUMENTS.deliveries, {
      subscriptionID: id,
      status,
      limit: limit === null ? null : Number(limit),
    });
    return r.error ?? done(r.data.eventSubscriptionDeliveries.map(present), 200);
  }
  if (secret) {
    const input = await body();
    if (input.error) return input.error;
    const r = await run(EVENT_SUBSCRIPTION_DOCUMENTS.secret, { subscriptionID: id, request: input.value });
    return r.error ?? done(null, 204);
  }
  if (request.method === 'PUT') {
    const input = await body();
    if (input.error) return input.error;
    const r = await run<{ updateEventSubscription: Record<string, unknown> }>(EVENT_SUBSCRIPTION_DOCUMENTS.update, {
      subscriptionID: id,
      request: input.value,
    });
    return r.error ?? done(present(r.data.updateEventSubscription), 200);
  }
  if (request.method === 'DELETE') {
    const r = await run(EVENT_SUBSCRIPTION_DOCUMENTS.delete, { subscriptionID: id });
    return r.error ?? done(null, 204);
  }
  const r = await run<{ eventSubscription: Record<string, unknown> }>(EVENT_SUBSCRIPTION_DOCUMENTS.get, { subscriptionID: id });
  return r.error ?? done(present(r.data.eventSubscription), 200);
}

/** The subscription without its absent filters. */
function present(subscription: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(subscription).filter(([, v]) => v !== null));
}
