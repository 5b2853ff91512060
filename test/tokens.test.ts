import { base64url, decodeJwt, decodeProtectedHeader, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantedScope, READ_SCOPE } from '../src/auth/scopes.js';
import { generateSigningJwk, importSigningKey, SigningKeys } from '../src/auth/signing-keys.js';
import { TokenError, TokenService, type TokenErrorReason } from '../src/auth/tokens.js';
import { ConfigError } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

const SANDBOX_URL = 'https://sandbox.tracking.example';
const PRODUCTION_URL = 'https://api.tracking.example';
const T0 = Date.parse('2026-03-01T12:00:00Z');

async function expectRefused(promise: Promise<unknown>, reason: TokenErrorReason): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TokenError);
  expect((err as TokenError).error).toBe('invalid_token');
  expect((err as TokenError).reason).toBe(reason);
}

/** Signs arbitrary tokens with a given private JWK, for tokens our service would never issue. */
async function forge(jwk: JWK, header: Record<string, unknown>, claims: Record<string, unknown>): Promise<string> {
  const key = await importJWK(jwk, 'ES256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', ...header }).sign(key);
}

describe('TokenService with a configured key', () => {
  let jwk: JWK;
  let keys: SigningKeys;
  let now: number;
  let service: TokenService;
  const validClaims = (over: Record<string, unknown> = {}) => ({
    iss: PRODUCTION_URL,
    aud: 'track-and-trace',
    sub: 'tt_client',
    client_id: 'tt_client',
    scope: READ_SCOPE,
    iat: Math.floor(now / 1000),
    exp: Math.floor(now / 1000) + 3600,
    jti: 'j1',
    ...over,
  });

  beforeAll(async () => {
    jwk = await generateSigningJwk();
    keys = new SigningKeys(await importSigningKey(jwk, 'test key'));
  });
  beforeAll(() => {
    now = T0;
    service = new TokenService(keys, { issuer: PRODUCTION_URL, now: () => new Date(now) });
  });

  it('issues a token response and verifies its own token', async () => {
    now = T0;
    const response = await service.issueToken({ clientId: 'tt_abc', scope: READ_SCOPE });
    expect(response).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: READ_SCOPE });
    const verified = await service.verifyToken(response.access_token);
    expect(verified).toMatchObject({ clientId: 'tt_abc', scope: READ_SCOPE, scopes: [READ_SCOPE] });
    expect(verified.issuedAt.getTime()).toBe(T0);
    expect(verified.expiresAt.getTime()).toBe(T0 + 3600_000);
  });

  it('carries the RFC 9068 header and claims', async () => {
    now = T0;
    const { access_token: token } = await service.issueToken({ clientId: 'tt_abc', scope: READ_SCOPE });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid });
    const claims = decodeJwt(token);
    expect(claims).toEqual({
      iss: PRODUCTION_URL,
      aud: 'track-and-trace',
      sub: 'tt_abc',
      client_id: 'tt_abc',
      scope: READ_SCOPE,
      iat: T0 / 1000,
      exp: T0 / 1000 + 3600,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const second = decodeJwt((await service.issueToken({ clientId: 'tt_abc', scope: READ_SCOPE })).access_token);
    expect(second.jti).not.toBe(claims.jti);
  });

  it('refuses an expired token, allowing 30 s of clock skew', async () => {
    now = T0;
    const { access_token: token } = await service.issueToken({ clientId: 'tt_abc', scope: READ_SCOPE });
    now = T0 + 3600_000 + 29_000;
    await expect(service.verifyToken(token)).resolves.toMatchObject({ clientId: 'tt_abc' });
    now = T0 + 3600_000 + 31_000;
    await expectRefused(service.verifyToken(token), 'expired');
  });

  it('refuses a token issued for another environment (issuer)', async () => {
    now = T0;
    const sandbox = new TokenService(keys, { issuer: SANDBOX_URL, now: () => new Date(now) });
    const { access_token: token } = await sandbox.issueToken({ clientId: 'tt_abc', scope: READ_SCOPE });
    await expectRefused(service.verifyToken(token), 'wrong_issuer');
  });

  it('refuses alg none, and HS256 keyed with the public key', async () => {
    const payload = base64url.encode(JSON.stringify(validClaims()));
    const noneHeader = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: jwk.kid }));
    await expectRefused(service.verifyToken(`${noneHeader}.${payload}.`), 'algorithm_not_allowed');

    const publicKeyBytes = new TextEncoder().encode(JSON.stringify(keys.publicJwks().keys[0]));
    const hs = await new SignJWT(validClaims()).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: jwk.kid }).sign(publicKeyBytes);
    await expectRefused(service.verifyToken(hs), 'algorithm_not_allowed');
  });

  it('refuses a tampered signature or payload', async () => {
    now = T0;
    const { access_token: token } = await service.issueToken({ clientId: 'tt_abc', scope: READ_SCOPE });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
    await expectRefused(service.verifyToken(`${header}.${payload}.${flipped}`), 'bad_signature');
    const otherPayload = base64url.encode(JSON.stringify({ ...decodeJwt(token), client_id: 'tt_other', sub: 'tt_other' }));
    await expectRefused(service.verifyToken(`${header}.${otherPayload}.${signature}`), 'bad_signature');
  });

  it('refuses a JWT of another type, even signed with our key', async () => {
    now = T0;
    await expectRefused(service.verifyToken(await forge(jwk, { typ: 'JWT', kid: jwk.kid }, validClaims())), 'wrong_type');
    await expectRefused(service.verifyToken(await forge(jwk, { kid: jwk.kid }, validClaims())), 'wrong_type');
    await expect(service.verifyToken(await forge(jwk, { typ: 'at+jwt', kid: jwk.kid }, validClaims()))).resolves.toBeTruthy();
  });

  it('refuses a token signed by another key, whatever kid it claims', async () => {
    now = T0;
    const other = await generateSigningJwk();
    await expectRefused(service.verifyToken(await forge(other, { typ: 'at+jwt', kid: jwk.kid }, validClaims())), 'bad_signature');
    await expectRefused(service.verifyToken(await forge(other, { typ: 'at+jwt', kid: other.kid }, validClaims())), 'unknown_key');
    await expectRefused(service.verifyToken(await forge(other, { typ: 'at+jwt' }, validClaims())), 'unknown_key');
  });

  it('refuses a wrong audience and incomplete or inconsistent claims', async () => {
    now = T0;
    const sign = (claims: Record<string, unknown>) => forge(jwk, { typ: 'at+jwt', kid: jwk.kid }, claims);
    await expectRefused(service.verifyToken(await sign(validClaims({ aud: `${PRODUCTION_URL}/other` }))), 'wrong_audience');
    await expectRefused(service.verifyToken(await sign(validClaims({ client_id: undefined }))), 'invalid_claims');
    await expectRefused(service.verifyToken(await sign(validClaims({ jti: undefined }))), 'invalid_claims');
    await expectRefused(service.verifyToken(await sign(validClaims({ client_id: 'tt_someone_else' }))), 'invalid_claims');
    await expectRefused(service.verifyToken(await sign(validClaims({ scope: ['a'] }))), 'invalid_claims');
    await expectRefused(service.verifyToken(await sign(validClaims({ nbf: Math.floor(now / 1000) + 600 }))), 'not_yet_valid');
  });

  it('refuses garbage', async () => {
    for (const junk of ['', 'abc', 'a.b.c', 'x'.repeat(5000), `${'e30'}.${'e30'}.`]) {
      await expect(service.verifyToken(junk)).rejects.toBeInstanceOf(TokenError);
    }
  });

  it('publishes only public key parts in the JWKS', () => {
    const jwks = service.publicJwks();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toEqual({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid: jwk.kid, alg: 'ES256', use: 'sig' });
    expect(JSON.stringify(jwks)).not.toContain(String(jwk.d));
  });
});

describe('signing key configuration', () => {
  const production = { environment: 'production' as const, baseUrl: PRODUCTION_URL };
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
  });
  afterAll(async () => t?.destroy());

  it('production refuses to start without a signing key', async () => {
    await expect(TokenService.create(t.database.db, { ...production, signingKeyJwk: undefined })).rejects.toThrow(
      /TT_SIGNING_KEY is required/,
    );
    expect(await t.database.db.selectFrom('signing_key').selectAll().execute()).toEqual([]);
  });

  it('production uses the configured key and derives kid from the RFC 7638 thumbprint', async () => {
    const { kid, alg, use, ...bare } = await generateSigningJwk();
    const service = await TokenService.create(t.database.db, { ...production, signingKeyJwk: JSON.stringify(bare) });
    expect(service.publicJwks().keys[0]?.kid).toBe(kid);
    expect([alg, use]).toEqual(['ES256', 'sig']);
    const { access_token: token } = await service.issueToken({ clientId: 'tt_abc', scope: READ_SCOPE });
    expect(decodeProtectedHeader(token).kid).toBe(kid);
    await expect(service.verifyToken(token)).resolves.toMatchObject({ clientId: 'tt_abc' });
  });

  it('keeps a configured kid', async () => {
    const jwk = { ...(await generateSigningJwk()), kid: 'prod-2026-03' };
    const service = await TokenService.create(t.database.db, { ...production, signingKeyJwk: JSON.stringify(jwk) });
    expect(service.publicJwks().keys[0]?.kid).toBe('prod-2026-03');
  });

  it('rejects unusable keys with a message naming TT_SIGNING_KEY', async () => {
    const good = await generateSigningJwk();
    const other = await generateSigningJwk();
    const { d: _d, ...publicOnly } = good;
    const bad: [unknown, RegExp][] = [
      [publicOnly, /"d" is missing/],
      [{ ...good, crv: 'P-384' }, /crv/],
      [{ ...good, kty: 'RSA' }, /kty/],
      [{ ...good, alg: 'RS256' }, /alg/],
      [{ ...good, use: 'enc' }, /use/],
      [{ ...good, key_ops: ['verify'] }, /key_ops/],
      [{ ...good, d: other.d }, /does not match|import failed/],
      [[good], /JSON object/],
    ];
    for (const [jwk, message] of bad) {
      const attempt = TokenService.create(t.database.db, { ...production, signingKeyJwk: JSON.stringify(jwk) });
      await expect(attempt).rejects.toThrow(ConfigError);
      await expect(attempt).rejects.toThrow(/TT_SIGNING_KEY/);
      await expect(attempt).rejects.toThrow(message);
    }
    await expect(TokenService.create(t.database.db, { ...production, signingKeyJwk: '{not json' })).rejects.toThrow(
      /TT_SIGNING_KEY must be a private JWK in JSON/,
    );
  });
});

describe.each(dialects)('sandbox signing key on $name', ({ name, enabled }) => {
  const sandbox = { environment: 'sandbox' as const, baseUrl: SANDBOX_URL, signingKeyJwk: undefined };
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('two processes starting at once settle on one persisted key', async () => {
    const other = connectDatabase(t.url);
    try {
      const services = await Promise.all([
        TokenService.create(t.database.db, sandbox),
        TokenService.create(other.db, sandbox),
        TokenService.create(other.db, sandbox),
      ]);
      const kids = services.map((s) => s.publicJwks().keys[0]?.kid);
      expect(new Set(kids).size).toBe(1);
      const rows = await t.database.db.selectFrom('signing_key').select(['kid', 'alg']).execute();
      expect(rows).toEqual([{ kid: kids[0], alg: 'ES256' }]);
    } finally {
      await other.close();
    }
  });

  it.skipIf(!enabled)('tokens stay valid across a restart (a new TokenService over a new connection)', async () => {
    const first = await TokenService.create(t.database.db, sandbox);
    const { access_token: token } = await first.issueToken({ clientId: 'tt_abc', scope: READ_SCOPE });
    const reconnected = connectDatabase(t.url);
    try {
      const restarted = await TokenService.create(reconnected.db, sandbox);
      await expect(restarted.verifyToken(token)).resolves.toMatchObject({ clientId: 'tt_abc' });
      expect(restarted.publicJwks()).toEqual(first.publicJwks());
    } finally {
      await reconnected.close();
    }
  });

  it.skipIf(!enabled)('a sandbox token fails against a service with another base URL', async () => {
    const sandboxService = await TokenService.create(t.database.db, sandbox);
    const { access_token: token } = await sandboxService.issueToken({ clientId: 'tt_abc', scope: READ_SCOPE });
    const elsewhere = await TokenService.create(t.database.db, { ...sandbox, baseUrl: PRODUCTION_URL });
    await expectRefused(elsewhere.verifyToken(token), 'wrong_issuer');
  });
});

describe('grantedScope', () => {
  it('defaults to the read scope and refuses unknown scopes', () => {
    expect(grantedScope(undefined)).toBe(READ_SCOPE);
    expect(grantedScope('')).toBe(READ_SCOPE);
    expect(grantedScope(READ_SCOPE)).toBe(READ_SCOPE);
    expect(grantedScope(`${READ_SCOPE} ${READ_SCOPE}`)).toBe(READ_SCOPE);
    expect(grantedScope('track-and-trace.write')).toBeNull();
    expect(grantedScope(`${READ_SCOPE} admin`)).toBeNull();
  });
});
