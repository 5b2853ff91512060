import type { OAuthErrorBody } from '../auth/token-grant.js';
import type { AppServices } from '../graphql/context.js';
import { tokenGrants, tokenRefusals } from './metrics.js';
import { currentRequest } from './request-context.js';

/**
 * The client credentials grant as the app runs it (REST and the GraphQL
 * mutation alike): counts grants and refusals by RFC 6749 error code, and
 * names the authenticated client in the request's access-log line.
 */
export function observeTokenGrant(grant: AppServices['issueToken']): AppServices['issueToken'] {
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
