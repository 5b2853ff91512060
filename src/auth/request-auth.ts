import { DCSA, lookupError } from '../service/errors.js';
import type { AccessCheck, AccessDenial } from './access-check.js';
import { TokenError, type TokenService } from './tokens.js';
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

/**
 * Authenticates requests. What may change after a token was issued (the client disabled, a scope taken
 * back, the signing key retired) is asked of `access` (src/auth/access-check.ts), which remembers each
 * answer for its TTL (default 5 s): the process that makes the change sees it at once (`forget`), every
 * other process within the TTL.
 */
export function createAuthenticator(
  tokens: Pick<TokenService, 'verifyToken'>,
  access: AccessCheck,
): { authenticate(request: Request): Promise<Principal>; forget(clientId: string): void } {
  // A request is asked about more than once (its route's quota, then the executor): one answer per request.
  const answers = new WeakMap<Request, Promise<Principal>>();
  const authenticate = async (request: Request): Promise<Principal> => {
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
    const token = {
      clientId: verified.clientId,
      kid: verified.kid,
      expiresAt: verified.expiresAt,
      issuedAt: verified.issuedAt,
      scopes: verified.scopes,
    };
    const state = await access.token(token);
    if ('denial' in state) throw unauthenticated(state.denial.message);
    return { clientId: verified.clientId, accountIds: [state.client.accountId], scopes: state.scopes, token };
  };
  return {
    authenticate(request) {
      let answer = answers.get(request);
      if (!answer) answers.set(request, (answer = authenticate(request)));
      return answer;
    },
    forget(clientId) {
      access.forget(clientId);
    },
  };
}

/** The error a request refused by the access check gets, and the final event of a stream that ends (README "Live updates"). */
export function accessDenied(denial: AccessDenial) {
  return denial.code === 'UNAUTHENTICATED'
    ? unauthenticated(denial.message)
    : lookupError('FORBIDDEN', denial.message, [
        { ...DCSA.forbidden, errorCodeMessage: `${denial.message[0]!.toUpperCase()}${denial.message.slice(1)}.` },
      ]);
}
