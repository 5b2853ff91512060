/** Read access to shipment tracking (spec section 5): every client has it. */
export const READ_SCOPE = 'track-and-trace.read';

/**
 * Manage push subscriptions (webhooks) and receive live updates (docs/architecture.md,
 * Push). Granted per client by an operator
 * (`tracking client grant CLIENT_ID track-and-trace.subscribe`), because a
 * subscription makes the service send requests to an address of the
 * client's choosing.
 */
export const SUBSCRIBE_SCOPE = 'track-and-trace.subscribe';

/**
 * Load ingest bundles over HTTP (`POST /v2/operator/ingest`), what
 * `tracking ingest` does on the command line. Granted per client by an
 * operator (`tracking client grant CLIENT_ID tracking-operator.ingest`):
 * it writes shipments and events for every account.
 */
export const OPERATOR_INGEST_SCOPE = 'tracking-operator.ingest';

/**
 * Start tracking references (bills of lading, bookings, containers) the client knows: `POST
 * /v2/tracking-requests` (docs/tracking-requests.md). Granted per client by an operator
 * (`tracking client grant CLIENT_ID track-and-trace.track`), because each request makes the service fetch from a
 * carrier on the client's behalf, and a reference found grants the client's accounts its shipment.
 */
export const TRACK_SCOPE = 'track-and-trace.track';

/** Scope granted when the token request names none (docs/architecture.md, REST contract). */
export const DEFAULT_SCOPE = READ_SCOPE;

/** Every scope there is. */
export const SUPPORTED_SCOPES: readonly string[] = [READ_SCOPE, SUBSCRIBE_SCOPE, TRACK_SCOPE, OPERATOR_INGEST_SCOPE];

/**
 * The scope to grant for a token request's `scope` parameter (RFC 6749
 * section 3.3: space-delimited, order-insensitive), or null when it names a
 * scope the client was not granted, which the token endpoint answers with
 * `invalid_scope`. Absent or blank means the default scope.
 */
export function grantedScope(requested: string | undefined, allowed: readonly string[] = [READ_SCOPE]): string | null {
  const asked = parseScope(requested ?? '');
  if (asked.length === 0) return DEFAULT_SCOPE;
  if (!asked.every((s) => allowed.includes(s))) return null;
  return [...new Set(asked)].join(' ');
}

/** Splits a space-delimited scope string. */
export function parseScope(scope: string): string[] {
  return scope.split(' ').filter((s) => s.length > 0);
}
