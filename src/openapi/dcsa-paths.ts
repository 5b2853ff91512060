import dcsaResponses from './examples/dcsa-responses.json' with { type: 'json' };
import { READ_SCOPE, SUBSCRIBE_SCOPE } from '../auth/scopes.js';
import { DCSA_TNT_API_VERSION } from '../errors/tnt-responses.js';
import { HEADERS, type HeaderName } from './components.js';
import { correctedStandard, toJsonSchema } from '../domain/dcsa/dcsa-standard.js';
import { dcsaComponents } from './dcsa-standard.js';
import { RATE_LIMIT_HEADERS } from './rate-limit-responses.js';
import type { JsonSchema } from './rest-schemas.js';

/**
 * The DCSA Track & Trace 2.2 routes in /openapi.json (docs/dcsa-events.md: Consuming the service as a DCSA publisher): the
 * standard's parameters and schemas (corrected: src/domain/dcsa/dcsa-standard.ts), under `Dcsa.` component names,
 * with the statuses and headers this service answers. Examples are real answers recorded by
 * test/dcsa-openapi-responses.test.ts (src/openapi/examples/dcsa-responses.json).
 */

type Json = Record<string, any>;
type Recorded = Record<string, Record<string, Record<string, unknown>>>;
const RECORDED = dcsaResponses as unknown as Recorded;

const PREFIX = 'Dcsa.';
const ref = (name: string) => ({ $ref: `#/components/schemas/${PREFIX}${name}` });
const EVENT_ROOTS = ['transportEvent', 'shipmentEvent', 'equipmentEvent'];
const ROOTS = [...EVENT_ROOTS, 'subscription', 'subscriptionBodyWithSecret', 'subscriptionID_secret_body', 'error'];

/** The 2.2 schemas the DCSA routes use, as components. */
export function dcsaSchemas(): Record<string, JsonSchema> {
  return dcsaComponents(ROOTS, PREFIX);
}

const PAGE_HEADERS = ['Current-Page', 'Next-Page', 'Prev-Page', 'First-Page', 'Last-Page'] as const;

/** The 2.2 response headers, as components (`Dcsa.API-Version`, `Dcsa.Next-Page`, …). */
export function dcsaHeaders(): Record<string, JsonSchema> {
  const standard = correctedStandard();
  const cursor = { type: 'string', pattern: '^[A-Za-z0-9_-]+$' };
  const headers: Record<string, JsonSchema> = {
    [`${PREFIX}API-Version`]: {
      description: `The version of the standard this service answers in, on every answer of the DCSA routes: ${DCSA_TNT_API_VERSION}.`,
      required: true,
      schema: { const: DCSA_TNT_API_VERSION },
    },
  };
  for (const name of PAGE_HEADERS) {
    const header = standard.components.headers[name] as Json;
    headers[`${PREFIX}${name}`] = {
      description: `${header.description as string} The value is a page cursor: send it back as \`?cursor=VALUE\` (alone, or with the query it was made for).`,
      required: header.required === true,
      schema: cursor,
    };
  }
  return headers;
}

type Header = HeaderName | `dcsa:${'API-Version' | (typeof PAGE_HEADERS)[number]}`;

function headersOf(names: readonly Header[]): Json {
  return Object.fromEntries(
    names.map((n) =>
      n.startsWith('dcsa:')
        ? [n.slice(5), { $ref: `#/components/headers/${PREFIX}${n.slice(5)}` }]
        : [HEADERS[n as HeaderName].name, { $ref: `#/components/headers/${n}` }],
    ),
  );
}

/** Headers of every answer: API-Version, no caching, and the quota's headers (every counted request: not a 401). */
function common(status: number, extra: readonly Header[] = []): Json {
  return headersOf(['dcsa:API-Version', 'NoStore', ...(status === 401 ? [] : RATE_LIMIT_HEADERS), ...extra]);
}

function response(operation: string, status: number, description: string, schema: Json | null, extra: readonly Header[] = []): Json {
  const out: Json = { description, headers: common(status, extra) };
  if (!schema) return out;
  const recorded = RECORDED[operation]?.[String(status)] ?? {};
  const examples = Object.fromEntries(Object.entries(recorded).map(([name, value]) => [name, { value }]));
  out.content = { 'application/json': { schema, ...(Object.keys(examples).length > 0 ? { examples } : {}) } };
  return out;
}

/** The error answers of an operation, in the 2.2 error body. */
function errors(operation: string, allow: string, scope: string, extra: Record<number, string> = {}): Record<number, Json> {
  const error = (status: number, description: string, headers: readonly Header[] = []) =>
    response(operation, status, description, ref('error'), headers);
  const out: Record<number, Json> = {
    401: error(401, 'reason `unauthorized`: a missing, malformed, expired or foreign token, or a token of a disabled client.', [
      'BearerChallenge',
    ]),
    403: error(403, `reason \`forbidden\`: a token without the ${scope} scope.`, ['BearerChallenge']),
    405: error(405, `reason \`invalidQuery\`: a method other than ${allow}.`, ['AllowMethods']),
    429: error(429, "reason `rateLimited`: the client's quota is used up; retry after Retry-After seconds.", ['RetryAfter']),
    500: error(500, 'reason `internalError`: an unexpected failure (details only in the logs, under providerCorrelationReference).'),
    503: error(503, 'reason `serviceUnavailable`: the database is down or too slow; retry after Retry-After seconds.', ['RetryAfter']),
  };
  for (const [status, description] of Object.entries(extra)) out[Number(status)] = error(Number(status), description);
  return out;
}

const API_VERSION_PARAMETER = {
  name: 'API-Version',
  in: 'header',
  required: false,
  description: 'May be sent; when sent, the major version of the URI: 2 (else 400).',
  schema: { type: 'string', examples: ['2'] },
};
const SUBSCRIPTION_ID = {
  name: 'subscriptionID',
  in: 'path',
  required: true,
  description: "The subscription (yours: another client's is 404).",
  schema: { type: 'string', format: 'uuid' },
};
const BODY_ERRORS = {
  413: 'reason `invalidParameter`: a body over 16 KiB.',
  415: 'reason `invalidParameter`: a body that is not application/json.',
};

/** GET /v2/events's parameters: the standard's, with what this service does with the deprecated ones and the operator forms. */
function eventParameters(): Json[] {
  const standard = correctedStandard();
  const convert = (p: Json): Json => ({ ...p, schema: toJsonSchema(p.schema, `#/components/schemas/${PREFIX}`) });
  const notes: Record<string, string> = {
    bookingReference: ' Accepted as carrierBookingReference.',
    carrierVoyageNumber: ' Accepted as exportVoyageNumber.',
    transportDocumentID: ' Not supported: 400.',
    scheduleID: ' Not supported: 400.',
    limit: ' At most 1000.',
    sort: ' Fields: eventCreatedDateTime, eventDateTime (ties in the order events were stored). Default eventCreatedDateTime:ASC.',
    cursor:
      ' A page header value (Current-Page, Next-Page, …): it carries the query it was made for, so send it alone (or with that same query).',
    UNLocationCode: " Matches the transport call's UN/LOCODE, or an equipment event's eventLocation.",
    carrierBookingReference: ' Events linked to the shipment with this carrier booking reference.',
    transportDocumentReference: ' Events linked to the shipment with this bill of lading number.',
  };
  const params = (standard.paths['/v2/events'].get.parameters as Json[])
    .filter((p) => p.in === 'query')
    .map((p) => {
      const converted = convert(p);
      if (notes[p.name]) converted.description = `${(p.description as string).trimEnd()}\n\n${notes[p.name]?.trim()}`;
      if (p.name === 'limit') converted.schema = { ...converted.schema, maximum: 1000 };
      return converted;
    });
  const created = params.find((p) => p.name === 'eventCreatedDateTime') as Json;
  const operators = { gte: '≥', gt: '>', lte: '≤', lt: '<', eq: '=' };
  for (const [op, sign] of Object.entries(operators)) {
    params.push({
      name: `eventCreatedDateTime:${op}`,
      in: 'query',
      required: false,
      description: `Events created ${sign} this time.`,
      schema: created.schema,
    });
  }
  params.push({
    name: 'carrierCode',
    in: 'query',
    required: false,
    description: 'Not in the DCSA standard: only events this carrier (SCAC) published.',
    schema: { type: 'string', pattern: '^[A-Z]{2,4}$' },
  });
  return [...params, API_VERSION_PARAMETER];
}

/** The DCSA Track & Trace 2.2 routes: GET /v2/events and the event subscriptions. */
export function dcsaPaths(): Record<string, Json> {
  const readSecurity = [{ clientCredentials: [READ_SCOPE] }, { bearerToken: [] }];
  const subscribeSecurity = [{ clientCredentials: [SUBSCRIBE_SCOPE] }, { bearerToken: [] }];
  const tags = ['DCSA Track & Trace 2.2'];
  const pageHeaders: Header[] = ['dcsa:Current-Page', 'dcsa:Next-Page', 'dcsa:Prev-Page', 'dcsa:First-Page', 'dcsa:Last-Page'];
  const events = { type: 'array', items: { anyOf: EVENT_ROOTS.map(ref) } };
  const standard = correctedStandard();
  const callbacks = toJsonSchema(standard.paths['/v2/event-subscriptions'].post.callbacks, `#/components/schemas/${PREFIX}`) as Json;
  const GE = 'GET /v2/events';
  const S = '/v2/event-subscriptions';
  const ONE = '/v2/event-subscriptions/{subscriptionID}';
  const subscriptionBody = (schema: string) => ({ required: true, content: { 'application/json': { schema: ref(schema) } } });
  const notFound = { 404: 'reason `notFound`: no such subscription of yours.' };
  const invalidId = 'reason `invalidParameter` or `invalidQuery`: a subscriptionID that is no UUID, or an API-Version other than 2.';
  return {
    '/v2/events': {
      get: {
        tags,
        operationId: 'dcsaEvents',
        summary: 'Find events (DCSA Track & Trace 2.2)',
        description:
          'The events of the shipments your account may see, in DCSA 2.2 spelling, filtered as the standard defines ' +
          '(every filter given must hold; a list matches any of its values), one page at a time. Events whose codes ' +
          'the 2.2 enums lack are not published here (they are in the lookup).',
        security: readSecurity,
        parameters: eventParameters(),
        responses: {
          200: response(GE, 200, 'A page of events, and the cursors of the pages around it.', events, pageHeaders),
          ...errors(GE, 'GET', READ_SCOPE, {
            400: 'reason `invalidQuery` or `invalidParameter`: an unknown, repeated or malformed parameter (the message names it and what it allows), or a cursor this service did not hand out.',
          }),
        },
      },
    },
    [S]: {
      post: {
        tags,
        operationId: 'dcsaCreateEventSubscription',
        summary: 'Create an event subscription (DCSA Track & Trace 2.2)',
        description:
          'The events that pass the filters are POSTed to callbackUrl as they are stored, as JSON arrays, signed in ' +
          '`Notification-Signature: sha256=<hex HMAC-SHA256 of the body under the Base64-decoded secret>`, with ' +
          '`Subscription-ID` and `API-Version`; the callback URL must answer a HEAD with 2xx before the first one. ' +
          'Not in the standard: a `carrierCode` filter. Counts toward the per-client subscription cap.',
        security: subscribeSecurity,
        parameters: [API_VERSION_PARAMETER],
        requestBody: subscriptionBody('subscriptionBodyWithSecret'),
        responses: {
          201: response(`POST ${S}`, 201, 'Subscribed.', ref('subscription')),
          ...errors(`POST ${S}`, 'GET, POST', SUBSCRIBE_SCOPE, {
            400: 'reason `invalidParameter`: a malformed or unknown field (named), a callback URL the service may not call, a secret that is not Base64 of at least 32 bytes, or the per-client cap reached.',
            ...BODY_ERRORS,
          }),
        },
        callbacks,
      },
      get: {
        tags,
        operationId: 'dcsaEventSubscriptions',
        summary: 'Your event subscriptions (DCSA Track & Trace 2.2)',
        description: 'The event subscriptions of your client, a page at a time (DCSA 2.2 cursor paging), without their secrets.',
        security: subscribeSecurity,
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Subscriptions per page, 1 to 1000; default 100.',
            schema: { type: 'integer', minimum: 1, maximum: 1000 },
          },
          { name: 'cursor', in: 'query', required: false, description: 'A page header value; send it alone.', schema: { type: 'string' } },
          {
            name: 'sort',
            in: 'query',
            required: false,
            description: 'subscriptionID or callbackUrl, each optionally :ASC or :DESC. Default: oldest first.',
            schema: { type: 'string' },
          },
          API_VERSION_PARAMETER,
        ],
        responses: {
          200: response(`GET ${S}`, 200, 'A page of your subscriptions.', { type: 'array', items: ref('subscription') }, pageHeaders),
          ...errors(`GET ${S}`, 'GET, POST', SUBSCRIBE_SCOPE, {
            400: 'reason `invalidQuery` or `invalidParameter`: an unknown or malformed parameter.',
          }),
        },
      },
    },
    [ONE]: {
      get: {
        tags,
        operationId: 'dcsaEventSubscription',
        summary: 'One of your event subscriptions',
        description: "The subscription's callback URL and filters, without its secret; another client's is 404.",
        security: subscribeSecurity,
        parameters: [SUBSCRIPTION_ID, API_VERSION_PARAMETER],
        responses: {
          200: response(`GET ${ONE}`, 200, 'The subscription.', ref('subscription')),
          ...errors(`GET ${ONE}`, 'GET, PUT, DELETE', SUBSCRIBE_SCOPE, { 400: invalidId, ...notFound }),
        },
      },
      put: {
        tags,
        operationId: 'dcsaUpdateEventSubscription',
        summary: 'Replace the callback URL and filters of an event subscription',
        description: 'The body is the whole subscription without its secret; a new callback URL is checked (HEAD) again.',
        security: subscribeSecurity,
        parameters: [SUBSCRIPTION_ID, API_VERSION_PARAMETER],
        requestBody: subscriptionBody('subscription'),
        responses: {
          200: response(`PUT ${ONE}`, 200, 'Updated.', ref('subscription')),
          ...errors(`PUT ${ONE}`, 'GET, PUT, DELETE', SUBSCRIBE_SCOPE, {
            400: 'reason `invalidParameter`: a malformed or unknown field, a secret (change it with PUT …/secret), or a subscriptionID that differs from the path.',
            ...notFound,
            ...BODY_ERRORS,
          }),
        },
      },
      delete: {
        tags,
        operationId: 'dcsaDeleteEventSubscription',
        summary: 'Stop an event subscription',
        description: 'Deletes the subscription: nothing more is sent to its callback URL, its pending notifications given up.',
        security: subscribeSecurity,
        parameters: [SUBSCRIPTION_ID, API_VERSION_PARAMETER],
        responses: {
          204: response(`DELETE ${ONE}`, 204, 'Stopped; its pending notifications are given up.', null),
          ...errors(`DELETE ${ONE}`, 'GET, PUT, DELETE', SUBSCRIBE_SCOPE, { 400: invalidId, ...notFound }),
        },
      },
    },
    [`${ONE}/deliveries`]: {
      get: {
        tags,
        operationId: 'dcsaEventSubscriptionDeliveries',
        summary: 'The delivery log of an event subscription',
        description:
          'Not in the DCSA standard: the notifications sent to the subscription, newest first, as ' +
          "`GET /v2/subscriptions/{subscriptionID}/deliveries` lists a webhook subscription's: each one's status " +
          '(PENDING, DELIVERED, FAILED), its attempts, the last answer of your receiver and when it is tried next. ' +
          "A webhook subscription's id is 404 here, as another client's is.",
        security: subscribeSecurity,
        parameters: [
          SUBSCRIPTION_ID,
          {
            name: 'status',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['PENDING', 'DELIVERED', 'FAILED'] },
            description: 'Only deliveries in this state.',
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 500 },
            description: 'At most this many; default 100.',
          },
          API_VERSION_PARAMETER,
        ],
        responses: {
          200: response(`GET ${ONE}/deliveries`, 200, 'Deliveries, newest first.', {
            type: 'array',
            items: { $ref: '#/components/schemas/EventSubscriptionDelivery' },
          }),
          ...errors(`GET ${ONE}/deliveries`, 'GET', SUBSCRIBE_SCOPE, {
            400: 'reason `invalidParameter` or `invalidQuery`: a subscriptionID that is no UUID, an unknown parameter, a malformed status or limit, or an API-Version other than 2.',
            ...notFound,
          }),
        },
      },
    },
    [`${ONE}/secret`]: {
      put: {
        tags,
        operationId: 'dcsaUpdateEventSubscriptionSecret',
        summary: 'Reset the secret of an event subscription',
        description: 'Notifications are signed with the new secret from the next one on.',
        security: subscribeSecurity,
        parameters: [SUBSCRIPTION_ID, API_VERSION_PARAMETER],
        requestBody: subscriptionBody('subscriptionID_secret_body'),
        responses: {
          204: response(`PUT ${ONE}/secret`, 204, 'The secret is replaced.', null),
          ...errors(`PUT ${ONE}/secret`, 'PUT', SUBSCRIBE_SCOPE, {
            400: 'reason `invalidParameter`: a secret that is not Base64 of at least 32 bytes, or another field.',
            ...notFound,
            ...BODY_ERRORS,
          }),
        },
      },
    },
  };
}
