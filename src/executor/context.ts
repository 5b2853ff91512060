import type { YogaInitialContext } from 'graphql-yoga';
import type { Principal, TokenRequest, TokenResponse } from '../auth/principal.js';
import type { GrantContext } from '../auth/token-grant.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { Log } from '../observability/logger.js';
import type { PredictedArrivals } from '../store/eta/predicted-arrivals.js';
import type { SnapshotCache } from '../store/shipments/snapshot-cache.js';
import type { TransmissionIds } from '../store/housekeeping/transmission-ids.js';

/**
 * What every execution of a GraphQL document sees (docs/architecture.md: the executor): the services the
 * executor's own plugins and the lookup need. The app's full set (src/graphql/context.ts) extends it with the
 * push and carrier services that live on the floors above.
 */
export interface ExecutorServices {
  config: Config;
  database: Database;
  transmissionIds: TransmissionIds;
  /** Assembled snapshots by shipment version (exact; see SnapshotCache). */
  snapshots: SnapshotCache;
  /** Predicted arrivals (docs/predicted-arrival.md): the current model, checked by version, and each voyage's history. */
  predictions: PredictedArrivals;
  /** Verifies the request's bearer token; throws a lookup error (401/403) when it does not hold. */
  authenticate(request: Request): Promise<Principal>;
  /**
   * The request's principal when it is known without waiting (its token and every fact of the access check
   * remembered), else undefined: ask `authenticate`. Lets the hot path of a poll decide with no promise.
   */
  principalNow(request: Request): Principal | undefined;
  /** The client credentials grant; throws an OAuth error (GraphQLError with extensions.oauth). */
  issueToken(request: TokenRequest, grant: GrantContext): Promise<TokenResponse>;
  /** Injected clock. */
  now(): Date;
  log: Log;
}

/** What the executor adds to the initial context of every execution (HTTP request or in-process). */
export interface ExecutionContext<S extends ExecutorServices = ExecutorServices> {
  services: S;
  /** Per-request id, echoed as providerCorrelationReference and in the logs. */
  correlationId: string;
  /** The verified caller, resolved once per request on first use. */
  principal(): Promise<Principal>;
  /** The verified caller when known without waiting (ExecutorServices.principalNow), else undefined: ask principal(). */
  principalNow(): Principal | undefined;
  /** Client authentication details of a token request (set by POST /oauth/token). */
  grant: GrantContext;
  /**
   * Set when the service itself runs the lookup document for a push delivery
   * (src/push/transmission-bodies.ts): the header's trigger instead of
   * MANUAL_TRIGGER, and the transmissionID of the delivery.
   */
  transmission?: PushTransmission;
  /** Set by GET /v2/shipments: the poller's If-None-Match, and the entity tag the lookup found (src/domain/conditional-read.ts). */
  conditional?: ConditionalRead;
  /** Set by the service's own runs of the lookup document (REST, push): the rendering memo (shipment-rendering.ts). */
  rendered?: RenderedRead;
}

/** The context the executor's plugins read: the initial context (request, params) plus the executor's part. */
export type ExecutorContext = YogaInitialContext & ExecutionContext;

/**
 * What the service's own executions add to the initial context: REST
 * handlers a correlation id and the grant's details, push delivery
 * (src/push/transmission-bodies.ts) the subscription owner as the principal,
 * already authorised, and the pushed transmission's header fields.
 * @NOTE only code inside the process can set these: HTTP requests cannot.
 */
export interface InternalContext {
  correlationId?: string;
  grant?: GrantContext;
  asPrincipal?: Principal;
  transmission?: PushTransmission;
  conditional?: ConditionalRead;
  rendered?: RenderedRead;
}

/**
 * The lookup's side of the rendering memo (src/executor/shipment-rendering.ts): REST and push serialize the
 * same `shipmentTracking` of an unchanged shipment again and again, so the serialized text is kept on the
 * shipment's snapshot (one version, exact), under `name`.
 */
export interface RenderedRead {
  /** Names the rendering: the document's selection and the serialization. */
  name: string;
  /**
   * The rendering is REST's `shipmentTracking`, which the stored snapshot holds as text (src/domain/rest-tracking.ts):
   * a version rendered nowhere yet is answered with the stored text.
   */
  stored?: boolean;
  /**
   * Set by the shipment resolver when the snapshot holds the rendering (kept, or stored): the field is then null
   * (nothing of the snapshot is walked) and the caller answers with this header and the text.
   */
  hit?: { header: TransmissionHeader; tracking: Buffer; predictedArrival?: unknown };
  /**
   * The selection's predicted arrival is not in the rendering but written into it per request
   * (src/executor/prediction-splice.ts): on a hit, the resolver reads this request's prediction into `hit`.
   */
  predicted?: boolean;
  /**
   * The rendering can be made from another one of the same version without walking the snapshot: GraphQL
   * selections that REST's rendering answers (rest-projection.ts). `from` names that rendering.
   */
  derived?: { from: string; make(source: Buffer): Buffer };
  /** Set by the shipment resolver otherwise: keeps the caller's rendering of this version for the next. */
  keep?(tracking: string | Buffer): void;
}

/** A transmission header as the lookup builds it (the GraphQL TransmissionHeader's fields, in its order). */
export interface TransmissionHeader {
  transmissionID: string;
  transmissionDateTime: string;
  triggerType: 'MANUAL_TRIGGER' | PushTransmission['triggerType'];
  triggeredByEvent: string | null;
  senderID: string;
  receiverID: string;
  schemaVersion: string;
}

export interface ConditionalRead {
  ifNoneMatch: string | null;
  /** Names the selection the tag covers (selectionKey of the fixed document). */
  selection: string;
  /** Set by the shipment resolver once it has read the shipment's version. */
  etag?: string;
  /**
   * Set by the shipment resolver when `ifNoneMatch` matches `etag`; the field is then null and the caller
   * answers 304. A flag rather than a thrown error: an error is built twice on its way through the
   * executor, each time with a stack trace, which was a few percent of a conditional poll.
   */
  notModified?: boolean;
}

/** The header fields of a pushed transmission (spec section 2, triggerType table). */
export interface PushTransmission {
  transmissionID: string;
  triggerType:
    'EVENT_TRIGGER' | 'EXCEPTION_DETECTED' | 'EXCEPTION_RESOLVED' | 'SCHEDULED_TRIGGER' | 'SHIPMENT_MERGED' | 'PREDICTED_ARRIVAL';
  triggeredByEvent: string | null;
}
