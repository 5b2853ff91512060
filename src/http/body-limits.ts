/**
 * Request body limits by route, enforced by the HTTP edge (http-server.ts)
 * while the body is read, before any of it reaches a handler. The handlers
 * check the same limits again for callers of app.fetch (tests, in-process
 * use) that bypass the edge.
 */
const ROUTE_LIMITS: ReadonlyArray<readonly [RegExp, number]> = [
  // Client credentials requests are tiny (src/rest/token-handler.ts).
  [/^\/oauth\/token\/*$/, 8 * 1024],
  // Subscription requests are small JSON objects (src/rest/subscriptions-handler.ts).
  [/^\/v2\/subscriptions(\/.*)?$/, 16 * 1024],
];

/** The body limit of `path`, in bytes: its route's own, else `fallback` (TT_HTTP_MAX_BODY_BYTES). */
export function bodyLimitFor(path: string, fallback: number): number {
  for (const [pattern, limit] of ROUTE_LIMITS) if (pattern.test(path)) return Math.min(limit, fallback);
  return fallback;
}
