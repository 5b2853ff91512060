/** The one scope of v1 (spec section 5): read access to shipment tracking. */
export const READ_SCOPE = 'track-and-trace.read';

/** Scope granted when the token request names none (DESIGN section 7). */
export const DEFAULT_SCOPE = READ_SCOPE;

/** Every scope a client may request. */
export const SUPPORTED_SCOPES: readonly string[] = [READ_SCOPE];

/**
 * The scope to grant for a token request's `scope` parameter (RFC 6749
 * section 3.3: space-delimited, order-insensitive), or null when it names a
 * scope we do not know, which the token endpoint answers with `invalid_scope`.
 * Absent or blank means the default scope.
 */
export function grantedScope(requested: string | undefined): string | null {
  const asked = parseScope(requested ?? '');
  if (asked.length === 0) return DEFAULT_SCOPE;
  if (!asked.every((s) => SUPPORTED_SCOPES.includes(s))) return null;
  return [...new Set(asked)].join(' ');
}

/** Splits a space-delimited scope string. */
export function parseScope(scope: string): string[] {
  return scope.split(' ').filter((s) => s.length > 0);
}
