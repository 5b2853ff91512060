import { isDeepStrictEqual } from 'node:util';
import { ClientStore } from '../src/auth/client-store.js';
import { loadConfig } from '../src/config/config.js';
import type { BenchDatabase } from './databases.js';
import { BENCH_ACCOUNT, bundleOf, shipmentKey } from './generate.js';
import { send } from './measure.js';
import type { BenchOptions } from './options.js';
import { startBaseline, startService, type ServerProcess } from './processes.js';
import { restPath, type Credentials } from './scenarios.js';
import { emptyTiming, ingestRaw } from './seed.js';

/** Seeding, servers and credentials of a bench run. */

/** Token issuer of the bench's service (TT_BASE_URL); the baseline pins it too. */
const ISSUER = 'http://bench.local';

/** Container counts of the cost-by-size shipments. */
export const SIZES = [1, 10, 100] as const;

export interface Seeded {
  /** Shipment indexes of each size's data set (tag `C<containers>`). */
  sizedIndexes: number[];
  sizedShipments: number;
}

/**
 * The cost-by-size shipments: 2 x sizedShipments shipments of each size (SIZES containers), through parseBundle +
 * ingestBundle, after the main data set (bench/staged-seed.ts).
 */
export async function seedSized(bench: BenchDatabase, options: BenchOptions): Promise<Seeded> {
  // Every third index, so that one bundle has one carrier.
  const sizedIndexes = Array.from({ length: 2 * options.sizedShipments }, (_, i) => i * 3);
  const sized = emptyTiming();
  for (const containers of SIZES) {
    const raw = bundleOf(sizedIndexes, { containers, tag: `C${containers}`, space: 100 + containers });
    await ingestRaw(bench.database, raw, sized);
  }
  return { sizedIndexes, sizedShipments: sized.shipments };
}

export interface Servers {
  service: ServerProcess;
  baseline: ServerProcess;
  credentials: Credentials;
}

/**
 * Creates the bench's API client (as `tracking client create` does), starts
 * the service, gets a token from it, and starts the baseline with the
 * service's public keys. `started` receives each server as soon as it runs,
 * so the caller can stop it whatever happens next.
 */
export async function startServers(
  bench: BenchDatabase,
  options: BenchOptions,
  started: (server: ServerProcess) => void,
): Promise<Servers> {
  const config = loadConfig({ TT_ENVIRONMENT: 'sandbox', DATABASE_URL: bench.url });
  const client = await (await ClientStore.open(bench.database.db, config)).createClient({ name: 'bench', account: BENCH_ACCOUNT });

  const profile = options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProf}`] : [];
  const service = await startService({
    databaseUrl: bench.url,
    baseUrl: ISSUER,
    poolSize: options.pool,
    nodeArgs: [...options.nodeArgs, ...profile],
    logFile: options.serverLog,
    // The fan-out's subscriptions all belong to one client.
    ...(options.fanout
      ? {
          env: {
            TT_MAX_SUBSCRIPTIONS_PER_CLIENT: String(options.fanout.subscriptions),
            ...(options.fanout.worker === 'dedicated' ? { TT_DELIVERY_WORKER: 'false' } : {}),
          },
        }
      : {}),
  });
  started(service);

  const token = await clientToken(service, client);

  const jwks = await (await fetch(`${service.url}/.well-known/jwks.json`)).json();
  const baseline = await startBaseline({ databaseUrl: bench.url, issuer: ISSUER, jwks, poolSize: options.pool });
  started(baseline);
  return { service, baseline, credentials: { token, clientId: client.client_id, clientSecret: client.client_secret } };
}

/** An access token of the client from the service's token endpoint (client credentials), with `scope` if given. */
export async function clientToken(
  service: ServerProcess,
  client: { client_id: string; client_secret: string },
  scope?: string,
): Promise<string> {
  const response = await send(service, {
    method: 'POST',
    path: '/oauth/token',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      ...(scope ? { scope } : {}),
    }).toString(),
  });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Throws unless the baseline answers exactly what the service answers (but the per-request header). */
export async function checkSameAnswers({ service, baseline, credentials }: Servers, indexes: number[]): Promise<void> {
  const headers = { Authorization: `Bearer ${credentials.token}` };
  for (const index of indexes) {
    const path = restPath(shipmentKey(index).billOfLadingNumber);
    const [a, b] = await Promise.all([send(service, { method: 'GET', path, headers }), send(baseline, { method: 'GET', path, headers })]);
    const [bodyA, bodyB] = (await Promise.all([a.json(), b.json()])) as { shipmentTracking: unknown }[];
    if (a.status !== 200 || b.status !== 200 || !isDeepStrictEqual(bodyA?.shipmentTracking, bodyB?.shipmentTracking)) {
      throw new Error(`baseline and service disagree on shipment ${index} (status ${a.status}/${b.status})`);
    }
  }
}
