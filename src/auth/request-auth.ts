import { DCSA, lookupError } from '../errors/errors.js';
import type { AccessCheck, AccessDenial, ClientState, TokenGrant } from './access-check.js';
import { TokenError, type TokenService, type VerifiedToken } from './tokens.js';
import type { Principal } from './principal.js';

/**
 * Bearer-token authentication of lookup requests (docs/architecture.md, REST contract), shared
 * by /graphql and GET /v2/shipments: the token must be ours, current, of this
 * environment, and of an active client. Which scope an operation needs is
 * checked by the useAuthentication plugin (requireScope), per field.
 */

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

/** Verifies tokens; `verifiedNow`, when given, answers a token it remembers at once (verified-token-cache.ts). */
export type RequestTokenVerifier = Pick<TokenService, 'verifyToken'> & { verifiedNow?(token: string): VerifiedToken | undefined };

export interface Authenticator {
  /** The request's principal; rejects with a lookup error (401) when its token does not hold. */
  authenticate(request: Request): Promise<Principal>;
  /**
   * The request's principal when it is known without waiting: its token verified before and every fact of
   * the access check remembered (nearly every request of a client that keeps its token). Undefined otherwise,
   * a refusal included: ask `authenticate`, which reads what is missing and says why.
   */
  principalNow(request: Request): Principal | undefined;
  forget(clientId: string): void;
}

/**
 * Authenticates requests. What may change after a token was issued (the client disabled, a scope taken
 * back, the signing key retired) is asked of `access` (src/auth/access-check.ts), which remembers each
 * answer for its TTL (default 5 s): the process that makes the change sees it at once (`forget`), every
 * other process within the TTL.
 */
export function createAuthenticator(tokens: RequestTokenVerifier, access: AccessCheck): Authenticator {
  // A request is asked about more than once (its route's quota, then the executor): one answer per request,
  // the principal itself once known, so that later askers need no promise.
  const answers = new WeakMap<Request, Principal | Promise<Principal>>();

  const bearerToken = (request: Request): string => {
    const header = request.headers.get('authorization');
    if (header === null) throw unauthenticated('an access token is required (Authorization: Bearer TOKEN)');
    const token = tokenOf(header);
    if (!token) throw unauthenticated('the Authorization header must be "Bearer" followed by the access token');
    return token;
  };

  const authenticate = async (request: Request): Promise<Principal> => {
    let verified;
    try {
      verified = await tokens.verifyToken(bearerToken(request));
    } catch (err) {
      if (err instanceof TokenError) throw unauthenticated(`the access token is not valid (${err.reason.replaceAll('_', ' ')})`);
      throw err;
    }
    const token = grantOf(verified);
    const state = await access.token(token);
    if ('denial' in state) throw unauthenticated(state.denial.message);
    return principalOf(token, state);
  };

  /** The principal from what is remembered alone, else undefined (authenticate decides, and says why). */
  const fromMemory = (request: Request): Principal | undefined => {
    if (!tokens.verifiedNow) return undefined;
    const header = request.headers.get('authorization');
    const bearer = header === null ? undefined : tokenOf(header);
    const verified = bearer ? tokens.verifiedNow(bearer) : undefined;
    if (!verified) return undefined;
    const token = grantOf(verified);
    const state = access.tokenNow(token);
    return state && principalOf(token, state);
  };

  const principalNow = (request: Request): Principal | undefined => {
    const known = answers.get(request);
    if (known) return known instanceof Promise ? undefined : known;
    const principal = fromMemory(request);
    if (principal) answers.set(request, principal);
    return principal;
  };

  return {
    authenticate(request) {
      const known = principalNow(request) ?? answers.get(request);
      if (known instanceof Promise) return known;
      if (known) return Promise.resolve(known);
      const answer = authenticate(request);
      answers.set(request, answer);
      return answer;
    },
    principalNow,
    forget(clientId) {
      access.forget(clientId);
    },
  };
}

/** The token of an Authorization header of the Bearer scheme, else undefined. */
function tokenOf(header: string): string | undefined {
  return BEARER.exec(header.trim())?.[1] || undefined;
}

function grantOf(verified: VerifiedToken): TokenGrant {
  return {
    clientId: verified.clientId,
    kid: verified.kid,
    expiresAt: verified.expiresAt,
    issuedAt: verified.issuedAt,
    scopes: verified.scopes,
  };
}

function principalOf(token: TokenGrant, state: { client: ClientState; scopes: string[] }): Principal {
  return { clientId: token.clientId, accountIds: [state.client.accountId], scopes: state.scopes, token };
}

/** The error a request refused by the access check gets, and the final event of a stream that ends (README "Live updates"). */
export function accessDenied(denial: AccessDenial) {
  return denial.code === 'UNAUTHENTICATED'
    ? unauthenticated(denial.message)
    : lookupError('FORBIDDEN', denial.message, [
        { ...DCSA.forbidden, errorCodeMessage: `${denial.message[0]!.toUpperCase()}${denial.message.slice(1)}.` },
      ]);
}
