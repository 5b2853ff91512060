import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signNotification, notificationKey } from '../src/carriers/notification-signature.js';
import { sql } from 'kysely';
import { migrations } from '../db/migrations/index.js';
import { connectDatabase } from '../src/db/connect.js';
import { GaleraCluster, galeraUnavailable } from './support/galera-cluster.js';
import { rawShipment, rawShipmentEvent, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * The service on a three-node MariaDB Galera cluster (docs/operating.md, Running on a Galera cluster), one
 * `tracking serve` per node, as an operator runs it:
 *
 * - replicas started at the same moment on the three nodes all come up; one of them migrates (the lease row of
 *   src/store/housekeeping/migration-lease.ts holds across nodes where GET_LOCK did not), one demo client;
 * - writes through all three nodes at once: no answer is a 500 (certification conflicts are retried), and the
 *   account change feed read through node 3 has every change exactly once, each shipment's in order;
 * - plain reads through node 2 while node 1 alters their table 60 times (a rolling upgrade's expand steps as the
 *   other nodes meet them): each ALTER aborts the reads holding the table on every node, and the service sends
 *   such a read again (src/db/read-retry.ts), so every read answers;
 * - `kill -9` of node 2 under load: the instances on nodes 1 and 3 answer every request; the one on node 2
 *   answers 503 with Retry-After on every route (lookup, carrier notification, operator ingest) and serves again
 *   once the node rejoined; every acknowledged write is on all three nodes afterwards.
 *
 * Needs the Debian packages mariadb-server, galera-4 and rsync (test/support/galera-cluster.ts; .ci/run installs
 * them) and the built CLI (dist/, `npm run build`); skipped with a message otherwise. Figures (events/s,
 * lookups/s, seconds from a node's death to the first 503 and from its rejoin to the first 200) are printed, not
 * asserted.
 *
 * Starts are repeated TT_TEST_GALERA_STARTS times (default 3: each start migrates an empty database on the
 * cluster, about 10 s; the check is ten: `TT_TEST_GALERA_STARTS=10 npx vitest run test/galera-cluster.test.ts`).
 */

const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;
const STARTS = Number(process.env.TT_TEST_GALERA_STARTS ?? 3);
const ALL_MIGRATIONS = Object.keys(migrations('mysql')).length;
const SANDBOX_BL = 'MAEU262150002';
const CARRIER_SECRET = randomBytes(32).toString('base64');

const unavailable = galeraUnavailable() ?? (existsSync(BIN) ? null : `${BIN} is not built (npm run build)`);
if (unavailable) console.log(`Galera cluster tests skipped: ${unavailable}`);

interface Instance {
  node: number;
  child: ChildProcess;
  base: string;
  output: () => string;
  demo?: { client_id: string; client_secret: string };
}

const running = new Set<ChildProcess>();

/** The environment every instance runs with: deadlines above the cluster's eviction time (3 s here). */
function serveEnv(url: string): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    TT_LOG_LEVEL: 'info',
    TT_EVALUATE_INTERVAL_SECONDS: '0',
    TT_DELIVERY_WORKER: 'false',
    TT_CARRIER_POLLER: 'false',
    TT_TRACKING_FETCHER: 'false',
    TT_QUOTAS: 'false',
    TT_DB_STATEMENT_TIMEOUT_MS: '10000',
    TT_DB_ACQUIRE_TIMEOUT_MS: '10000',
    TT_DB_CONNECT_TIMEOUT_MS: '2000',
  };
}

function startServe(cluster: GaleraCluster, node: number, database: string): Promise<Instance> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env: serveEnv(cluster.url(node, database)), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    const look = () => {
      const line = out.split('\n').find((l) => l.includes('listening on'));
      if (!line) return;
      child.stdout!.off('data', look);
      const banner = JSON.parse(line) as { urls: { rest: string }; sandboxDemoClient?: { client_id: string; client_secret: string } };
      resolve({
        node,
        child,
        base: banner.urls.rest.replace('/v2/shipments', '').replace('localhost', '127.0.0.1'),
        output: () => out,
        demo: banner.sandboxDemoClient,
      });
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => reject(new Error(`serve on node ${node} exited ${code}: ${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function cli(cluster: GaleraCluster, database: string, args: string[]): string {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: serveEnv(cluster.url(1, database)), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tracking ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

async function createDatabase(cluster: GaleraCluster): Promise<string> {
  const name = `tt_galera_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const conn = await cluster.connect(1);
  try {
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
  } finally {
    await conn.end();
  }
  return name;
}

async function dropDatabase(cluster: GaleraCluster, name: string): Promise<void> {
  const conn = await cluster.connect(1);
  try {
    await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await conn.end();
  }
}

async function token(instance: Instance, demo: { client_id: string; client_secret: string }, scope?: string): Promise<string> {
  const response = await fetch(`${instance.base}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: demo.client_id,
      client_secret: demo.client_secret,
      ...(scope ? { scope } : {}),
    }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** An answer as the load sees it. */
interface Answer {
  node: number;
  route: 'lookup' | 'ingest' | 'notification';
  status: number;
  retryAfter: string | null;
  at: number;
  body: string;
}

/** The bundles, lookups and notifications a client sends, against one instance. */
class Client {
  acknowledged: string[] = [];
  constructor(
    readonly instance: Instance,
    readonly read: string,
    readonly operator: string,
    readonly account: string,
  ) {}

  async lookup(): Promise<Answer> {
    const response = await fetch(`${this.instance.base}/v2/shipments?billOfLadingNumber=${SANDBOX_BL}`, {
      headers: { Authorization: `Bearer ${this.read}` },
    });
    return this.#answer('lookup', response);
  }

  /** Event ids of acknowledged bundles that reported a new milestone: each is named by exactly one change of the feed. */
  triggering: string[] = [];

  /**
   * One bundle of `events` new shipment events of the seeded shipment GBKG{shipment} (writers through different
   * nodes collide on its rows), or with `milestone`, one transport event at a transport call never seen before:
   * a new milestone, which the change feed names by that event (src/domain/push/push-triggers.ts).
   */
  async ingest(shipment: number, events = 1, milestone = false): Promise<Answer> {
    const ids = Array.from({ length: milestone ? 1 : events }, () => randomUUID());
    const reference = `GBKG${shipment}`;
    const bundleEvents = ids.map((eventID, i) => {
      if (!milestone) {
        return rawShipmentEvent(0, {
          eventID,
          documentID: reference,
          eventDateTime: new Date(Date.UTC(2024, 1, 1, 0, 0, i)).toISOString(),
        });
      }
      const event = rawTransportEvent(0, {
        eventID,
        documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: reference }],
      });
      return { ...event, transportCall: { ...(event.transportCall as object), transportCallID: `TC-${eventID}` } };
    });
    const response = await fetch(`${this.instance.base}/v2/operator/ingest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.operator}` },
      body: JSON.stringify({ carrierCode: 'MAEU', events: bundleEvents }),
    });
    const answer = await this.#answer('ingest', response);
    if (answer.status === 200) {
      this.acknowledged.push(...ids);
      if (milestone) this.triggering.push(...ids);
    }
    return answer;
  }

  async notification(): Promise<Answer> {
    const key = notificationKey(CARRIER_SECRET);
    if (!key.ok) throw new Error(key.message);
    const body = JSON.stringify([rawTransportEvent(0, { eventID: randomUUID() })]);
    const response = await fetch(`${this.instance.base}/v2/carrier-notifications/ONEY`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Notification-Signature': signNotification(body, key.key) },
      body,
    });
    return this.#answer('notification', response);
  }

  async #answer(route: Answer['route'], response: Response): Promise<Answer> {
    const body = await response.text();
    return {
      node: this.instance.node,
      route,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      at: Date.now(),
      body,
    };
  }
}

function galeraShipment(key: number, account: string): Record<string, unknown> {
  return rawShipment({
    bookingReference: `GFWD${key}`,
    carrierBookingReference: `GBKG${key}`,
    billOfLadingNumber: `MAEUGBL${key}`,
    accounts: [account],
    containers: [],
  });
}

/** Shipments GBKG0 … GBKG{n-1}, granted to the demo account, through the first client. */
async function seedShipments(client: Client, n: number): Promise<void> {
  const response = await fetch(`${client.instance.base}/v2/operator/ingest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${client.operator}` },
    body: JSON.stringify({ carrierCode: 'MAEU', shipments: Array.from({ length: n }, (_, k) => galeraShipment(k, client.account)) }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

interface FeedEntry {
  carrierBookingReference: string;
  version: number;
  changes: { triggerType: string; triggeredByEvent?: string }[];
}

/** Pages of the change feed from `after` until hasMore is false; the entries and the cursor to keep. */
async function readFeed(client: Client, after?: string): Promise<{ entries: FeedEntry[]; cursor: string }> {
  const entries: FeedEntry[] = [];
  let cursor = after;
  for (;;) {
    const query = new URLSearchParams({ limit: '1000', ...(cursor ? { after: cursor } : {}) });
    const response = await fetch(`${client.instance.base}/v2/changes?${query}`, { headers: { Authorization: `Bearer ${client.read}` } });
    expect(response.status, await response.clone().text()).toBe(200);
    const page = (await response.json()) as { changes: FeedEntry[]; next: string; hasMore: boolean };
    entries.push(...page.changes);
    cursor = page.next;
    if (!page.hasMore) return { entries, cursor };
  }
}

async function eventsOnNode(cluster: GaleraCluster, node: number, database: string, ids: string[]): Promise<number> {
  const conn = await cluster.connect(node);
  try {
    // A causal read: this node first applies everything the cluster committed before it (docs/operating.md).
    await conn.query('SET SESSION wsrep_sync_wait = 1');
    let found = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const [rows] = await conn.query(`SELECT COUNT(*) AS n FROM \`${database}\`.event WHERE event_id IN (?)`, [ids.slice(i, i + 500)]);
      found += Number((rows as { n: number }[])[0]!.n);
    }
    return found;
  } finally {
    await conn.end();
  }
}

/** Runs `work` `count` times with `concurrency` at once. */
async function pool<T>(count: number, concurrency: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}

describe.skipIf(unavailable !== null)('a three-node MariaDB Galera cluster', () => {
  let cluster: GaleraCluster;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    cluster = await GaleraCluster.start();
  }, 240_000);
  afterAll(async () => {
    await Promise.all([...running].map(stop));
    await cluster?.stop();
    if (Object.keys(figures).length > 0) console.log('Galera figures:', JSON.stringify(figures));
  }, 120_000);

  it('plain reads through node 2 go on while node 1 alters their table: every read answers (DDL in TOI aborts them; they are sent again)', async () => {
    // A rolling upgrade's expand steps, as the previous release's instances on the other nodes meet them
    // (src/db/read-retry.ts): each ALTER is applied by every node at once and aborts the statements holding its table.
    const name = await createDatabase(cluster);
    const admin = await cluster.connect(1);
    const database = connectDatabase(cluster.url(2, name), {
      timeouts: { connectMs: 2_000, acquireMs: 10_000, statementMs: 10_000, sqliteBusyMs: 5_000 },
    });
    try {
      await admin.query(`CREATE TABLE \`${name}\`.probe (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE=InnoDB`);
      await admin.query(`INSERT INTO \`${name}\`.probe VALUES ${Array.from({ length: 200 }, (_, i) => `(${i}, 'row ${i}')`).join(',')}`);
      let altering = true;
      const failures: string[] = [];
      let reads = 0;
      const reader = async () => {
        while (altering) {
          try {
            const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM probe WHERE v LIKE ${'row%'}`.execute(database.db);
            if (Number(rows[0]!.n) !== 200) failures.push(`read ${rows[0]!.n} rows`);
            reads++;
          } catch (err) {
            failures.push((err as Error).message);
          }
        }
      };
      const readers = Array.from({ length: 4 }, reader);
      for (let i = 0; i < 30; i++) {
        await admin.query(`ALTER TABLE \`${name}\`.probe ADD COLUMN c${i} INT NULL, ALGORITHM=INSTANT`);
        await admin.query(`ALTER TABLE \`${name}\`.probe DROP COLUMN c${i}, ALGORITHM=INSTANT`);
      }
      altering = false;
      await Promise.all(readers);
      figures.readsDuringAlters = reads;
      expect(failures).toEqual([]);
      expect(reads).toBeGreaterThan(60);
    } finally {
      await database.close();
      await admin.end();
      await dropDatabase(cluster, name);
    }
  }, 120_000);

  it(
    `three instances started at once on the three nodes all come up, one migrates, one demo client (${STARTS} times)`,
    async () => {
      for (let start = 1; start <= STARTS; start++) {
        const database = await createDatabase(cluster);
        try {
          const instances = await Promise.all([1, 2, 3].map((node) => startServe(cluster, node, database)));
          const demos = new Set(instances.map((i) => JSON.stringify(i.demo)));
          expect(demos.size, `start ${start}: one demo client printed`).toBe(1);
          const migrated = instances.filter((i) => i.output().includes(`"applied ${ALL_MIGRATIONS} migrations"`));
          expect(migrated, `start ${start}: one instance migrated`).toHaveLength(1);
          for (const instance of instances) {
            expect(instance.output(), `start ${start}, node ${instance.node}`).not.toMatch(
              /"level":(50|60)|already exists|Duplicate entry/,
            );
            await token(instance, instance.demo!);
          }
          await Promise.all(instances.map((i) => stop(i.child)));
          for (const instance of instances) expect(instance.child.exitCode, `node ${instance.node} stopped cleanly`).toBe(0);
          const conn = await cluster.connect(3);
          try {
            // Each recorded once: 0.4.0's in kysely_migration, the later ones in release_migration (src/store/housekeeping/migrate.ts);
            // kysely_migration also holds the mark of a database this release created finished.
            const [rows] = await conn.query(
              `SELECT (SELECT COUNT(*) FROM \`${database}\`.kysely_migration WHERE name NOT LIKE '999-%') + (SELECT COUNT(*) FROM \`${database}\`.release_migration) AS n`,
            );
            expect(Number((rows as { n: number }[])[0]!.n)).toBe(ALL_MIGRATIONS);
            const [clients] = await conn.query(`SELECT client_id FROM \`${database}\`.api_client`);
            expect(clients).toHaveLength(1);
          } finally {
            await conn.end();
          }
        } finally {
          await dropDatabase(cluster, database);
        }
      }
    },
    60_000 + STARTS * 30_000,
  );

  describe('under load', () => {
    let database: string;
    let clients: Client[];

    beforeAll(async () => {
      database = await createDatabase(cluster);
      const instances = await Promise.all([1, 2, 3].map((node) => startServe(cluster, node, database)));
      const demo = instances[0]!.demo!;
      cli(cluster, database, ['client', 'grant', demo.client_id, 'tracking-operator.ingest']);
      cli(cluster, database, ['carrier', 'add', 'ONEY', '--secret', CARRIER_SECRET]);
      const read = await token(instances[0]!, demo);
      const operator = await token(instances[0]!, demo, 'tracking-operator.ingest');
      clients = instances.map((instance) => new Client(instance, read, operator, 'demo-account'));
      await seedShipments(clients[0]!, 6);
    }, 120_000);
    afterAll(async () => {
      await Promise.all([...running].map(stop));
      if (database) await dropDatabase(cluster, database);
    }, 60_000);

    it('writes through all three nodes at once: no 500, the change feed has every change once and in order', async () => {
      const { cursor } = await readFeed(clients[2]!);
      // Through one node, then through three at once; every bundle adds events to one of six shipments, so
      // writers on different nodes collide on the same rows (certification conflicts, retried).
      const bundles = 60;
      const events = 5;
      // Every other bundle reports a new milestone (a change the feed names by its event); the others add
      // events. All go to the six seeded shipments.
      const send = (client: Client, i: number) => client.ingest(i % 6, events, i % 2 === 0);
      const eventsOf = (n: number) => Math.ceil(n / 2) + Math.floor(n / 2) * events;
      let started = performance.now();
      const one = await pool(bundles, 6, (i) => send(clients[0]!, i));
      figures.ingestEventsPerSecondOneNode = Math.round(eventsOf(bundles) / ((performance.now() - started) / 1000));
      started = performance.now();
      const three = await pool(bundles * 3, 6 * 3, (i) => send(clients[i % 3]!, Math.floor(i / 3)));
      figures.ingestEventsPerSecondThreeNodes = Math.round((eventsOf(bundles) * 3) / ((performance.now() - started) / 1000));
      started = performance.now();
      const lookups = await pool(900, 24, (i) => clients[i % 3]!.lookup());
      figures.lookupsPerSecondThreeInstances = Math.round(900 / ((performance.now() - started) / 1000));
      for (const answer of [...one, ...three, ...lookups])
        expect(answer.status, `${answer.route} on node ${answer.node}: ${answer.body}`).toBe(200);

      const acknowledged = clients.flatMap((c) => c.triggering);
      expect(acknowledged).toHaveLength((bundles / 2) * 4);
      // Node 3 applies the other nodes' commits within moments; the feed through it catches up.
      const seen: FeedEntry[] = [];
      let after = cursor;
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const page = await readFeed(clients[2]!, after);
        seen.push(...page.entries);
        after = page.cursor;
        const named = new Set(seen.flatMap((e) => e.changes.map((c) => c.triggeredByEvent)));
        if (acknowledged.every((id) => named.has(id))) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const triggered = seen.flatMap((e) => e.changes.filter((c) => c.triggerType === 'EVENT_TRIGGER').map((c) => c.triggeredByEvent));
      const twice = triggered.filter((id, i) => triggered.indexOf(id) !== i);
      expect(
        twice,
        `no change twice: ${JSON.stringify(seen.filter((e) => e.changes.some((c) => twice.includes(c.triggeredByEvent))))}`,
      ).toEqual([]);
      const named = new Set(triggered);
      expect(
        acknowledged.filter((id) => !named.has(id)),
        'every new shipment in the feed',
      ).toEqual([]);
      // Each shipment's entries come in its commit order: its versions only grow.
      const versions = new Map<string, number>();
      for (const entry of seen) {
        const last = versions.get(entry.carrierBookingReference) ?? 0;
        expect(entry.version, entry.carrierBookingReference).toBeGreaterThan(last);
        versions.set(entry.carrierBookingReference, entry.version);
      }
    }, 120_000);

    it('kill -9 of a node under load: the other instances answer every request, the one on it 503 with Retry-After until it rejoined', async () => {
      const answers: Answer[] = [];
      let stopping = false;
      let shipment = 0;
      const load = (client: Client) =>
        (async () => {
          while (!stopping) {
            const round = [await client.lookup(), await client.ingest(shipment++ % 6), await client.notification()];
            answers.push(...round);
            // A client that got 503 does not hammer (it would wait Retry-After; a short pause keeps the figures fine).
            if (round.some((a) => a.status >= 500)) await new Promise((resolve) => setTimeout(resolve, 50));
          }
        })();
      const loads = clients.flatMap((c) => [load(c), load(c)]);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const killedAt = Date.now();
      await cluster.kill(2);
      // Past the eviction (evs.suspect_timeout 3 s): the surviving nodes hold their commits until then.
      await new Promise((resolve) => setTimeout(resolve, 7000));
      const restartedAt = Date.now();
      cluster.startAgain(2);
      await cluster.waitSynced(2, 120_000);
      const syncedAt = Date.now();
      // Serves again: the first 200 of every route on node 2's instance after the node is back.
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const back = answers.filter((a) => a.node === 2 && a.at > restartedAt && a.status < 300);
        if (new Set(back.map((a) => a.route)).size === 3) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      stopping = true;
      await Promise.all(loads);

      /** The instance's log lines about an answer (by its correlation id), to say why it failed. */
      const why = (a: Answer) => {
        const id = /"providerCorrelationReference":"([^"]+)"/.exec(a.body)?.[1] ?? '-';
        return clients[a.node - 1]!.instance.output()
          .split('\n')
          .filter((line) => line.includes(id))
          .join('\n');
      };
      for (const a of answers.filter((x) => x.node !== 2)) {
        expect(a.status, `${a.route} on node ${a.node} at +${a.at - killedAt} ms: ${a.body}\n${why(a)}`).toBeLessThan(300);
      }
      const onTwo = answers.filter((a) => a.node === 2);
      for (const a of onTwo.filter((x) => x.status >= 300)) {
        expect(a.status, `${a.route} on node 2 at +${a.at - killedAt} ms: ${a.body}`).toBe(503);
        expect(a.retryAfter, a.route).toMatch(/^\d+$/);
      }
      const down = onTwo.filter((a) => a.at > killedAt && a.at < restartedAt);
      for (const route of ['lookup', 'ingest', 'notification'] as const) {
        expect(
          down.filter((a) => a.route === route && a.status === 503),
          `${route} answered 503 while node 2 was down`,
        ).not.toHaveLength(0);
        expect(
          onTwo.filter((a) => a.route === route && a.at > restartedAt && a.status < 300),
          `${route} served again`,
        ).not.toHaveLength(0);
      }
      const first503 = Math.min(...down.filter((a) => a.status === 503).map((a) => a.at));
      const first200 = Math.min(...onTwo.filter((a) => a.at > restartedAt && a.status < 300).map((a) => a.at));
      figures.secondsDeathToFirst503 = (first503 - killedAt) / 1000;
      figures.secondsRestartToSynced = (syncedAt - restartedAt) / 1000;
      figures.secondsSyncedToFirst200 = (first200 - syncedAt) / 1000;
      figures.answersDuringKill = answers.length;

      // Every acknowledged write is on every node.
      const acknowledged = clients.flatMap((c) => c.acknowledged);
      for (const node of [1, 2, 3])
        expect(await eventsOnNode(cluster, node, database, acknowledged), `node ${node}`).toBe(acknowledged.length);
    }, 180_000);
  });
});
