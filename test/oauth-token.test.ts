import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe.each(dialects)('POST /oauth/token on $name', ({ name, enabled }) => {
  let f: TestApp;
  let clientId: string;
  let clientSecret: string;

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name, { rateLimit: { maxFailuresPerClientAddress: 3, maxFailuresPerAddress: 1000 } });
    ({ client_id: clientId, client_secret: clientSecret } = await f.app.clients.createClient({ name: 'erp', account: 'acct-a' }));
  });
  afterAll(async () => f?.destroy());

  const post = (body: Record<string, string> | string, headers: Record<string, string> = FORM) =>
    f.app.fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : new URLSearchParams(body).toString(),
    });

  async function expectOAuthError(response: Response, status: number, error: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe(error);
    expect(body.error_description.length).toBeGreaterThan(0);
    return body;
  }

  it.skipIf(!enabled)('issues an RFC 9068 access token for client credentials in the form body', async () => {
    const response = await post({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      scope: 'track-and-trace.read',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'track-and-trace.read' });
    const token = body.access_token as string;
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: BASE, sub: clientId, client_id: clientId, scope: 'track-and-trace.read' });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(typeof claims.jti).toBe('string');
  });

  it.skipIf(!enabled)('accepts HTTP Basic client authentication and defaults the scope', async () => {
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
    const response = await post({ grant_type: 'client_credentials' }, { ...FORM, Authorization: `Basic ${basic}` });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { scope: string }).scope).toBe('track-and-trace.read');
  });

  it.skipIf(!enabled)('publishes the verification key as a JWKS', async () => {
    const response = await f.app.fetch(`${BASE}/.well-known/jwks.json`);
    const jwks = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it.skipIf(!enabled)('400 invalid_request for a missing grant_type, a repeated parameter or two authentication methods', async () => {
    await expectOAuthError(await post({ client_id: clientId, client_secret: clientSecret }), 400, 'invalid_request');
    await expectOAuthError(
      await post(`grant_type=client_credentials&client_id=${clientId}&client_id=${clientId}&client_secret=${clientSecret}`),
      400,
      'invalid_request',
    );
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    await expectOAuthError(
      await post(
        { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
        { ...FORM, Authorization: `Basic ${basic}` },
      ),
      400,
      'invalid_request',
    );
  });

  it.skipIf(!enabled)('400 for the wrong content type and 405 for the wrong method', async () => {
    await expectOAuthError(
      await post(JSON.stringify({ grant_type: 'client_credentials' }), { 'Content-Type': 'application/json' }),
      400,
      'invalid_request',
    );
    const get = await f.app.fetch(`${BASE}/oauth/token`);
    await expectOAuthError(get, 405, 'invalid_request');
    expect(get.headers.get('allow')).toBe('POST');
  });

  it.skipIf(!enabled)('400 unsupported_grant_type and invalid_scope', async () => {
    await expectOAuthError(
      await post({ grant_type: 'password', client_id: clientId, client_secret: clientSecret }),
      400,
      'unsupported_grant_type',
    );
    await expectOAuthError(
      await post({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: 'admin' }),
      400,
      'invalid_scope',
    );
  });

  it.skipIf(!enabled)('401 invalid_client for a wrong secret, an unknown client and a disabled client', async () => {
    const other = await f.app.clients.createClient({ name: 'other', account: 'acct-a' });
    await expectOAuthError(
      await post({ grant_type: 'client_credentials', client_id: other.client_id, client_secret: 'wrong' }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await post({ grant_type: 'client_credentials', client_id: 'tt_unknown', client_secret: 'x' }),
      401,
      'invalid_client',
    );
    await f.app.clients.disableClient(other.client_id);
    await expectOAuthError(
      await post({ grant_type: 'client_credentials', client_id: other.client_id, client_secret: other.client_secret }),
      401,
      'invalid_client',
    );
    const basic = Buffer.from(`${other.client_id}:nope`).toString('base64');
    const response = await post({ grant_type: 'client_credentials' }, { ...FORM, Authorization: `Basic ${basic}` });
    await expectOAuthError(response, 401, 'invalid_client');
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it.skipIf(!enabled)('429 with Retry-After after repeated failed authentications of one client', async () => {
    const victim = await f.app.clients.createClient({ name: 'victim', account: 'acct-a' });
    for (let i = 0; i < 3; i++) {
      await expectOAuthError(
        await post({ grant_type: 'client_credentials', client_id: victim.client_id, client_secret: 'bad' }),
        401,
        'invalid_client',
      );
    }
    const limited = await post({ grant_type: 'client_credentials', client_id: victim.client_id, client_secret: victim.client_secret });
    await expectOAuthError(limited, 429, 'temporarily_unavailable');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it.skipIf(!enabled)('issues tokens through the GraphQL mutation too', async () => {
    const response = await f.graphql(
      'mutation($id: String!, $secret: String!) { issueToken(grant_type: "client_credentials", client_id: $id, client_secret: $secret) { token_type expires_in } }',
      { id: clientId, secret: clientSecret },
    );
    expect(((await response.json()) as { data: unknown }).data).toEqual({ issueToken: { token_type: 'Bearer', expires_in: 3600 } });
  });
});
