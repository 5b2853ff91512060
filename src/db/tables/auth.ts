import type { ColumnType } from 'kysely';

/** API credentials; the secret is stored only as an HMAC-SHA-256 under the server pepper. */
export interface ApiClientTable {
  client_id: string;
  name: string;
  account_id: string;
  secret_hash: string;
  created_at: string;
  secret_rotated_at: string;
  disabled_at: string | null;
  /** Space-separated scopes the client may request (default `track-and-trace.read`). */
  scopes: ColumnType<string, string | undefined, string>;
  /** Which pepper secret_hash is under (pepperId); null until known (rows before migration 009). */
  secret_pepper_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Token signing keys (sandbox keys are generated and persisted here). */
export interface SigningKeyTable {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  created_at: string;
}

/** Signing keys an operator retired (`tracking keys retire`): tokens they signed are refused everywhere. */
export interface RetiredSigningKeyTable {
  kid: string;
  reason: string;
  retired_at: string;
}

/** Generated service secrets (sandbox pepper), by name. */
export interface ServiceSecretTable {
  name: string;
  value: string;
  created_at: string;
}
