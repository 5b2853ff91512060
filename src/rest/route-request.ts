import type { Executor } from '../executor/executor.js';
import type { AppServices } from '../graphql/context.js';

/** What a handler gets: the request, its route's path parameters, and the app. */
export interface RouteRequest {
  request: Request;
  url: URL;
  /** The path without trailing slashes. */
  path: string;
  params: Record<string, string>;
  executor: Executor;
  services: AppServices;
  correlationId: string;
  /** The caller's address behind trusted proxies (failed-authentication limits of the token grant). */
  remoteAddress: string | undefined;
}
