import type { Db } from '../db/connect.js';
import { isUniqueViolation } from '../db/dialect.js';
import {
  findApiClient,
  findClientStatus,
  insertApiClient,
  listApiClients,
  updateApiClient,
  type ApiClientRow,
} from '../store/housekeeping/api-clients.js';
import { ClientSecretHasher, generateClientId, generateClientSecret } from './client-secrets.js';
import { resolvePeppers, type PepperConfig } from './pepper.js';
import { parseScope, READ_SCOPE, SUPPORTED_SCOPES } from './scopes.js';

/** An API client as operators and the auth layer see it; never carries the secret or its hash. */
export interface ApiClient {
  clientId: string;
  name: string;
  /** The account whose shipments this client may see (shipment_account.account_id). */
  accountId: string;
  createdAt: string;
  secretRotatedAt: string;
  /** Set once the client is disabled; a disabled client can neither get nor use tokens. */
  disabledAt: string | null;
  /** The scopes its tokens may carry (src/auth/scopes.ts). */
  scopes: string[];
  /**
   * Which pepper its secret's hash is under: `current`, `other` (the previous
   * one during a rotation: it moves at the client's next token request), or
   * `unknown` (stored before this was recorded; known at its next token request).
   */
  secretPepper: 'current' | 'other' | 'unknown';
}

/** Credentials as handed to the client, named as in RFC 6749. The secret is shown once and never stored. */
export interface ClientCredentials {
  client_id: string;
  client_secret: string;
}

export interface NewClient {
  name: string;
  account: string;
}

export interface ClientStoreOptions {
  /**
   * How long `isClientActive` may answer from memory, in milliseconds.
   * Default 0 (off): every call is one primary-key lookup, so disabling a
   * client stops its live tokens on the very next request, in every process.
   * A value above 0 saves that query at the price of a disabled client's tokens
   * working up to this long in processes other than the one that disabled it.
   */
  activeCacheTtlMs?: number;
  /** Clock for stored timestamps and the cache TTL (tests). Default `() => new Date()`. */
  now?: () => Date;
}

/** A bad name or account given to createClient; the CLI reports it as a usage error. */
export class ClientInputError extends Error {
  override name = 'ClientInputError';
}

const MAX_CLIENT_ID_LENGTH = 64; // api_client.client_id is varchar(64)
const MAX_NAME_LENGTH = 200;
const MAX_ACCOUNT_LENGTH = 100;
const MAX_CACHE_ENTRIES = 10_000;

/** API clients (rows in src/store/housekeeping/api-clients.ts): credentials, scopes, the active check. Create one per process (it holds the pepper and the active-client cache). */
export class ClientStore {
  readonly #db: Db;
  readonly #hasher: ClientSecretHasher;
  readonly #now: () => Date;
  readonly #cacheTtlMs: number;
  readonly #activeCache = new Map<string, { active: boolean; expiresAt: number }>();
  /** Hash of a random secret nobody knows: unknown client_ids are compared against it. */
  readonly #dummyHash: string;

  constructor(db: Db, hasher: ClientSecretHasher, options: ClientStoreOptions = {}) {
    this.#db = db;
    this.#hasher = hasher;
    this.#now = options.now ?? (() => new Date());
    this.#cacheTtlMs = options.activeCacheTtlMs ?? 0;
    this.#dummyHash = hasher.hash(generateClientSecret());
  }

  /** Resolves the pepper (config, or the persisted sandbox one) and builds the store. */
  static async open(db: Db, config: PepperConfig, options: ClientStoreOptions = {}): Promise<ClientStore> {
    const peppers = await resolvePeppers(db, config);
    return new ClientStore(db, new ClientSecretHasher(peppers.current, peppers.previous), options);
  }

  async createClient(input: NewClient): Promise<ClientCredentials> {
    const name = requireText('name', input.name, MAX_NAME_LENGTH);
    // The account is an identifier compared exactly with the shipments' accounts (docs/architecture.md,
    // Identity): refused, not trimmed, when it carries surrounding whitespace.
    if (input.account.trim() !== input.account) throw new ClientInputError('account must not start or end with whitespace');
    const accountId = requireText('account', input.account, MAX_ACCOUNT_LENGTH);
    const credentials = { client_id: generateClientId(), client_secret: generateClientSecret() };
    const now = this.#now().toISOString();
    await insertApiClient(this.#db, {
      client_id: credentials.client_id,
      name,
      account_id: accountId,
      secret_hash: this.#hasher.hash(credentials.client_secret),
      secret_pepper_id: this.#hasher.pepperId,
      created_at: now,
      secret_rotated_at: now,
      disabled_at: null,
    });
    return credentials;
  }

  /**
   * Makes the client with these credentials exist: inserted when absent, else its secret set to this one when
   * it no longer matches (a rotation, a new pepper). Idempotent, and safe when processes run it at once with
   * the same credentials (the sandbox demo client). A disabled client stays disabled.
   */
  async provisionClient(credentials: ClientCredentials, input: NewClient): Promise<void> {
    const now = this.#now().toISOString();
    const secretHash = this.#hasher.hash(credentials.client_secret);
    try {
      await insertApiClient(this.#db, {
        client_id: credentials.client_id,
        name: requireText('name', input.name, MAX_NAME_LENGTH),
        account_id: requireText('account', input.account, MAX_ACCOUNT_LENGTH),
        secret_hash: secretHash,
        created_at: now,
        secret_rotated_at: now,
        disabled_at: null,
      });
      return;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const row = await this.#findRow(credentials.client_id);
    if (row && !this.#hasher.verify(credentials.client_secret, row.secret_hash)) {
      await updateApiClient(this.#db, credentials.client_id, { secret_hash: secretHash, secret_rotated_at: now });
    }
  }

  /** Every client, oldest first; no secrets or hashes. */
  async listClients(): Promise<ApiClient[]> {
    const rows = await listApiClients(this.#db);
    return rows.map((row) => this.#toApiClient(row));
  }

  async getClient(clientId: string): Promise<ApiClient | null> {
    const row = await this.#findRow(clientId);
    return row ? this.#toApiClient(row) : null;
  }

  /**
   * Enables a disabled client again: it may get tokens from now on. Its
   * webhook subscriptions disabled meanwhile stay disabled (create them
   * again). Returns false when no such client exists.
   */
  async enableClient(clientId: string): Promise<boolean> {
    this.#activeCache.delete(clientId);
    await updateApiClient(this.#db, clientId, { disabled_at: null });
    return (await this.#findRow(clientId)) !== undefined;
  }

  /**
   * Disables a client: it can no longer get tokens, and `isClientActive` turns
   * false so its live tokens stop working. Returns false when no such client
   * exists; disabling twice keeps the first disabled_at.
   */
  async disableClient(clientId: string): Promise<boolean> {
    this.#activeCache.delete(clientId);
    if (await updateApiClient(this.#db, clientId, { disabled_at: this.#now().toISOString() }, { onlyEnabled: true })) return true;
    return (await this.#findRow(clientId)) !== undefined;
  }

  /**
   * Grants (or, with `grant` false, revokes) a scope. Tokens already issued
   * lose a revoked scope within the access check's 5 s (src/auth/access-check.ts). Returns the
   * client's scopes, or null when no such client exists.
   */
  async setScope(clientId: string, scope: string, grant: boolean): Promise<string[] | null> {
    if (!SUPPORTED_SCOPES.includes(scope)) throw new ClientInputError(`unknown scope ${scope}; known: ${SUPPORTED_SCOPES.join(', ')}`);
    if (!grant && scope === READ_SCOPE) throw new ClientInputError(`every client has ${READ_SCOPE}; disable the client instead`);
    const row = await this.#findRow(clientId);
    if (!row) return null;
    const scopes = new Set(parseScope(row.scopes));
    if (grant) scopes.add(scope);
    else scopes.delete(scope);
    const ordered = SUPPORTED_SCOPES.filter((s) => scopes.has(s));
    await updateApiClient(this.#db, clientId, { scopes: ordered.join(' ') });
    return ordered;
  }

  /**
   * Issues a new secret; the old one stops working at once. Tokens already
   * issued stay valid until they expire (at most an hour): rotation is routine
   * and must not cut off a client mid-flight; to cut off a leaked client now,
   * disable it. A disabled client stays disabled. Returns null when no such client exists.
   */
  async rotateSecret(clientId: string): Promise<ClientCredentials | null> {
    const secret = generateClientSecret();
    const updated = await updateApiClient(this.#db, clientId, {
      secret_hash: this.#hasher.hash(secret),
      secret_pepper_id: this.#hasher.pepperId,
      secret_rotated_at: this.#now().toISOString(),
    });
    return updated ? { client_id: clientId, client_secret: secret } : null;
  }

  /**
   * The client when the id and secret match and the client is enabled, else
   * null. Unknown ids cost the same as a wrong secret (one HMAC against a
   * dummy hash plus one constant-time comparison), so response times do not
   * reveal which client_ids exist.
   */
  async authenticateClient(clientId: string, secret: string): Promise<ApiClient | null> {
    const row = clientId.length > 0 && clientId.length <= MAX_CLIENT_ID_LENGTH ? await this.#findRow(clientId) : undefined;
    // Exact match: MySQL's default collations compare case-insensitively.
    if (!row || row.client_id !== clientId) {
      this.#hasher.check(secret, this.#dummyHash);
      return null;
    }
    const match = this.#hasher.check(secret, row.secret_hash);
    if (match === false || row.disabled_at !== null) return null;
    if (match === 'previous' || row.secret_pepper_id !== this.#hasher.pepperId) {
      // The same secret, now hashed under the current pepper (docs/operating.md "Rotating TT_SECRET_PEPPER"); once per client.
      const moved = { secret_hash: this.#hasher.hash(secret), secret_pepper_id: this.#hasher.pepperId };
      await updateApiClient(this.#db, clientId, match === 'previous' ? moved : { secret_pepper_id: moved.secret_pepper_id });
      return this.#toApiClient({ ...row, ...moved });
    }
    return this.#toApiClient(row);
  }

  /**
   * Whether tokens of this client may still be used: it exists and is not
   * disabled. One primary-key lookup; answered from memory only when
   * `activeCacheTtlMs` is set.
   */
  async isClientActive(clientId: string): Promise<boolean> {
    if (clientId.length === 0 || clientId.length > MAX_CLIENT_ID_LENGTH) return false;
    const cached = this.#cacheTtlMs > 0 ? this.#activeCache.get(clientId) : undefined;
    const nowMs = this.#now().getTime();
    if (cached && cached.expiresAt > nowMs) return cached.active;
    const row = await findClientStatus(this.#db, clientId);
    const active = row !== undefined && row.client_id === clientId && row.disabled_at === null;
    if (this.#cacheTtlMs > 0) this.#remember(clientId, active, nowMs + this.#cacheTtlMs);
    return active;
  }

  #remember(clientId: string, active: boolean, expiresAt: number): void {
    this.#activeCache.delete(clientId);
    if (this.#activeCache.size >= MAX_CACHE_ENTRIES) {
      // Map iterates in insertion order: drop the oldest entry to bound memory.
      const oldest = this.#activeCache.keys().next();
      if (!oldest.done) this.#activeCache.delete(oldest.value);
    }
    this.#activeCache.set(clientId, { active, expiresAt });
  }

  async #findRow(clientId: string): Promise<ApiClientRow | undefined> {
    return findApiClient(this.#db, clientId);
  }

  #toApiClient(row: ApiClientRow): ApiClient {
    return toApiClient(row, this.#hasher.pepperId);
  }
}

function requireText(field: string, value: string, maxLength: number): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw new ClientInputError(`${field} must not be empty`);
  if (trimmed.length > maxLength) throw new ClientInputError(`${field} must be at most ${maxLength} characters`);
  return trimmed;
}

function toApiClient(row: ApiClientRow, currentPepperId: string): ApiClient {
  return {
    clientId: row.client_id,
    name: row.name,
    accountId: row.account_id,
    createdAt: row.created_at,
    secretRotatedAt: row.secret_rotated_at,
    disabledAt: row.disabled_at,
    scopes: parseScope(row.scopes),
    secretPepper: row.secret_pepper_id === null ? 'unknown' : row.secret_pepper_id === currentPepperId ? 'current' : 'other',
  };
}
