import { buildSandboxBundle } from '../../db/sandbox-bundle.js';
import type { ClientStore } from '../auth/client-store.js';
import { generateClientId, generateClientSecret } from '../auth/client-secrets.js';
import { claimSandboxDemoClient, SANDBOX_DEMO_ACCOUNT } from '../store/housekeeping/sandbox-demo-client.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { ingestBundle, type IngestSummary } from '../ingest/ingest-bundle.js';
import { parseBundle } from '../ingest/parse-bundle.js';
import { hasAnyShipment } from '../store/shipments/shipment-lookup.js';

export { SANDBOX_DEMO_ACCOUNT } from '../store/housekeeping/sandbox-demo-client.js';

/**
 * Sandbox conveniences: realistic demo data and a demo client whose
 * credentials serve prints at every start. Never used in production.
 */

/** Ingests the sandbox bundles when the database holds no shipment yet; returns what was loaded. `onIngested` hears each bundle (metrics). */
export async function seedSandboxIfEmpty(
  database: Database,
  config: Config,
  now: Date = new Date(),
  onIngested?: (summary: IngestSummary) => void,
): Promise<{ shipments: number; events: number } | null> {
  if (await hasAnyShipment(database.db)) return null;
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

/**
 * The sandbox demo client. Its secret is kept in clear in service_secret so
 * that serve can print it at every start: acceptable for a sandbox demo
 * client of sandbox data, and the reason this exists only in sandbox.
 *
 * Created exactly once, whichever of several processes starting at once gets
 * there first, in two idempotent steps: the credentials are decided first
 * (the first stored wins; the others' candidates are never used), then the
 * client row is made to exist with them (an insert that keeps a row already
 * there). A process that dies between the two leaves the credentials, and the
 * next start creates the row.
 */
export async function ensureSandboxDemoClient(
  database: Database,
  clients: ClientStore,
): Promise<{ client_id: string; client_secret: string }> {
  const candidate = { client_id: generateClientId(), client_secret: generateClientSecret() };
  const credentials = await claimSandboxDemoClient(database.db, candidate);
  await clients.provisionClient(credentials, { name: 'Sandbox demo client', account: SANDBOX_DEMO_ACCOUNT });
  return credentials;
}
