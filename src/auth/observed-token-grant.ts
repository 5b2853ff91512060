import type { OAuthErrorBody } from './token-grant.js';
import { tokenGrants, tokenRefusals } from '../observability/metrics.js';
import { currentRequest } from '../observability/request-context.js';
import type { TokenRequest, TokenResponse } from './principal.js';
import type { GrantContext } from './token-grant.js';

/**
 * The client credentials grant as the app runs it (REST and the GraphQL
 * mutation alike): counts grants and refusals by RFC 6749 error code, and
 * names the authenticated client in the request's access-log line.
 */
type Grant = (request: TokenRequest, grant: GrantContext) => Promise<TokenResponse>;

export function observeTokenGrant(grant: Grant): Grant {
  return async (request, context) => {
    try {
      const token = await grant(request, context);
      tokenGrants.inc();
      const info = currentRequest();
      if (info) info.clientId = request.clientId;
      return token;
    } catch (err) {
      tokenRefusals.inc({ error: oauthErrorCode(err) });
      throw err;
    }
  };
}

function oauthErrorCode(err: unknown): string {
  const oauth = (err as { extensions?: { oauth?: OAuthErrorBody } } | null)?.extensions?.oauth;
  return oauth?.error ?? 'server_error';
}
