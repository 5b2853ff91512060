import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/connect.js';
import { createEmptyDatabase, dialects } from './support/databases.js';

/**
 * Replicas that start together (issue 26): three `tracking serve` processes, on free ports, started at the same
 * moment on an empty database. Every one comes up; the sandbox is seeded once and exactly one demo client
 * exists, the one every instance prints; with TT_SEED_SANDBOX=false nothing is seeded and no client exists.
 *
 * Each start is repeated TT_TEST_REPLICA_STARTS times (default 3, to keep the suite's time sane; the issue's
 * check is 20: `TT_TEST_REPLICA_STARTS=20 npx vitest run test/replicas-start.test.ts`).
 */

const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;
const INSTANCES = 3;
const STARTS = Number(process.env.TT_TEST_REPLICA_STARTS ?? 3);
/** The sandbox bundle's shipments (db/sandbox-bundle.ts), as `GET /v2/shipments` finds them. */
const SANDBOX_SHIPMENTS = 7;

interface Banner {
  message: string;
  urls: { rest: string };
  sandboxDemoClient?: { account: string; client_id: string; client_secret: string };
}

const running = new Set<ChildProcess>();

function startServe(databaseUrl: string, env: Record<string, string>): Promise<{ child: ChildProcess; banner: Banner }> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TT_LOG_LEVEL: 'warn',
      TT_EVALUATE_INTERVAL_SECONDS: '0',
      TT_DELIVERY_WORKER: 'false',
      TT_CARRIER_POLLER: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('listening on'));
      if (line) resolve({ child, banner: JSON.parse(line) as Banner });
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}${err}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function token(base: string, clientId: string, clientSecret: string): Promise<number> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return response.status;
}

describe.each(dialects)('replicas starting together on $name', ({ name, enabled }) => {
  afterEach(async () => {
    await Promise.all([...running].map(stop));
  });

  it.skipIf(!enabled)(
    `${INSTANCES} sandbox instances started at once on an empty database all come up, with one demo client (${STARTS} times)`,
    async () => {
      for (let start = 0; start < STARTS; start++) {
        const empty = await createEmptyDatabase(name);
        try {
          const started = await Promise.all(Array.from({ length: INSTANCES }, () => startServe(empty.url, {})));
          const demos = started.map((s) => s.banner.sandboxDemoClient);
          expect(new Set(demos.map((d) => JSON.stringify(d))).size, `start ${start + 1}: one demo client printed`).toBe(1);
          const demo = demos[0]!;
          for (const { banner } of started) {
            const base = banner.urls.rest.replace('/v2/shipments', '').replace('localhost', '127.0.0.1');
            expect(await token(base, demo.client_id, demo.client_secret)).toBe(200);
          }
          await Promise.all(started.map((s) => stop(s.child)));
          const database = connectDatabase(empty.url);
          try {
            const clients = await database.db.selectFrom('api_client').select(['client_id', 'account_id']).execute();
            expect(clients, `start ${start + 1}: exactly one client`).toEqual([{ client_id: demo.client_id, account_id: 'demo-account' }]);
            const shipments = await database.db.selectFrom('shipment').select('id').execute();
            expect(shipments).toHaveLength(SANDBOX_SHIPMENTS);
          } finally {
            await database.close();
          }
        } finally {
          await empty.destroy();
        }
      }
    },
    STARTS * 60_000,
  );

  it.skipIf(!enabled)(
    `${INSTANCES} instances with TT_SEED_SANDBOX=false create no data and no client`,
    async () => {
      const empty = await createEmptyDatabase(name);
      try {
        const started = await Promise.all(Array.from({ length: INSTANCES }, () => startServe(empty.url, { TT_SEED_SANDBOX: 'false' })));
        for (const { banner } of started) expect(banner.sandboxDemoClient).toBeUndefined();
        await Promise.all(started.map((s) => stop(s.child)));
        const database = connectDatabase(empty.url);
        try {
          expect(await database.db.selectFrom('api_client').select('client_id').execute()).toEqual([]);
          expect(await database.db.selectFrom('shipment').select('id').execute()).toEqual([]);
          expect(await database.db.selectFrom('service_secret').select('name').where('name', '=', 'sandbox_demo_client').execute()).toEqual(
            [],
          );
        } finally {
          await database.close();
        }
      } finally {
        await empty.destroy();
      }
    },
    60_000,
  );
});
