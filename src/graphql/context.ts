import type { YogaInitialContext } from 'graphql-yoga';
import type { AccessCheck } from '../auth/access-check.js';
import type { CarrierStore } from '../carriers/carrier-store.js';
import type { ExecutionContext, ExecutorServices } from '../executor/context.js';
import type { ChangeFeed } from '../push/change-feed.js';
import type { LiveStreams } from '../push/live-streams.js';
import type { PushServices } from '../push/subscription-service.js';

/** Long-lived services, created once per app and shared by every request: the executor's, plus push and carriers. */
export interface AppServices extends ExecutorServices {
  /** Webhook subscriptions' secrets, callback checks and the delivery worker's wake-up. */
  push: PushServices;
  /** "May this principal still see this?", asked by live streams every access.ttlMs (src/auth/access-check.ts). */
  access: AccessCheck;
  /** Push transitions as they are committed, for live GraphQL subscriptions (shipmentUpdates). */
  changes: ChangeFeed;
  /** Live streams: each follows one shipment, asks the access check again, counts toward its client's cap. */
  streams: LiveStreams;
  /** Carriers as event sources: notification secrets, the poller's targets. */
  carriers: CarrierStore;
  /** The public keys that verify tokens (`/.well-known/jwks.json`). */
  publicJwks(): unknown;
}

/** What the app adds to the initial context of an execution. */
export type AppContext = ExecutionContext<AppServices>;

/** The context of the schema's resolvers. */
export type GraphQLContext = YogaInitialContext & AppContext;
