import type { Db } from '../../db/connect.js';
import { readServiceSecret, storeServiceSecretOnce } from './service-secrets.js';

/**
 * The sandbox demo client's credentials, kept in clear in service_secret so
 * that serve can print them at every start: acceptable for a sandbox demo
 * client of sandbox data, and the reason this exists only in sandbox.
 */

const DEMO_CLIENT_SECRET_NAME = 'sandbox_demo_client';
export const SANDBOX_DEMO_ACCOUNT = 'demo-account';

export interface DemoClientCredentials {
  client_id: string;
  client_secret: string;
}

export async function readSandboxDemoClient(db: Db): Promise<DemoClientCredentials | null> {
  const stored = await readServiceSecret(db, DEMO_CLIENT_SECRET_NAME);
  return stored ? (JSON.parse(stored) as DemoClientCredentials) : null;
}

/** The sandbox demo client's id, or null when serve has not created one in this database. */
export async function readSandboxDemoClientId(db: Db): Promise<string | null> {
  return (await readSandboxDemoClient(db))?.client_id ?? null;
}

/**
 * Makes `candidate` the demo client's credentials unless some are stored already, and returns the stored
 * ones: of processes starting together, the first insert wins and every process gets the winner's
 * credentials (the primary key on service_secret.name decides). Nothing else is written here, so a loser
 * leaves nothing behind.
 */
export async function claimSandboxDemoClient(db: Db, candidate: DemoClientCredentials): Promise<DemoClientCredentials> {
  return JSON.parse(await storeServiceSecretOnce(db, DEMO_CLIENT_SECRET_NAME, JSON.stringify(candidate))) as DemoClientCredentials;
}
