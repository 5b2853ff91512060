import { CarrierInputError, type EventsAuth } from '../carriers/carrier-config.js';

/** The credential options of `tracking carrier add|update`. */
export interface CredentialOptions {
  oauthTokenUrl?: string;
  oauthClientId?: string;
  oauthClientSecret?: string;
  oauthScope?: string;
  apiKeyHeader?: string;
  apiKey?: string;
}

/** The credential options, as one EventsAuth (`none` when none is given); their values are checked by the store. */
export function eventsAuth(options: CredentialOptions): EventsAuth {
  const oauth = options.oauthTokenUrl ?? options.oauthClientId ?? options.oauthClientSecret ?? options.oauthScope;
  const apiKey = options.apiKeyHeader ?? options.apiKey;
  if (oauth !== undefined && apiKey !== undefined)
    throw new CarrierInputError('give either the --oauth-* options or the --api-key* options, not both');
  if (oauth !== undefined) {
    return {
      kind: 'oauth2',
      tokenUrl: options.oauthTokenUrl ?? '',
      clientId: options.oauthClientId ?? '',
      clientSecret: options.oauthClientSecret ?? '',
      ...(options.oauthScope ? { scope: options.oauthScope } : {}),
    };
  }
  if (apiKey !== undefined) return { kind: 'api-key', header: options.apiKeyHeader ?? 'X-API-Key', value: options.apiKey ?? '' };
  return { kind: 'none' };
}

/** Whether any credential option was given. */
export function givesCredentials(options: CredentialOptions): boolean {
  return [
    options.oauthTokenUrl,
    options.oauthClientId,
    options.oauthClientSecret,
    options.oauthScope,
    options.apiKeyHeader,
    options.apiKey,
  ].some((v) => v !== undefined);
}
