import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import { parseScope } from './scopes.js';
import { loadSigningKeys, SIGNING_ALGORITHM, type JwkSet, type SigningKeys } from './signing-keys.js';

/** JWT header `typ` of access tokens (RFC 9068), so an ID token or other JWT cannot pass as one. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/** Access token lifetime (spec section 8). */
export const TOKEN_LIFETIME_SECONDS = 3600;

/**
 * The `aud` of every access token. A constant naming the API rather than a
 * URL: the same token is good for `GET /v2/shipments` and `/graphql`, so a
 * path-specific audience would be wrong, and environments are already told
 * apart by `iss` (the environment's base address), which verification pins.
 */
export const TOKEN_AUDIENCE = 'track-and-trace';

/** Default allowed clock skew between the issuing and the verifying process, in seconds. */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

/** Our tokens are ~600 characters; anything far longer is rejected before parsing. */
const MAX_TOKEN_LENGTH = 4096;

/** The token endpoint's success body (spec TokenResponse; RFC 6749 section 5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

export interface IssueTokenInput {
  /** The authenticated client; becomes `sub` and `client_id`. */
  clientId: string;
  /** The granted scope, already checked (see grantedScope in scopes.ts). */
  scope: string;
}

/** What a valid token says. Whether its scope suffices is the caller's decision (403 insufficient_scope). */
export interface VerifiedToken {
  clientId: string;
  /** The `scope` claim as issued (space-delimited). */
  scope: string;
  scopes: readonly string[];
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
  /** The `kid` of the key that signed it (a retired key's tokens are refused: src/auth/access-check.ts). */
  kid: string;
}

/** Why a token was refused; for logs and tests. Every reason maps to `invalid_token` (RFC 6750). */
export type TokenErrorReason =
  | 'malformed'
  | 'algorithm_not_allowed'
  | 'unknown_key'
  | 'bad_signature'
  | 'expired'
  | 'not_yet_valid'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'wrong_type'
  | 'invalid_claims';

/** A token that must not be accepted: answer 401 with `WWW-Authenticate: Bearer error="invalid_token"`. */
export class TokenError extends Error {
  override name = 'TokenError';
  /** The RFC 6750 error code for every TokenError. */
  readonly error = 'invalid_token';
  readonly reason: TokenErrorReason;

  constructor(reason: TokenErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

export interface TokenServiceOptions {
  /** `iss` of issued tokens and the only issuer accepted: the environment's base address (`TT_BASE_URL`). */
  issuer: string;
  /** `aud`; default {@link TOKEN_AUDIENCE}. */
  audience?: string;
  /** Default {@link TOKEN_LIFETIME_SECONDS} (3600). */
  lifetimeSeconds?: number;
  /** Skew tolerated on `exp`/`nbf`; default {@link DEFAULT_CLOCK_TOLERANCE_SECONDS} (30). */
  clockToleranceSeconds?: number;
  /** Clock for issuing and verifying (tests). Default `() => new Date()`. */
  now?: () => Date;
}

/** Issues and verifies access tokens. Create one per app: keys are imported once and reused. */
export class TokenService {
  readonly #keys: SigningKeys;
  readonly #issuer: string;
  readonly #audience: string;
  readonly #lifetimeSeconds: number;
  readonly #clockTolerance: number;
  readonly #now: () => Date;

  constructor(keys: SigningKeys, options: TokenServiceOptions) {
    this.#keys = keys;
    this.#issuer = options.issuer;
    this.#audience = options.audience ?? TOKEN_AUDIENCE;
    this.#lifetimeSeconds = options.lifetimeSeconds ?? TOKEN_LIFETIME_SECONDS;
    this.#clockTolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Loads the signing keys (see loadSigningKeys: production requires
   * TT_SIGNING_KEY; sandbox generates and persists one) and uses
   * config.baseUrl as issuer.
   */
  static async create(
    db: Db,
    config: Pick<Config, 'environment' | 'baseUrl' | 'signingKeyJwk'>,
    options: Omit<TokenServiceOptions, 'issuer'> = {},
  ): Promise<TokenService> {
    return new TokenService(await loadSigningKeys(db, config), { ...options, issuer: config.baseUrl });
  }

  async issueToken({ clientId, scope }: IssueTokenInput): Promise<TokenResponse> {
    if (clientId === '' || scope.trim() === '') throw new Error('issueToken needs a client id and a scope');
    const key = this.#keys.active;
    const iat = Math.floor(this.#now().getTime() / 1000);
    const accessToken = await new SignJWT({ client_id: clientId, scope })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: ACCESS_TOKEN_TYPE, kid: key.kid })
      .setIssuer(this.#issuer)
      .setAudience(this.#audience)
      .setSubject(clientId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.#lifetimeSeconds)
      .setJti(randomUUID())
      .sign(key.privateKey);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.#lifetimeSeconds, scope };
  }

  /** The token's content when it is ours, current and meant for this environment; otherwise throws TokenError. */
  async verifyToken(token: string): Promise<VerifiedToken> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw new TokenError('malformed', 'token is empty or too long');
    let payload: JWTPayload;
    let kid: string;
    try {
      let protectedHeader: JWTHeaderParameters;
      ({ payload, protectedHeader } = await jwtVerify(token, (header: JWTHeaderParameters) => this.#verificationKey(header), {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.#issuer,
        audience: this.#audience,
        typ: ACCESS_TOKEN_TYPE,
        clockTolerance: this.#clockTolerance,
        currentDate: this.#now(),
        requiredClaims: ['sub', 'client_id', 'scope', 'iat', 'exp', 'jti'],
      }));
      kid = protectedHeader.kid ?? '';
    } catch (err) {
      throw toTokenError(err);
    }
    return { ...readClaims(payload), kid };
  }

  /** Public keys for `/.well-known/jwks.json`. */
  publicJwks(): JwkSet {
    return this.#keys.publicJwks();
  }

  #verificationKey(header: JWTHeaderParameters) {
    const key = typeof header.kid === 'string' ? this.#keys.find(header.kid) : undefined;
    if (!key) throw new TokenError('unknown_key', 'token was not signed by a key of this service');
    return key.publicKey;
  }
}

function readClaims(payload: JWTPayload): Omit<VerifiedToken, 'kid'> {
  const { sub, client_id: clientId, scope, jti, iat, exp } = payload;
  if (
    typeof sub !== 'string' ||
    clientId !== sub ||
    typeof scope !== 'string' ||
    typeof jti !== 'string' ||
    typeof iat !== 'number' ||
    typeof exp !== 'number'
  ) {
    throw new TokenError('invalid_claims', 'token claims are incomplete or inconsistent');
  }
  return {
    clientId: sub,
    scope,
    scopes: parseScope(scope),
    jti,
    issuedAt: new Date(iat * 1000),
    expiresAt: new Date(exp * 1000),
  };
}

const CLAIM_REASONS: Record<string, TokenErrorReason> = {
  iss: 'wrong_issuer',
  aud: 'wrong_audience',
  typ: 'wrong_type',
  nbf: 'not_yet_valid',
};

function toTokenError(err: unknown): TokenError {
  if (err instanceof TokenError) return err;
  if (err instanceof errors.JWTExpired) return new TokenError('expired', 'token has expired', { cause: err });
  if (err instanceof errors.JWTClaimValidationFailed) {
    return new TokenError(CLAIM_REASONS[err.claim] ?? 'invalid_claims', `token ${err.claim}: ${err.message}`, { cause: err });
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return new TokenError('algorithm_not_allowed', err.message, { cause: err });
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return new TokenError('bad_signature', 'token signature is invalid', { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new TokenError('malformed', `token is malformed: ${message}`, { cause: err });
}
