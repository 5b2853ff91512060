import type { YogaInitialContext } from 'graphql-yoga';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { SnapshotCache } from '../store/snapshot-cache.js';
import type { TransmissionIds } from '../store/transmission-ids.js';
import type { GrantContext } from '../auth/token-grant.js';
import type { ChangeFeed } from '../push/change-feed.js';
import type { PushServices } from '../push/subscription-service.js';
import type { TokenResponse } from './schema/token.js';
import type { CarrierStore } from '../carriers/carrier-store.js';

export interface TokenRequest {
  grantType: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
}

/** Who is calling: the API client of a verified access token. */
export interface Principal {
  clientId: string;
  accountIds: string[];
  scopes: string[];
}

/** Long-lived services, created once per app and shared by every request. */
export interface AppServices {
  config: Config;
  database: Database;
  transmissionIds: TransmissionIds;
  /** Assembled snapshots by shipment version (exact; see SnapshotCache). */
  snapshots: SnapshotCache;
  /** Verifies the request's bearer token; throws a lookup error (401/403) when it does not hold. */
  authenticate(request: Request): Promise<Principal>;
  /** The client credentials grant; throws an OAuth error (GraphQLError with extensions.oauth). */
  issueToken(request: TokenRequest, grant: GrantContext): Promise<TokenResponse>;
  /** Webhook subscriptions' secrets, callback checks and the delivery worker's wake-up. */
  push: PushServices;
  /** Push transitions as they are committed, for live GraphQL subscriptions (shipmentUpdates). */
  changes: ChangeFeed;
  /** Carriers as event sources: notification secrets, the poller's targets. */
  carriers: CarrierStore;
  /** Injected clock. */
  now(): Date;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void;
}

/** What the app adds to Yoga's initial context. */
export interface AppContext {
  services: AppServices;
  /** Per-request id, echoed as providerCorrelationReference and in the logs. */
  correlationId: string;
  /** The verified caller, resolved once per request on first use. */
  principal(): Promise<Principal>;
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
  triggerType: 'EVENT_TRIGGER' | 'EXCEPTION_DETECTED' | 'EXCEPTION_RESOLVED' | 'SCHEDULED_TRIGGER';
  triggeredByEvent: string | null;
}

export type GraphQLContext = YogaInitialContext & AppContext;
