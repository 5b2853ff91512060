import { importJWK, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { cacheVerifiedTokens } from '../src/auth/verified-token-cache.js';
import { READ_SCOPE } from '../src/auth/scopes.js';
import { generateSigningJwk, importSigningKey, SigningKeys } from '../src/auth/signing-keys.js';
import { TokenError, TokenService } from '../src/auth/tokens.js';

const ISSUER = 'https://api.tracking.example';
const T0 = Date.parse('2026-03-01T12:00:00Z');

describe('verified token cache', () => {
  let now = T0;
  let service: TokenService;
  let signWith: (claims: Record<string, unknown>) => Promise<string>;
  let verifications = 0;
  const counting = {
    verifyToken: (token: string) => {
      verifications++;
      return service.verifyToken(token);
    },
  };

  beforeAll(async () => {
    const jwk = await generateSigningJwk();
    const key = await importSigningKey(jwk, 'test key');
    service = new TokenService(new SigningKeys(key), { issuer: ISSUER, now: () => new Date(now) });
    const privateKey = await importJWK(jwk, 'ES256');
    signWith = (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid }).sign(privateKey);
  });

  async function refusal(promise: Promise<unknown>): Promise<string> {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TokenError);
    return (err as TokenError).reason;
  }

  it('verifies a token once, then answers from memory with the same claims', async () => {
    now = T0;
    const cached = cacheVerifiedTokens(counting, { now: () => new Date(now) });
    const { access_token } = await service.issueToken({ clientId: 'tt_a', scope: READ_SCOPE });
    verifications = 0;
    const first = await cached.verifyToken(access_token);
    const second = await cached.verifyToken(access_token);
    expect(second).toEqual(first);
    expect(second.clientId).toBe('tt_a');
    expect(verifications).toBe(1);
  });

  it('answers at once (verifiedNow) only a token it verified and that is still valid', async () => {
    now = T0;
    const cached = cacheVerifiedTokens(counting, { now: () => new Date(now) });
    const { access_token } = await service.issueToken({ clientId: 'tt_a', scope: READ_SCOPE });
    expect(cached.verifiedNow(access_token)).toBeUndefined();
    const verified = await cached.verifyToken(access_token);
    expect(cached.verifiedNow(access_token)).toBe(verified);
    // Past exp and the tolerance: not answered at once; verifyToken asks the verifier, which refuses it.
    now = T0 + (3600 + 30) * 1000;
    expect(cached.verifiedNow(access_token)).toBeUndefined();
    expect(await refusal(cached.verifyToken(access_token))).toBe('expired');
  });

  it('refuses a remembered token once it expires, exactly when the verifier would', async () => {
    now = T0;
    const cached = cacheVerifiedTokens(counting, { now: () => new Date(now) });
    const { access_token } = await service.issueToken({ clientId: 'tt_a', scope: READ_SCOPE });
    await cached.verifyToken(access_token);
    // exp = T0 + 3600 s, 30 s of tolerance: still good one second before, refused at the limit.
    now = T0 + (3600 + 29) * 1000;
    await expect(cached.verifyToken(access_token)).resolves.toMatchObject({ clientId: 'tt_a' });
    await expect(service.verifyToken(access_token)).resolves.toMatchObject({ clientId: 'tt_a' });
    now = T0 + (3600 + 30) * 1000;
    expect(await refusal(cached.verifyToken(access_token))).toBe('expired');
    expect(await refusal(service.verifyToken(access_token))).toBe('expired');
  });

  it('never remembers a refused token', async () => {
    now = T0;
    const cached = cacheVerifiedTokens(counting, { now: () => new Date(now) });
    const { access_token } = await service.issueToken({ clientId: 'tt_a', scope: READ_SCOPE });
    const tampered = `${access_token.slice(0, -4)}AAAA`;
    verifications = 0;
    expect(await refusal(cached.verifyToken(tampered))).toBe('bad_signature');
    expect(await refusal(cached.verifyToken(tampered))).toBe('bad_signature');
    expect(verifications).toBe(2);
  });

  it("does not remember tokens with nbf, so their time check is always the verifier's", async () => {
    now = T0;
    const cached = cacheVerifiedTokens(counting, { now: () => new Date(now) });
    const iat = Math.floor(T0 / 1000);
    const token = await signWith({
      iss: ISSUER,
      aud: 'track-and-trace',
      sub: 'tt_b',
      client_id: 'tt_b',
      scope: READ_SCOPE,
      iat,
      nbf: iat,
      exp: iat + 600,
      jti: 'j-nbf',
    });
    verifications = 0;
    await cached.verifyToken(token);
    await cached.verifyToken(token);
    expect(verifications).toBe(2);
  });

  it('keeps at most maxEntries tokens', async () => {
    now = T0;
    const cached = cacheVerifiedTokens(counting, { now: () => new Date(now), maxEntries: 1 });
    const a = (await service.issueToken({ clientId: 'tt_a', scope: READ_SCOPE })).access_token;
    const b = (await service.issueToken({ clientId: 'tt_b', scope: READ_SCOPE })).access_token;
    verifications = 0;
    await cached.verifyToken(a);
    await cached.verifyToken(b);
    await cached.verifyToken(a);
    expect(verifications).toBe(3);
  });
});
