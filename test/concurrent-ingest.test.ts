import { afterAll, describe, expect, it } from 'vitest';
import { buildSandboxBundle } from '../db/sandbox-bundle.js';
import { createApp } from '../src/app/create-app.js';
import { createLogger } from '../src/observability/logger.js';
import { READ_SCOPE } from '../src/auth/scopes.js';
import { connectDatabase, type Database } from '../src/db/connect.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { BASE, testConfig } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * Two overlapping bundles ingested at the same time, from two connections
 * (two processes' worth: a pool each on MariaDB, a handle each on one
 * SQLite file), collide: deadlocks on MariaDB, SQLITE_BUSY on SQLite, unique
 * keys. Each ingest retries its whole transaction (src/db/retry-transaction.ts),
 * so both succeed and the store ends as after one sequential order:
 * lookups and exceptions equal those of A then B, or of B then A.
 */
const NOW = new Date('2026-11-20T12:00:00.000Z');
const TRIALS = 4;

type Raw = { carrierCode: string; shipments: unknown[]; events: unknown[] };

/** Two bundles over the same shipments whose events overlap by a fifth. */
function overlappingBundles(): [Raw, Raw] {
  const [maersk] = buildSandboxBundle(NOW) as Raw[];
  const events = maersk!.events;
  const a = { ...maersk!, events: events.slice(0, Math.ceil(events.length * 0.6)) };
  const b = { ...maersk!, events: events.slice(Math.floor(events.length * 0.4)) };
  return [a, b];
}

async function ingest(database: Database, raw: Raw): Promise<void> {
  const parsed = parseBundle(raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  await ingestBundle(database, parsed.bundle, { now: () => NOW });
}

/** What clients can see: every shipment's lookup (per-request fields dropped), per account. */
async function visibleState(database: Database): Promise<unknown> {
  const config = testConfig();
  const app = await createApp({ config, database, logger: createLogger('silent'), now: () => NOW, clientCacheTtlMs: 0 });
  try {
    const rows = await database.db
      .selectFrom('shipment')
      .innerJoin('shipment_account', 'shipment_account.shipment_id', 'shipment.id')
      .select(['carrier_code', 'carrier_booking_reference', 'account_id'])
      .orderBy('carrier_booking_reference')
      .execute();
    const tokens = new Map<string, string>();
    const state: Record<string, unknown> = {};
    for (const row of rows) {
      if (!tokens.has(row.account_id)) {
        const client = await app.clients.createClient({ name: row.account_id, account: row.account_id });
        tokens.set(row.account_id, (await app.tokens.issueToken({ clientId: client.client_id, scope: READ_SCOPE })).access_token);
      }
      const query = new URLSearchParams({ carrierCode: row.carrier_code, carrierBookingReference: row.carrier_booking_reference });
      const response = await app.fetch(`${BASE}/v2/shipments?${query}`, {
        headers: { Authorization: `Bearer ${tokens.get(row.account_id)}` },
      });
      expect(response.status).toBe(200);
      state[row.carrier_booking_reference] = JSON.parse(await response.text(), (key, value: unknown) =>
        key === 'transmissionID' || key === 'receiverID' ? undefined : value,
      );
    }
    const exceptions = await database.db
      .selectFrom('tracking_exception')
      .select(['exception_id', 'status', 'exception_type'])
      .orderBy('exception_id')
      .execute();
    return { state, exceptions };
  } finally {
    await app.close();
  }
}

describe.each(dialects)('concurrent overlapping ingests on $name', ({ name, enabled }) => {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const t of made) await t.destroy();
  });
  const fresh = async () => {
    const t = await createTestDatabase(name);
    made.push(t);
    return t;
  };

  it.skipIf(!enabled)(
    `${TRIALS} trials: both succeed and the state is that of a sequential order`,
    async () => {
      const [a, b] = overlappingBundles();
      const sequential: unknown[] = [];
      for (const order of [
        [a, b],
        [b, a],
      ]) {
        const t = await fresh();
        for (const bundle of order) await ingest(t.database, bundle);
        sequential.push(await visibleState(t.database));
      }

      let succeeded = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        const t = await fresh();
        // A second connection to the same store, as another process would have.
        const other = connectDatabase(t.url, {
          poolSize: 4,
          timeouts: { connectMs: 3000, acquireMs: 10_000, statementMs: 0, sqliteBusyMs: 20 },
        });
        try {
          await Promise.all([ingest(t.database, a), ingest(other, b)]);
          succeeded++;
        } finally {
          await other.close();
        }
        expect(sequential).toContainEqual(await visibleState(t.database));
      }
      console.log(`${name}: ${succeeded}/${TRIALS} concurrent overlapping ingest pairs succeeded, state equal to a sequential order`);
      expect(succeeded).toBe(TRIALS);
    },
    120_000,
  );
});
