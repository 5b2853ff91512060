import { DCSA, lookupError } from '../service/errors.js';
import type { ClientStore } from './client-store.js';
import { TokenError, type TokenService } from './tokens.js';
import type { Principal } from './principal.js';

/**
 * Bearer-token authentication of lookup requests (docs/architecture.md, REST contract), shared
 * by /graphql and GET /v2/shipments: the token must be ours, current, of this
 * environment, and of an active client. Which scope an operation needs is
 * checked by the useAuthentication plugin (requireScope), per field.
 */

export interface AuthenticatorOptions {
  /**
   * How long a client's account and active state are kept in memory, in ms.
   * Default 5000. Disabling a client stops its live tokens at once in the
   * process that disabled it and within this time in every other process;
   * 0 checks the database on every request (one extra round trip).
   */
  clientCacheTtlMs?: number;
}

interface CachedClient {
  accountId: string;
  active: boolean;
  expiresAt: number;
}

const MAX_CACHED_CLIENTS = 10_000;
// RFC 6750 section 2.1: b64token after "Bearer" and one or more spaces.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

function unauthenticated(description: string) {
  return lookupError('UNAUTHENTICATED', description, [{ ...DCSA.unauthorized, property: 'Authorization', errorCodeMessage: description }], {
    'WWW-Authenticate': `Bearer realm="track-and-trace", error="invalid_token", error_description="${description}"`,
  });
}

/** 403 for a token that lacks `scope` (RFC 6750 insufficient_scope). */
export function requireScope(principal: Principal, scope: string): void {
  if (principal.scopes.includes(scope)) return;
  throw lookupError(
    'FORBIDDEN',
    `the access token lacks the ${scope} scope`,
    [{ ...DCSA.forbidden, errorCodeMessage: `The access token lacks the ${scope} scope.` }],
    { 'WWW-Authenticate': `Bearer realm="track-and-trace", error="insufficient_scope", scope="${scope}"` },
  );
}

export function createAuthenticator(
  tokens: Pick<TokenService, 'verifyToken'>,
  clients: ClientStore,
  options: AuthenticatorOptions = {},
): { authenticate(request: Request): Promise<Principal>; forget(clientId: string): void } {
  const ttl = options.clientCacheTtlMs ?? 5000;
  const cache = new Map<string, CachedClient>();

  async function client(clientId: string): Promise<CachedClient> {
    const now = Date.now();
    const hit = cache.get(clientId);
    if (hit && hit.expiresAt > now) return hit;
    const row = await clients.getClient(clientId);
    const entry = { accountId: row?.accountId ?? '', active: row !== null && row.disabledAt === null, expiresAt: now + ttl };
    if (ttl > 0) {
      if (cache.size >= MAX_CACHED_CLIENTS) cache.delete(cache.keys().next().value as string);
      cache.set(clientId, entry);
    }
    return entry;
  }

  return {
    async authenticate(request) {
      const header = request.headers.get('authorization');
      if (header === null) throw unauthenticated('an access token is required (Authorization: Bearer TOKEN)');
      const match = BEARER.exec(header.trim());
      if (!match?.[1]) throw unauthenticated('the Authorization header must be "Bearer" followed by the access token');
      let verified;
      try {
        verified = await tokens.verifyToken(match[1]);
      } catch (err) {
        if (err instanceof TokenError) throw unauthenticated(`the access token is not valid (${err.reason.replaceAll('_', ' ')})`);
        throw err;
      }
      const state = await client(verified.clientId);
      if (!state.active) throw unauthenticated('the access token belongs to a disabled or unknown client');
      return { clientId: verified.clientId, accountIds: [state.accountId], scopes: [...verified.scopes] };
    },
    forget(clientId) {
      cache.delete(clientId);
    },
  };
}
