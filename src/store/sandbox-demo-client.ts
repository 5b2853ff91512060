import type { Db } from '../db/connect.js';
import { readServiceSecret } from './service-secrets.js';

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

export async function storeSandboxDemoClient(db: Db, credentials: DemoClientCredentials): Promise<void> {
  const value = JSON.stringify(credentials);
  const updated = await db.updateTable('service_secret').set({ value }).where('name', '=', DEMO_CLIENT_SECRET_NAME).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await db.insertInto('service_secret').values({ name: DEMO_CLIENT_SECRET_NAME, value, created_at: new Date().toISOString() }).execute();
  }
}
