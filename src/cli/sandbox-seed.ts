import { buildSandboxBundle } from '../../db/sandbox-bundle.js';
import type { ClientStore } from '../auth/client-store.js';
import { readServiceSecret } from '../auth/service-secrets.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { ingestBundle, type IngestSummary } from '../ingest/ingest-bundle.js';
import { parseBundle } from '../ingest/parse-bundle.js';

/**
 * Sandbox conveniences: realistic demo data and a demo client whose
 * credentials serve prints at every start. Never used in production.
 */

const DEMO_CLIENT_SECRET_NAME = 'sandbox_demo_client';
export const SANDBOX_DEMO_ACCOUNT = 'demo-account';

/** Ingests the sandbox bundles when the database holds no shipment yet; returns what was loaded. `onIngested` hears each bundle (metrics). */
export async function seedSandboxIfEmpty(
  database: Database,
  config: Config,
  now: Date = new Date(),
  onIngested?: (summary: IngestSummary) => void,
): Promise<{ shipments: number; events: number } | null> {
  const existing = await database.db.selectFrom('shipment').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  let shipments = 0;
  let events = 0;
  for (const raw of buildSandboxBundle(now)) {
    const parsed = parseBundle(raw);
    if (!parsed.ok) {
      throw new Error(`sandbox bundle is invalid: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    }
    const summary = await ingestBundle(database, parsed.bundle, { now: () => now, thresholds: config.thresholds });
    onIngested?.(summary);
    shipments += parsed.bundle.shipments.length;
    events += summary.eventsStored;
  }
  return { shipments, events };
}

/** The sandbox demo client's id, or null when serve has not created one in this database. */
export async function readSandboxDemoClientId(database: Database): Promise<string | null> {
  const stored = await readServiceSecret(database.db, DEMO_CLIENT_SECRET_NAME);
  return stored ? (JSON.parse(stored) as { client_id: string }).client_id : null;
}

/**
 * The sandbox demo client. Its secret is kept in clear in service_secret so
 * that serve can print it at every start: acceptable for a sandbox demo
 * client of sandbox data, and the reason this exists only in sandbox.
 */
export async function ensureSandboxDemoClient(
  database: Database,
  clients: ClientStore,
): Promise<{ client_id: string; client_secret: string }> {
  const stored = await readServiceSecret(database.db, DEMO_CLIENT_SECRET_NAME);
  if (stored) {
    const credentials = JSON.parse(stored) as { client_id: string; client_secret: string };
    if (await clients.authenticateClient(credentials.client_id, credentials.client_secret)) return credentials;
  }
  const credentials = await clients.createClient({ name: 'Sandbox demo client', account: SANDBOX_DEMO_ACCOUNT });
  const value = JSON.stringify(credentials);
  const updated = await database.db
    .updateTable('service_secret')
    .set({ value })
    .where('name', '=', DEMO_CLIENT_SECRET_NAME)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await database.db
      .insertInto('service_secret')
      .values({ name: DEMO_CLIENT_SECRET_NAME, value, created_at: new Date().toISOString() })
      .execute();
  }
  return credentials;
}
