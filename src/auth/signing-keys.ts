import { calculateJwkThumbprint, CompactSign, compactVerify, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { ConfigError, type Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import {
  deleteSigningKey,
  findSigningKey,
  insertSigningKey,
  readServiceSecret,
  storeServiceSecretOnce,
} from '../store/housekeeping/service-secrets.js';

/**
 * Token signing keys.
 *
 * The algorithm is pinned to ES256 (ECDSA P-256 with SHA-256). Ed25519 is the
 * more modern curve, but ES256 is the one every JWT/JOSE library, API gateway
 * and JWKS consumer our clients might use supports (RFC 7518 marks it
 * Recommended+; EdDSA support in JWS libraries and gateways is still patchy),
 * and its signatures stay small (64 bytes, unlike RS256's 256).
 */
export const SIGNING_ALGORITHM = 'ES256';

/** service_secret.name holding the kid of the sandbox's generated key (the race anchor, see below). */
export const SANDBOX_KEY_POINTER = 'sandbox_signing_key_kid';

/** A public key as served at /.well-known/jwks.json: public parameters only. */
export interface PublicSigningJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: typeof SIGNING_ALGORITHM;
  use: 'sig';
}

export interface JwkSet {
  keys: PublicSigningJwk[];
}

/** One key pair, imported once; CryptoKeys are reused for every sign and verify. */
export interface SigningKey {
  kid: string;
  /** Non-extractable: the private key cannot be read back out of the process through this object. */
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: PublicSigningJwk;
}

/** The key that signs new tokens, and every key (by kid) that tokens may be verified with. */
export class SigningKeys {
  readonly active: SigningKey;
  readonly #byKid: Map<string, SigningKey>;

  /** `previous`: keys that still verify but no longer sign (room for key rotation). */
  constructor(active: SigningKey, previous: readonly SigningKey[] = []) {
    this.active = active;
    this.#byKid = new Map([...previous, active].map((k) => [k.kid, k]));
  }

  /** Verification key for a token header's kid, or undefined for a kid we never issued. */
  find(kid: string): SigningKey | undefined {
    return this.#byKid.get(kid);
  }

  /** The body of `/.well-known/jwks.json`. */
  publicJwks(): JwkSet {
    return { keys: [...this.#byKid.values()].map((k) => ({ ...k.publicJwk })) };
  }
}

/**
 * Loads the signing keys once at start-up.
 *
 * Production: the private JWK in `TT_SIGNING_KEY`; missing or invalid stops
 * start-up with a ConfigError naming the variable.
 * Sandbox: `TT_SIGNING_KEY` when set; otherwise a key generated once and
 * persisted in signing_key, so restarts (and other processes on the same
 * database) keep accepting earlier tokens.
 */
export async function loadSigningKeys(db: Db, config: Pick<Config, 'environment' | 'signingKeyJwk'>): Promise<SigningKeys> {
  if (config.signingKeyJwk) {
    return new SigningKeys(await importSigningKey(parseJson(config.signingKeyJwk), 'TT_SIGNING_KEY'));
  }
  if (config.environment === 'production') {
    throw new ConfigError('TT_SIGNING_KEY is required in production (a private ES256 JWK: kty EC, crv P-256, with d)');
  }
  return new SigningKeys(await loadOrCreateSandboxKey(db));
}

/**
 * Validates a private JWK and imports it. It must be an ES256 key (kty EC,
 * crv P-256, alg absent or ES256, use absent or sig) with its private part
 * `d`. A missing kid is derived from the RFC 7638 thumbprint, so it is stable
 * for the same key. Errors are ConfigErrors naming `source`.
 */
export async function importSigningKey(jwk: unknown, source: string): Promise<SigningKey> {
  const bad = (why: string) => new ConfigError(`${source} is not a usable ${SIGNING_ALGORITHM} private JWK: ${why}`);
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw bad('not a JSON object');
  const k = jwk as Record<string, unknown>;
  if (k.kty !== 'EC') throw bad(`kty must be "EC", got ${JSON.stringify(k.kty)}`);
  if (k.crv !== 'P-256') throw bad(`crv must be "P-256", got ${JSON.stringify(k.crv)}`);
  if (k.alg !== undefined && k.alg !== SIGNING_ALGORITHM) throw bad(`alg must be "${SIGNING_ALGORITHM}", got ${JSON.stringify(k.alg)}`);
  if (k.use !== undefined && k.use !== 'sig') throw bad(`use must be "sig", got ${JSON.stringify(k.use)}`);
  if (k.key_ops !== undefined && !(Array.isArray(k.key_ops) && k.key_ops.includes('sign'))) {
    throw bad('key_ops must include "sign"');
  }
  if (typeof k.d !== 'string' || k.d === '') throw bad('the private part "d" is missing (this looks like a public key)');
  if (typeof k.x !== 'string' || typeof k.y !== 'string') throw bad('"x" and "y" are required');
  if (k.kid !== undefined && (typeof k.kid !== 'string' || k.kid === '')) throw bad('kid must be a non-empty string');

  // Import only the parameters that define the key: stray members (key_ops,
  // ext) would otherwise change how WebCrypto imports it.
  const publicParams = { kty: 'EC', crv: 'P-256', x: k.x, y: k.y } as const;
  const kid = typeof k.kid === 'string' ? k.kid : await calculateJwkThumbprint(publicParams);
  let privateKey: CryptoKey;
  let publicKey: CryptoKey;
  try {
    privateKey = await importJWK({ ...publicParams, d: k.d }, SIGNING_ALGORITHM, { extractable: false });
    publicKey = await importJWK(publicParams, SIGNING_ALGORITHM);
  } catch (err) {
    throw bad(`import failed (${(err as Error).message})`);
  }
  await assertPairMatches(privateKey, publicKey, bad);
  return {
    kid,
    privateKey,
    publicKey,
    publicJwk: { ...publicParams, kid, alg: SIGNING_ALGORITHM, use: 'sig' },
  };
}

/** A fresh ES256 private JWK with kid (thumbprint), alg and use; for the sandbox and for tests. */
export async function generateSigningJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y });
  return { ...jwk, kid, alg: SIGNING_ALGORITHM, use: 'sig' };
}

/**
 * Race-safe across processes starting at once on an empty database: each
 * generates a key and inserts it into signing_key (kids differ, so both
 * inserts succeed), then tries to claim the single pointer row in
 * service_secret. The primary key there lets exactly one claim win; the loser
 * deletes its own key and loads the winner's. A process that starts later
 * simply follows the pointer.
 *
 * @NOTE the sandbox private key is stored in the database in clear: fine for
 * sandbox tokens, never for production (which refuses to run without
 * TT_SIGNING_KEY).
 */
async function loadOrCreateSandboxKey(db: Db): Promise<SigningKey> {
  const pointed = await readServiceSecret(db, SANDBOX_KEY_POINTER);
  if (pointed !== undefined) return loadStoredKey(db, pointed);

  const jwk = await generateSigningJwk();
  const candidate = await importSigningKey(jwk, 'generated sandbox key');
  await insertSigningKey(db, {
    kid: candidate.kid,
    alg: SIGNING_ALGORITHM,
    private_jwk: JSON.stringify(jwk),
    public_jwk: JSON.stringify(candidate.publicJwk),
    created_at: new Date().toISOString(),
  });
  const winner = await storeServiceSecretOnce(db, SANDBOX_KEY_POINTER, candidate.kid);
  if (winner === candidate.kid) return candidate;
  await deleteSigningKey(db, candidate.kid);
  return loadStoredKey(db, winner);
}

async function loadStoredKey(db: Db, kid: string): Promise<SigningKey> {
  const row = await findSigningKey(db, kid);
  const source = `signing_key "${kid}"`;
  if (!row) {
    throw new ConfigError(
      `${source} is missing although service_secret "${SANDBOX_KEY_POINTER}" points to it; ` +
        `delete that service_secret row to generate a new sandbox key (earlier tokens then stop working)`,
    );
  }
  return importSigningKey(parseJson(row.private_jwk, source), source);
}

function parseJson(text: string, source = 'TT_SIGNING_KEY'): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError(`${source} must be a private JWK in JSON`);
  }
}

/** Sign-then-verify self-test, so a JWK whose d does not belong to x/y fails at start-up, not on every request. */
async function assertPairMatches(privateKey: CryptoKey, publicKey: CryptoKey, bad: (why: string) => Error): Promise<void> {
  const probe = new TextEncoder().encode('signing-key self-test');
  try {
    const jws = await new CompactSign(probe).setProtectedHeader({ alg: SIGNING_ALGORITHM }).sign(privateKey);
    await compactVerify(jws, publicKey, { algorithms: [SIGNING_ALGORITHM] });
  } catch {
    throw bad('the private part does not match the public key');
  }
}
