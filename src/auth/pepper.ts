import { randomBytes } from 'node:crypto';
import { ConfigError, type Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import { readServiceSecret, storeServiceSecretOnce } from '../store/service-secrets.js';

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
 * @NOTE changing the pepper invalidates every stored client secret; rotate all
 * clients' secrets when you change it.
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
