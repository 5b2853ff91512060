import { DCSA } from '../errors/errors.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import { readJsonBody } from '../http-messages/json-body.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { omitAbsent } from '../http-messages/rest-body.js';
import { runDocument } from '../executor/run-document.js';
import { SUBSCRIPTION_DOCUMENTS } from '../executor/subscription-documents.js';
import type { AppServices } from '../graphql/context.js';
import type { Executor } from '../executor/executor.js';
import { WEBHOOK_DELIVERY_STATUSES } from '../domain/types.js';

/** Subscription requests are small; anything larger is refused while it is read. */
const MAX_BODY_BYTES = 16 * 1024;
const NO_STORE = { 'Cache-Control': 'no-store' };
const ROUTE = /^\/v2\/subscriptions(?:\/([^/]+)(?:\/(deliveries|rotate-secret|test)(?:\/([^/]+)\/(redeliver))?)?)?$/;

/**
 * The webhook subscription routes (docs/architecture.md, Push), thin HTTP handlers
 * over the GraphQL fields of src/graphql/schema/webhook-subscription.ts, run
 * through the executor's envelop like the lookup: same authentication (401/403
 * before anything else), validation, errors (DCSA bodies) and plugins.
 *
 *   POST   /v2/subscriptions                          create (201, the secret shown once)
 *   GET    /v2/subscriptions                          yours, oldest first
 *   GET    /v2/subscriptions/{id}                     one
 *   DELETE /v2/subscriptions/{id}                     stop and remove (204)
 *   POST   /v2/subscriptions/{id}/rotate-secret       new secret, old one signing on for an overlap
 *   GET    /v2/subscriptions/{id}/deliveries          the delivery log
 *   POST   /v2/subscriptions/{id}/test                a signed test delivery now, with the receiver's answer
 *   POST   /v2/subscriptions/{id}/deliveries/{d}/redeliver   a past delivery sent again now
 */
export function isSubscriptionRoute(path: string): boolean {
  return ROUTE.test(path);
}

export async function handleSubscriptions(
  request: Request,
  url: URL,
  executor: Executor,
  services: AppServices,
  correlationId: string,
): Promise<Response> {
  // The create field takes the JSON body as its `request` argument: its errors name the body's own fields.
  const respond = new DcsaResponder(request, services, correlationId, 'The requested subscription was not found.', 'request.');
  const [, id, sub, rawDeliveryID, redeliver] = ROUTE.exec(url.pathname.replace(/\/+$/, '')) ?? [];
  if (rawDeliveryID !== undefined && sub !== 'deliveries')
    return respond.fail(404, [{ ...DCSA.notFound, errorCodeMessage: 'No such resource.' }]);
  const allowed = !id
    ? 'GET, POST'
    : redeliver
      ? 'POST'
      : sub === 'deliveries'
        ? 'GET'
        : sub === 'rotate-secret' || sub === 'test'
          ? 'POST'
          : 'GET, DELETE';
  if (!allowed.split(', ').includes(request.method)) {
    return respond.fail(405, [{ ...DCSA.invalidQuery, errorCodeMessage: `Use ${allowed} for this resource.` }], { Allow: allowed });
  }
  let subscriptionID: string | undefined;
  try {
    subscriptionID = id ? decodeURIComponent(id) : undefined;
  } catch {
    return respond.invalid('the subscription id in the path is not valid percent-encoding', 'subscriptionID');
  }

  const run = async <T>(
    document: (typeof SUBSCRIPTION_DOCUMENTS)[keyof typeof SUBSCRIPTION_DOCUMENTS],
    variables: Record<string, unknown>,
    responder: DcsaResponder = respond,
  ) => {
    const result = await runDocument<T>(executor, { request, ...document, variables, context: { correlationId } });
    const error = result.errors?.[0];
    return error ? { error: responder.resultError(error) } : { data: result.data as T };
  };
  const body = async (optional: boolean) => {
    const read = await readJsonBody(request, MAX_BODY_BYTES, { optional });
    if (!read.ok)
      return {
        error:
          read.status === 400
            ? respond.invalid(read.message)
            : respond.fail(read.status, [{ ...DCSA.invalidParameter, errorCodeMessage: read.message }]),
      };
    if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) {
      return { error: respond.invalid('the body must be a JSON object') };
    }
    return { value: read.value as Record<string, unknown> };
  };

  if (!subscriptionID && request.method === 'POST') {
    const input = await body(false);
    if (input.error) return input.error;
    // A 404 here is the shipment the lookup names, not a subscription.
    const shipmentNotFound = new DcsaResponder(request, services, correlationId, 'The requested shipment was not found.', 'request.');
    const r = await run<{ createWebhookSubscription: { subscription: object; secret: string } }>(
      SUBSCRIPTION_DOCUMENTS.create,
      { request: input.value },
      shipmentNotFound,
    );
    if (r.error) return r.error;
    const { subscription, secret } = r.data.createWebhookSubscription;
    const created = omitAbsent(subscription) as { subscriptionID: string };
    return jsonResponse({ ...created, secret }, 201, { ...NO_STORE, Location: `/v2/subscriptions/${created.subscriptionID}` });
  }
  if (!subscriptionID) {
    const r = await run<{ webhookSubscriptions: object[] }>(SUBSCRIPTION_DOCUMENTS.list, {});
    return (
      r.error ??
      jsonResponse(
        r.data.webhookSubscriptions.map((x) => omitAbsent(x)),
        200,
        NO_STORE,
      )
    );
  }
  if (redeliver) {
    let deliveryID: string;
    try {
      deliveryID = decodeURIComponent(rawDeliveryID ?? '');
    } catch {
      return respond.invalid('the delivery id in the path is not valid percent-encoding', 'deliveryID');
    }
    const r = await run<{ redeliverWebhookDelivery: object }>(SUBSCRIPTION_DOCUMENTS.redeliver, { subscriptionID, deliveryID });
    return r.error ?? jsonResponse(omitAbsent(r.data.redeliverWebhookDelivery), 200, NO_STORE);
  }
  if (sub === 'test') {
    const r = await run<{ testWebhookSubscription: object }>(SUBSCRIPTION_DOCUMENTS.test, { subscriptionID });
    return r.error ?? jsonResponse(omitAbsent(r.data.testWebhookSubscription), 200, NO_STORE);
  }
  if (sub === 'deliveries') {
    const unknown = [...url.searchParams.keys()].find((k) => k !== 'status' && k !== 'limit');
    if (unknown) return respond.invalid(`Unknown query parameter ${unknown.slice(0, 100)}; allowed: status, limit.`, unknown.slice(0, 100));
    const limit = url.searchParams.get('limit');
    if (limit !== null && !/^\d{1,4}$/.test(limit)) return respond.invalid('limit must be an integer from 1 to 500', 'limit');
    const status = url.searchParams.get('status');
    if (status !== null && !(WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(status)) {
      return respond.invalid(`status must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}; got "${status.slice(0, 40)}"`, 'status');
    }
    const r = await run<{ webhookDeliveries: object[] }>(SUBSCRIPTION_DOCUMENTS.deliveries, {
      subscriptionID,
      status,
      limit: limit === null ? null : Number(limit),
    });
    return (
      r.error ??
      jsonResponse(
        r.data.webhookDeliveries.map((x) => omitAbsent(x)),
        200,
        NO_STORE,
      )
    );
  }
  if (sub === 'rotate-secret') {
    const input = await body(true);
    if (input.error) return input.error;
    const extra = Object.keys(input.value).find((k) => k !== 'overlapSeconds' && k !== 'secret');
    if (extra) return respond.invalid(`Unknown field ${extra.slice(0, 100)}; allowed: overlapSeconds, secret.`, extra.slice(0, 100));
    const r = await run<{ rotateWebhookSubscriptionSecret: { subscription: object; secret: string } }>(SUBSCRIPTION_DOCUMENTS.rotate, {
      subscriptionID,
      overlapSeconds: input.value.overlapSeconds ?? null,
      secret: input.value.secret ?? null,
    });
    if (r.error) return r.error;
    const { subscription, secret } = r.data.rotateWebhookSubscriptionSecret;
    return jsonResponse({ ...(omitAbsent(subscription) as object), secret }, 200, NO_STORE);
  }
  if (request.method === 'DELETE') {
    const r = await run<{ deleteWebhookSubscription: boolean }>(SUBSCRIPTION_DOCUMENTS.delete, { subscriptionID });
    return r.error ?? new Response(null, { status: 204 });
  }
  const r = await run<{ webhookSubscription: object }>(SUBSCRIPTION_DOCUMENTS.get, { subscriptionID });
  return r.error ?? jsonResponse(omitAbsent(r.data.webhookSubscription), 200, NO_STORE);
}
