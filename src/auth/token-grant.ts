import { GraphQLError } from 'graphql';
import type { AuthRateLimiter } from './auth-rate-limiter.js';
import type { ClientStore } from './client-store.js';
import { quotaMessage, rateLimitHeaders, type QuotaDecision } from '../quotas/quotas.js';
import { grantedScope } from './scopes.js';
import type { TokenService } from './tokens.js';
import type { TokenRequest } from './principal.js';
import type { TokenResponse } from './principal.js';

/**
 * The OAuth 2.0 client credentials grant (RFC 6749 section 4.4), behind the
 * `issueToken` mutation. Errors are GraphQL errors whose extensions carry the
 * RFC 6749 section 5.2 body and the HTTP status, which POST /oauth/token
 * returns as they are.
 */

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope' | 'temporarily_unavailable';

export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
}

export function oauthError(
  status: number,
  error: OAuthErrorCode,
  description: string,
  headers?: Record<string, string>,
  /** extensions.code; RATE_LIMITED for every 429, as on the other GraphQL fields. */
  code: 'OAUTH_ERROR' | 'RATE_LIMITED' = 'OAUTH_ERROR',
): GraphQLError {
  return new GraphQLError(description, {
    extensions: {
      code,
      oauth: { error, error_description: description } satisfies OAuthErrorBody,
      http: { status, ...(headers ? { headers } : {}) },
    },
  });
}

export interface GrantContext {
  /** The caller's address, for the per-address limit of failed authentications. */
  remoteAddress?: string;
  /** True when the credentials came in HTTP Basic: a 401 then carries WWW-Authenticate: Basic. */
  usedBasicAuth?: boolean;
}

/** Counts issued tokens per client (src/quotas/client-quotas.ts); absent: no token quota. */
export interface TokenQuota {
  consume(quota: 'tokens', clientId: string): QuotaDecision | Promise<QuotaDecision>;
}

export function createTokenGrant(tokens: TokenService, clients: ClientStore, limiter: AuthRateLimiter, quota?: TokenQuota) {
  return async function issueToken(request: TokenRequest, context: GrantContext = {}): Promise<TokenResponse> {
    if (request.grantType !== 'client_credentials') {
      throw oauthError(400, 'unsupported_grant_type', 'grant_type must be client_credentials');
    }
    const attempt = { clientId: request.clientId, address: context.remoteAddress };
    const limit = await limiter.check(attempt);
    if (limit.limited) {
      // RFC 6749 defines no rate-limit error; temporarily_unavailable is the registered code closest in meaning.
      throw oauthError(
        429,
        'temporarily_unavailable',
        'too many failed client authentications from this address; retry later',
        { 'Retry-After': String(limit.retryAfterSeconds) },
        'RATE_LIMITED',
      );
    }
    const client = await clients.authenticateClient(request.clientId, request.clientSecret);
    if (!client) {
      await limiter.recordFailure(attempt);
      throw oauthError(
        401,
        'invalid_client',
        'client authentication failed (unknown client, wrong secret or disabled client)',
        context.usedBasicAuth ? { 'WWW-Authenticate': 'Basic realm="track-and-trace", charset="UTF-8"' } : undefined,
      );
    }
    const scope = grantedScope(request.scope, client.scopes);
    if (scope === null) {
      throw oauthError(400, 'invalid_scope', `scope must be one or more of the client's scopes: ${client.scopes.join(' ')}`);
    }
    await limiter.recordSuccess(attempt);
    // Counted per token issued, after authentication: only the client itself can spend its quota,
    // and a GraphQL request of many issueToken aliases spends one token's worth each.
    const decision = await quota?.consume('tokens', client.clientId);
    if (decision && !decision.allowed) {
      throw oauthError(429, 'temporarily_unavailable', quotaMessage(decision), rateLimitHeaders(decision), 'RATE_LIMITED');
    }
    return tokens.issueToken({ clientId: client.clientId, scope });
  };
}
