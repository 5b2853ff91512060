import type { GrantContext, OAuthErrorBody } from '../auth/token-grant.js';
import { tokenRefusals } from '../observability/metrics.js';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { readErrorCode } from '../errors/errors.js';
import { readBodyText } from '../http-messages/json-body.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { ISSUE_TOKEN } from '../executor/token-document.js';
import type { AppServices } from '../graphql/context.js';
import type { Executor } from '../executor/executor.js';
import { runDocument } from '../executor/run-document.js';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
/** Client credentials requests are tiny; anything larger is refused unread. */
const MAX_BODY_BYTES = 8 * 1024;

function oauthFailure(status: number, error: OAuthErrorBody['error'], description: string, headers: Record<string, string> = {}) {
  return jsonResponse({ error, error_description: description }, status, { ...NO_STORE, ...headers });
}

/** A request refused before it reaches the grant (which counts its own refusals). */
function refuse(status: number, error: OAuthErrorBody['error'], description: string, headers: Record<string, string> = {}) {
  tokenRefusals.inc({ error });
  return oauthFailure(status, error, description, headers);
}

/**
 * POST /oauth/token (RFC 6749 client credentials): HTTP parsing and client
 * authentication methods here; the grant itself is the issueToken mutation,
 * run through the executor's envelop.
 */
export async function handleTokenRequest(
  request: Request,
  executor: Executor,
  services: AppServices,
  correlationId: string,
  remoteAddress: string | undefined,
): Promise<Response> {
  if (request.method !== 'POST') {
    return refuse(405, 'invalid_request', 'use POST with an application/x-www-form-urlencoded body', { Allow: 'POST' });
  }
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    return refuse(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
  }
  // Counted while it is read: a chunked body has no Content-Length to check first.
  const text = await readBodyText(request, MAX_BODY_BYTES);
  if (text === null) return refuse(413, 'invalid_request', `request body is too large (at most ${MAX_BODY_BYTES} bytes)`);

  const form = new URLSearchParams(text);
  // RFC 6749 section 3.2: request parameters must not be included more than once.
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) return refuse(400, 'invalid_request', `parameter ${name} is repeated`);
  }
  const grantType = form.get('grant_type');
  if (!grantType) return refuse(400, 'invalid_request', 'grant_type is required (client_credentials)');

  const basic = parseBasic(request.headers.get('authorization'));
  if (basic === 'malformed') {
    return refuse(401, 'invalid_client', 'malformed HTTP Basic credentials', {
      'WWW-Authenticate': 'Basic realm="track-and-trace", charset="UTF-8"',
    });
  }
  const bodyHasCredentials = form.has('client_id') || form.has('client_secret');
  if (basic && bodyHasCredentials) {
    return refuse(400, 'invalid_request', 'use one client authentication method: HTTP Basic or the form body, not both');
  }
  const clientId = basic ? basic.clientId : form.get('client_id');
  const clientSecret = basic ? basic.clientSecret : form.get('client_secret');
  if (!clientId || !clientSecret) {
    return refuse(401, 'invalid_client', 'client authentication is required: client_id and client_secret, or HTTP Basic');
  }

  const grant: GrantContext = { remoteAddress, usedBasicAuth: basic !== null };
  const variables = { grant_type: grantType, client_id: clientId, client_secret: clientSecret, scope: form.get('scope') };
  const result = await runDocument<{ issueToken: unknown }>(executor, {
    request,
    query: ISSUE_TOKEN,
    operationName: 'RestIssueToken',
    variables,
    context: { correlationId, grant },
  });

  const error = result.errors?.[0];
  if (!error) return jsonResponse(result.data?.issueToken, 200, NO_STORE);
  const oauth = error.extensions?.oauth as OAuthErrorBody | undefined;
  const http = error.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
  if (!oauth) {
    if (readErrorCode(error) === 'SERVICE_UNAVAILABLE' || isDatabaseUnavailable(error)) {
      return jsonResponse(
        { error: 'temporarily_unavailable', error_description: 'the service is temporarily unavailable; retry later' },
        503,
        {
          ...NO_STORE,
          'Retry-After': String(RETRY_AFTER_SECONDS),
        },
      );
    }
    // A masked error was logged, with its cause, when it was masked.
    if (!error.extensions?.unexpected) {
      services.log('error', 'token request failed', { correlationId, error: error.originalError?.stack ?? error.message });
    }
    return jsonResponse({ error: 'server_error', error_description: 'unexpected error' }, 500, NO_STORE);
  }
  services.log('debug', 'token refused', { correlationId, error: oauth.error, clientId: clientId.slice(0, 64) });
  return oauthFailure(http?.status ?? 400, oauth.error, oauth.error_description, http?.headers ?? {});
}

/** RFC 6749 section 2.3.1: client_id and client_secret, form-urlencoded, then Basic. */
function parseBasic(header: string | null): { clientId: string; clientSecret: string } | 'malformed' | null {
  if (header === null) return null;
  const match = /^Basic +([A-Za-z0-9+/]+=*)$/i.exec(header.trim());
  if (!match?.[1]) return 'malformed';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return 'malformed';
  }
}
