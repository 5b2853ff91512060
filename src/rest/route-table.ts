import type { Config } from '../config/config.js';
import type { QuotaName } from '../quotas/quotas.js';
import type { RouteFamily } from '../errors/route-errors.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { handleCarrierNotification } from './carrier-notifications-handler.js';
import { carrierRoute } from './carrier-routes.js';
import { handleOperatorIngest } from './operator-ingest-handler.js';
import { handleShipmentLookup } from './shipments-handler.js';
import { handleChanges } from './changes-handler.js';
import { handleSubscriptions } from './subscriptions-handler.js';
import { handleEvents } from './events-handler.js';
import { EVENT_SUBSCRIPTION_BODY_BYTES, handleEventSubscriptions } from './event-subscriptions-handler.js';
import type { RouteRequest } from './route-request.js';
import { handleTokenRequest } from './token-handler.js';
import { handleTrackingRequests, TRACKING_REQUEST_BODY_BYTES } from './tracking-requests-handler.js';

/**
 * Every HTTP route of the service, once (docs/architecture.md, Route table): the router (src/http/use-rest-api.ts),
 * the body limits of the HTTP edge (src/http/http-server.ts), the REST quotas (src/http/use-rest-quotas.ts), the
 * error bodies of answers made outside a handler (src/errors/route-errors.ts) and the metrics' route label all
 * read it, and test/route-table.test.ts checks it against the OpenAPI document.
 */

export interface Route {
  /** The path as the OpenAPI document writes it: `{name}` is one path segment. */
  path: string;
  /** The methods it answers, as documented (a route answers others with 405 and Allow). */
  methods: readonly string[];
  /** The REST handler; absent for paths served by the HTTP layer itself (/graphql, /health, ...). */
  handler?: (route: RouteRequest) => Promise<Response>;
  /** Largest request body accepted, enforced while it is read (413 past it). */
  bodyLimit(config: LimitConfig): number;
  /** The quota one request counts against, once its token is verified. */
  quota?: QuotaName;
  /** The shape of its error bodies. */
  family: RouteFamily;
  /** Described in /openapi.json (REST and service routes; not GraphQL, metrics or the developer pages). */
  documented: boolean;
}

type LimitConfig = Pick<Config, 'resilience' | 'carriers'>;

/** Routes without a limit of their own: TT_HTTP_MAX_BODY_BYTES. */
const HTTP_DEFAULT = (config: LimitConfig) => config.resilience.http.maxBodyBytes;
/** A route's own small limit, or TT_HTTP_MAX_BODY_BYTES when that is smaller. */
const atMost = (bytes: number) => (config: LimitConfig) => Math.min(bytes, config.resilience.http.maxBodyBytes);
/** Subscription requests are small JSON objects. */
const SUBSCRIPTION_BODY = atMost(16 * 1024);

const subscriptions = (path: string, methods: readonly string[]): Route => ({
  path,
  methods,
  handler: (r) => handleSubscriptions(r.request, r.url, r.executor, r.services, r.correlationId),
  bodyLimit: SUBSCRIPTION_BODY,
  quota: 'subscriptions',
  family: 'dcsa',
  documented: true,
});

/** The DCSA Track & Trace 2.2 event subscription routes (src/rest/event-subscriptions-handler.ts). */
const eventSubscriptions = (path: string, methods: readonly string[]): Route => ({
  path,
  methods,
  handler: (r) => handleEventSubscriptions(r.request, r.url, r.params, r.executor, r.services, r.correlationId),
  bodyLimit: atMost(EVENT_SUBSCRIPTION_BODY_BYTES),
  quota: 'subscriptions',
  family: 'dcsa-tnt',
  documented: true,
});

/** The tracking request routes (src/rest/tracking-requests-handler.ts); they count against the subscriptions quota. */
const trackingRequests = (path: string, methods: readonly string[]): Route => ({
  path,
  methods,
  handler: (r) => handleTrackingRequests(r.request, r.url, r.params, r.executor, r.services, r.correlationId),
  bodyLimit: atMost(TRACKING_REQUEST_BODY_BYTES),
  quota: 'subscriptions',
  family: 'dcsa',
  documented: true,
});

const served = (path: string, methods: readonly string[], family: RouteFamily, documented: boolean): Route => ({
  path,
  methods,
  bodyLimit: HTTP_DEFAULT,
  family,
  documented,
});

export const ROUTES: readonly Route[] = [
  {
    path: '/oauth/token',
    methods: ['POST'],
    handler: (r) => handleTokenRequest(r.request, r.executor, r.services, r.correlationId, r.remoteAddress),
    // Client credentials requests are tiny.
    bodyLimit: atMost(8 * 1024),
    // Not counted here: the grant counts each token it issues.
    family: 'token',
    documented: true,
  },
  {
    path: '/v2/shipments',
    methods: ['GET'],
    handler: (r) => handleShipmentLookup(r.request, r.url, r.executor, r.services, r.correlationId),
    bodyLimit: HTTP_DEFAULT,
    quota: 'lookups',
    family: 'dcsa',
    documented: true,
  },
  {
    path: '/v2/changes',
    methods: ['GET'],
    handler: (r) => handleChanges(r.request, r.url, r.executor, r.services, r.correlationId),
    bodyLimit: HTTP_DEFAULT,
    quota: 'lookups',
    family: 'dcsa',
    documented: true,
  },
  subscriptions('/v2/subscriptions', ['GET', 'POST']),
  subscriptions('/v2/subscriptions/{subscriptionID}', ['GET', 'DELETE']),
  subscriptions('/v2/subscriptions/{subscriptionID}/rotate-secret', ['POST']),
  subscriptions('/v2/subscriptions/{subscriptionID}/deliveries', ['GET']),
  subscriptions('/v2/subscriptions/{subscriptionID}/test', ['POST']),
  subscriptions('/v2/subscriptions/{subscriptionID}/deliveries/{deliveryID}/redeliver', ['POST']),
  {
    path: '/v2/events',
    methods: ['GET'],
    handler: (r) => handleEvents(r.request, r.url, r.executor, r.services, r.correlationId),
    bodyLimit: HTTP_DEFAULT,
    quota: 'lookups',
    family: 'dcsa-tnt',
    documented: true,
  },
  eventSubscriptions('/v2/event-subscriptions', ['GET', 'POST']),
  eventSubscriptions('/v2/event-subscriptions/{subscriptionID}', ['GET', 'PUT', 'DELETE']),
  eventSubscriptions('/v2/event-subscriptions/{subscriptionID}/secret', ['PUT']),
  eventSubscriptions('/v2/event-subscriptions/{subscriptionID}/deliveries', ['GET']),
  trackingRequests('/v2/tracking-requests', ['GET', 'POST']),
  trackingRequests('/v2/tracking-requests/{trackingRequestID}', ['GET', 'DELETE']),
  {
    path: '/v2/carrier-notifications/{carrierCode}',
    methods: ['POST', 'HEAD'],
    handler: carrierRoute((r) => handleCarrierNotification(r.request, r.url, r.services, r.correlationId)),
    bodyLimit: (config) => config.carriers.notificationMaxBytes,
    family: 'dcsa',
    documented: true,
  },
  {
    path: '/v2/operator/ingest',
    methods: ['POST'],
    handler: carrierRoute((r) => handleOperatorIngest(r.request, r.services, r.correlationId)),
    bodyLimit: (config) => config.carriers.operatorIngestMaxBytes,
    family: 'dcsa',
    documented: true,
  },
  {
    path: '/.well-known/jwks.json',
    methods: ['GET'],
    handler: (r) => Promise.resolve(jsonResponse(r.services.publicJwks(), 200, { 'Cache-Control': 'public, max-age=300' })),
    bodyLimit: HTTP_DEFAULT,
    family: 'dcsa',
    documented: true,
  },
  served('/health', ['GET'], 'dcsa', true),
  served('/ready', ['GET'], 'dcsa', true),
  served('/graphql', ['GET', 'POST', 'OPTIONS'], 'graphql', false),
  served('/metrics', ['GET'], 'dcsa', false),
  served('/openapi.json', ['GET'], 'dcsa', false),
  served('/docs', ['GET'], 'dcsa', false),
];

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

const COMPILED = ROUTES.map((route) => ({
  route,
  names: [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string),
  pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '([^/]+)')}$`),
}));

/** The route of a request path (trailing slashes ignored), with its path parameters; undefined when none. */
export function matchRoute(pathname: string): RouteMatch | undefined {
  // One request asks this of its path four times (the node:http layer, the metrics label, the REST server, its
  // quota): the answers of recent paths are kept (the match is frozen, so no caller can change another's).
  const known = recentMatches.get(pathname);
  if (known) return known;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
  for (const { route, names, pattern } of COMPILED) {
    const m = pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => (params[name] = decodePathSegment(m[i + 1] as string)));
    const match: RouteMatch = Object.freeze({ route, params: Object.freeze(params) });
    // Bounded: paths with parameters are many; a path of no route is not kept (a scan of unknown paths
    // would only push the known ones out).
    if (pathname.length <= MAX_KEPT_PATH) {
      if (recentMatches.size >= MAX_KEPT_MATCHES) recentMatches.delete(recentMatches.keys().next().value as string);
      recentMatches.set(pathname, match);
    }
    return match;
  }
  return undefined;
}

const MAX_KEPT_MATCHES = 1_000;
const MAX_KEPT_PATH = 200;
const recentMatches = new Map<string, RouteMatch>();

/**
 * The body limit of a path in bytes: its route's (TT_CARRIER_NOTIFICATION_MAX_BYTES and TT_OPERATOR_INGEST_MAX_BYTES
 * for the carrier routes, which may exceed the default), else TT_HTTP_MAX_BODY_BYTES.
 */
export function bodyLimitFor(pathname: string, config: LimitConfig): number {
  return (matchRoute(pathname)?.route.bodyLimit ?? HTTP_DEFAULT)(config);
}

/** The metrics label of a path: its route's template, so labels stay bounded; `other` for no route. */
export function routeLabel(pathname: string): string {
  return matchRoute(pathname)?.route.path ?? 'other';
}

/** A path segment, percent-decoded; as it came when its encoding is malformed (the handler then refuses the value). */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
