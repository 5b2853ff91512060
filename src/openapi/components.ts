import { READ_SCOPE } from '../auth/scopes.js';
import { TOKEN_LIFETIME_SECONDS } from '../auth/tokens.js';
import { schema } from '../graphql/schema/index.js';
import { SCHEMA_VERSION } from '../graphql/schema/transmission.js';
import { SHIPMENT_DOCUMENT } from '../executor/shipment-document.js';
import { ISSUE_TOKEN } from '../executor/token-document.js';
import { SUBSCRIPTION_DOCUMENTS } from '../executor/subscription-documents.js';
import { FEED_DOCUMENTS } from '../executor/feed-documents.js';
import { EVENT_SUBSCRIPTION_DOCUMENTS } from '../executor/event-documents.js';
import { subscriptionSchemas } from './subscription-schemas.js';
import { TRACKING_REQUEST_DOCUMENTS } from '../executor/tracking-request-documents.js';
import { trackingRequestSchemas } from './tracking-request-schemas.js';
import { componentRef, RestSchemas, type Annotations, type JsonSchema } from './rest-schemas.js';
import { SAFE_REQUEST_ID } from '../observability/request-context.js';

const UN_LOCATION_CODE = { pattern: '^[A-Z]{2}[A-Z2-9]{3}$' };
const UUID = { format: 'uuid' };
const CONTAINER_NUMBER = { pattern: '^[A-Z]{3}[UJZ][0-9]{7}$' };

/** What ingest and the services guarantee beyond the GraphQL types. */
const ANNOTATIONS: Annotations = {
  'TransmissionHeader.transmissionID': { pattern: '^TXN-[0-9]+$' },
  'TransmissionHeader.schemaVersion': { const: SCHEMA_VERSION },
  'ShipmentTracking.carrierCode': { pattern: '^[A-Z]{2,4}$' },
  'Location.unLocationCode': UN_LOCATION_CODE,
  'TransportCall.unLocationCode': UN_LOCATION_CODE,
  'Vessel.vesselIMONumber': { pattern: '^[0-9]{7}$' },
  'Container.containerNumber': CONTAINER_NUMBER,
  'EquipmentEvent.equipmentReference': CONTAINER_NUMBER,
  'ShipmentEvent.eventID': UUID,
  'TransportEvent.eventID': UUID,
  'EquipmentEvent.eventID': UUID,
  'Exception.exceptionID': UUID,
  'Exception.relatedEventID': UUID,
  // The resolution fields come exactly with status RESOLVED.
  Exception: {
    if: { properties: { status: { const: 'RESOLVED' } } },
    then: { required: ['resolvedDateTime', 'resolutionType', 'resolutionNote'] },
    else: {
      not: { anyOf: [{ required: ['resolvedDateTime'] }, { required: ['resolutionType'] }, { required: ['resolutionNote'] }] },
    },
  },
  'TokenResponse.token_type': { const: 'Bearer' },
  'TokenResponse.expires_in': { const: TOKEN_LIFETIME_SECONDS },
  'TokenResponse.scope': { pattern: `^${READ_SCOPE.replaceAll('.', '\\.')}( [a-z.-]+)*$` },
  'WebhookSubscription.subscriptionID': UUID,
  'WebhookSubscription.callbackUrl': { format: 'uri' },
  'WebhookDelivery.deliveryID': UUID,
  'WebhookDelivery.transmissionID': { pattern: '^TXN-[0-9]+$' },
  'WebhookDelivery.triggeredByEvent': UUID,
  'WebhookDelivery.exceptionID': UUID,
  'EventSubscriptionDelivery.deliveryID': UUID,
  'DetailedError.errorCode': { minimum: 7000, maximum: 9999 },
  // The caller's X-Request-ID when it is a safe token (src/observability/request-context.ts), else a trace id or a UUID.
  'Error.providerCorrelationReference': { pattern: SAFE_REQUEST_ID.source },
  'Error.errors': { minItems: 1 },
};

/** Bodies that are not GraphQL results: the OAuth error, the key set, readiness. */
const OTHER_SCHEMAS: Record<string, JsonSchema> = {
  OAuthError: {
    type: 'object',
    description: 'Error body of the token endpoint (RFC 6749 section 5.2).',
    properties: {
      error: {
        type: 'string',
        enum: ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope', 'temporarily_unavailable', 'server_error'],
        description: 'The RFC 6749 error code; the responses below say which status carries which.',
      },
      error_description: { type: 'string', description: 'What went wrong, for the developer.' },
    },
    required: ['error', 'error_description'],
    additionalProperties: false,
  },
  JsonWebKeySet: {
    type: 'object',
    description: 'The public keys that verify access tokens (RFC 7517).',
    properties: { keys: { type: 'array', items: componentRef('JsonWebKey'), minItems: 1 } },
    required: ['keys'],
    additionalProperties: false,
  },
  JsonWebKey: {
    type: 'object',
    description: 'An EC P-256 public key for ES256 signatures; `kid` matches the `kid` header of the tokens it signed.',
    properties: {
      kty: { const: 'EC' },
      crv: { const: 'P-256' },
      x: { type: 'string', description: 'x coordinate, base64url.' },
      y: { type: 'string', description: 'y coordinate, base64url.' },
      kid: { type: 'string', description: 'Key id (RFC 7638 thumbprint unless configured).' },
      alg: { const: 'ES256' },
      use: { const: 'sig' },
    },
    required: ['kty', 'crv', 'x', 'y', 'kid', 'alg', 'use'],
    additionalProperties: false,
  },
  Readiness: {
    type: 'object',
    description: 'Whether the service can answer: its database responds.',
    properties: {
      status: {
        type: 'string',
        enum: ['ready', 'unavailable', 'shutting-down'],
        description: '`shutting-down` from SIGTERM until the process exits.',
      },
      version: {
        type: 'string',
        description: "The release answering (semver, package.json's version): during a rolling upgrade, which one a balancer reaches.",
        examples: ['0.5.0'],
      },
      database: { type: 'string', enum: ['sqlite', 'mysql'], description: 'The store in use.' },
    },
    required: ['status', 'version', 'database'],
    additionalProperties: false,
  },
};

/** `components.schemas`: REST bodies derived from the GraphQL schema and documents, then the others. */
export function buildSchemas(): Record<string, JsonSchema> {
  const rest = new RestSchemas(schema, ANNOTATIONS);
  rest.ofDocumentResult(SHIPMENT_DOCUMENT, 'shipment');
  rest.ofDocumentResult(ISSUE_TOKEN, 'issueToken');
  rest.ofType('Error');
  rest.ofDocumentResult(SUBSCRIPTION_DOCUMENTS.list.query, 'webhookSubscriptions');
  rest.ofDocumentResult(SUBSCRIPTION_DOCUMENTS.deliveries.query, 'webhookDeliveries');
  rest.ofDocumentResult(SUBSCRIPTION_DOCUMENTS.test.query, 'testWebhookSubscription');
  rest.ofDocumentResult(EVENT_SUBSCRIPTION_DOCUMENTS.deliveries.query, 'eventSubscriptionDeliveries');
  rest.ofDocumentResult(FEED_DOCUMENTS.changesWithSnapshots.query, 'accountChanges');
  rest.ofDocumentResult(TRACKING_REQUEST_DOCUMENTS.get.query, 'trackingRequest');
  withPredictedArrival(rest);
  return {
    ...rest.components,
    ...subscriptionSchemas(rest.components.WebhookSubscription as JsonSchema),
    ...trackingRequestSchemas(),
    ...OTHER_SCHEMAS,
  };
}

/**
 * `include=predictedArrival` (docs/predicted-arrival.md) adds `shipmentTracking.predictedArrival` to the lookup's body:
 * an optional property of ShipmentTracking, described by the GraphQL type it is rendered from (PREDICTED_ARRIVAL_DOCUMENT
 * selects every field of it, with REST's rule for absent values).
 */
function withPredictedArrival(rest: RestSchemas): void {
  const reference = rest.ofType('PredictedArrival');
  const tracking = rest.components.ShipmentTracking as JsonSchema & { properties: Record<string, JsonSchema> };
  tracking.properties.predictedArrival = {
    ...reference,
    description:
      "Only with `include=predictedArrival`: the service's own arrival estimate, learned from its history; not the carrier's word " +
      '(that is `eta`). Absent when the carrier gave no ETA and no history exists.',
  };
}

/** Response headers: the HTTP name, and the `components.headers` object under the key. */
export const HEADERS = {
  CorrelationId: {
    name: 'X-Correlation-ID',
    object: {
      description:
        "The request's id, on every response: the caller's X-Request-ID when it is a safe token, else the trace id of " +
        "its traceparent, else a new UUID. Also in the service's logs and as providerCorrelationReference of a DCSA error body.",
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
    },
  },
  RequestId: {
    name: 'X-Request-ID',
    object: {
      description: 'The same id as X-Correlation-ID, under the common name.',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
    },
  },
  PrivateNoCache: {
    name: 'Cache-Control',
    object: {
      description: 'For this client only; a cache must revalidate (If-None-Match) before reusing the body.',
      required: true,
      schema: { const: 'private, no-cache' },
    },
  },
  ShipmentEtag: {
    name: 'ETag',
    object: {
      description:
        "Weak entity tag of the shipment's current snapshot (its shipmentTracking; the transmissionHeader changes on every " +
        '200). Send it back as If-None-Match: 304 while the shipment is unchanged.',
      required: true,
      schema: { type: 'string', pattern: '^W/"[A-Za-z0-9_-]+"$' },
    },
  },
  NoStore: { name: 'Cache-Control', object: { description: 'Never cache.', required: true, schema: { const: 'no-store' } } },
  PragmaNoCache: { name: 'Pragma', object: { description: 'Never cache (HTTP/1.0).', required: true, schema: { const: 'no-cache' } } },
  PublicCache: {
    name: 'Cache-Control',
    object: { description: 'May be cached for five minutes.', required: true, schema: { const: 'public, max-age=300' } },
  },
  BearerChallenge: {
    name: 'WWW-Authenticate',
    object: {
      description: 'RFC 6750 challenge: `error="invalid_token"` (401) or `error="insufficient_scope"` (403).',
      required: true,
      schema: { type: 'string', pattern: '^Bearer ' },
    },
  },
  BasicChallenge: {
    name: 'WWW-Authenticate',
    object: { description: 'Present when the client authenticated with HTTP Basic.', schema: { type: 'string', pattern: '^Basic ' } },
  },
  RetryAfter: {
    name: 'Retry-After',
    object: { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  },
  AllowGet: { name: 'Allow', object: { description: 'The allowed method.', required: true, schema: { const: 'GET' } } },
  AllowMethods: {
    name: 'Allow',
    object: { description: 'The allowed methods.', required: true, schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' } },
  },
  SubscriptionLocation: {
    name: 'Location',
    object: {
      description: 'The new subscription.',
      required: true,
      schema: { type: 'string', pattern: '^/v2/subscriptions/[0-9a-f-]{36}$' },
    },
  },
  TrackingRequestLocation: {
    name: 'Location',
    object: {
      description: 'The tracking request.',
      required: true,
      schema: { type: 'string', pattern: '^/v2/tracking-requests/[0-9a-f-]{36}$' },
    },
  },
  NextPageCursor: {
    name: 'Next-Page-Cursor',
    object: { description: 'Present when there is a next page: pass it as `cursor`.', schema: { type: 'string' } },
  },
  AllowPost: { name: 'Allow', object: { description: 'The allowed method.', required: true, schema: { const: 'POST' } } },
  // The client's quota (docs/errors.md: Quotas and rate limits), on every response of a request that was counted.
  RateLimitLimit: {
    name: 'RateLimit-Limit',
    object: { description: "The client's quota: requests per window (RateLimit-Policy).", schema: { type: 'string', pattern: '^[0-9]+$' } },
  },
  RateLimitRemaining: {
    name: 'RateLimit-Remaining',
    object: {
      description: 'Requests left in the current window (0 while the burst allowance is used).',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
  },
  RateLimitReset: {
    name: 'RateLimit-Reset',
    object: { description: 'Seconds until the window resets.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  },
  RateLimitPolicy: {
    name: 'RateLimit-Policy',
    object: { description: 'The quota policy: `<limit>;w=<window seconds>`.', schema: { type: 'string', pattern: '^[0-9]+;w=[0-9]+$' } },
  },
} as const satisfies Record<string, { name: string; object: JsonSchema }>;

export type HeaderName = keyof typeof HEADERS;

/** A response's `headers`: HTTP name → reference to the component. */
export function headersOf(names: readonly HeaderName[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((key) => [HEADERS[key].name, { $ref: `#/components/headers/${key}` }]));
}
