import type { TokenGrant } from './access-check.js';

/** Who calls, and what a token request asks and gets (RFC 6749 section 4.4 and 5.1). */

export interface TokenRequest {
  grantType: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
}

/** Who is calling: the API client of a verified access token. */
export interface Principal {
  clientId: string;
  accountIds: string[];
  scopes: string[];
  /** The token it came with: what a long-lived stream re-checks (src/auth/access-check.ts). */
  token?: TokenGrant;
}

/** The token grant's answer (RFC 6749 section 5.1), also the GraphQL type TokenResponse. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}
