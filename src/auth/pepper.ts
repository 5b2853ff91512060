import { createHmac, randomBytes } from 'node:crypto';
import { ConfigError, type Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import { readServiceSecret, storeServiceSecretOnce } from '../store/housekeeping/service-secrets.js';

/** service_secret.name of the generated sandbox pepper. */
export const PEPPER_SECRET_NAME = 'client_secret_pepper';

/**
 * The server-side pepper for client secret HMACs.
 *
 * Production: `TT_SECRET_PEPPER` (config refuses to start without it). It
 * lives outside the database on purpose: a leaked database dump alone does not
 * let anyone test guesses against the stored hashes.
 *
 * Sandbox without `TT_SECRET_PEPPER`: generated once and persisted in
 * service_secret, so restarts and the `tracking client` CLI (a separate
 * process) hash with the same pepper. This gives up the "outside the database"
 * property, which is acceptable for sandbox credentials only.
 *
 * @NOTE changing the pepper alone invalidates every stored client secret and
 * sealed secret: rotate it as the README says ("Rotating TT_SECRET_PEPPER"),
 * with the old one as TT_PREVIOUS_SECRET_PEPPER for a while (resolvePeppers).
 */
export async function resolvePepper(db: Db, config: Pick<Config, 'environment' | 'secretPepper'>): Promise<string> {
  if (config.secretPepper) return config.secretPepper;
  if (config.environment === 'production') {
    throw new ConfigError('TT_SECRET_PEPPER is required in production (at least 32 characters)');
  }
  const existing = await readServiceSecret(db, PEPPER_SECRET_NAME);
  if (existing !== undefined) return existing;
  return storeServiceSecretOnce(db, PEPPER_SECRET_NAME, randomBytes(32).toString('base64url'));
}

/** The pepper in use and, during a rotation, the one before it (docs/operating.md "Rotating TT_SECRET_PEPPER"). */
export interface Peppers {
  current: string;
  /** `TT_PREVIOUS_SECRET_PEPPER`: still accepted, never used for anything new. */
  previous?: string;
}

/** What the peppers are read from (the previous one optional: most callers never rotate). */
export type PepperConfig = Pick<Config, 'environment' | 'secretPepper'> & Partial<Pick<Config, 'previousSecretPepper'>>;

export async function resolvePeppers(db: Db, config: PepperConfig): Promise<Peppers> {
  const current = await resolvePepper(db, config);
  return config.previousSecretPepper ? { current, previous: config.previousSecretPepper } : { current };
}

/**
 * A short, stable name of a pepper, stored beside what was made with it
 * (api_client.secret_pepper_id) so that operators see what still depends on
 * an old one. A MAC of a constant: it reveals nothing usable about a pepper
 * of 256 random bits.
 */
export function pepperId(pepper: string): string {
  return createHmac('sha256', pepper).update('track-and-trace pepper id').digest('base64url').slice(0, 16);
}
