import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, TEST_MYSQL_URL } from './support/databases.js';
import { GaleraCluster, galeraUnavailable } from './support/galera-cluster.js';
import { HaproxyBalancer, haproxyUnavailable } from './support/haproxy.js';
import { rawShipment } from './support/ingest-fixtures.js';
import { changelogReleases, previousRelease } from './support/previous-release.js';
import { buildRelease, releaseUnavailable, type ReleaseBuild } from './support/release-build.js';
import { compareInstances, type Comparison } from './support/instance-comparison.js';
import { children, Instance, runCli, stopChild, type Release } from './support/release-instance.js';
import { UpgradeLoad, type Failure, type LoadShipment } from './support/upgrade-load.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * A rolling upgrade from the previous release to this one, as an operator runs it (issue 48, Tests): the previous
 * release (the CHANGELOG.md entry below package.json's version, built from the commit it names:
 * test/support/release-build.ts) on three instances of one database, behind HAProxy (test/support/haproxy.ts:
 * `option httpchk GET /ready`, `inter 1s fall 2 rise 2`, no retries), under steady load through the balancer
 * (test/support/upgrade-load.ts). Each instance in turn is taken out of the balancer (runtime API, `maint`), left
 * once HAProxy sends it nothing, stopped with SIGTERM, started on the same port from the other release, and put
 * back once its /ready answers and HAProxy's checks pass. All three go to this release, one goes back to the
 * previous one and forward again, and `tracking upgrade finish` runs under the same load.
 *
 * Asserted, with the counts per phase printed as a table: no 5xx and no transport error through the balancer in
 * any phase (nor a 4xx: the load sends only valid requests), no GraphQL INTERNAL_SERVER_ERROR; in the mixed phases an old and a new instance, asked directly, give
 * the same shipmentTracking (REST's body without its transmissionHeader, and GraphQL's); every acknowledged event
 * is in the final snapshot, in the change feed (read from a saved cursor) exactly once and at the webhook at least
 * once; the migrations are recorded once.
 *
 * On Galera one kind of failed answer is counted apart instead: a read of a 0.4.0 instance that the first new
 * instance's expand DDL aborted on its node (explainedByExpandDdl below; docs/upgrading.md, "Reads aborted by a
 * step's DDL"), each one matched to the deadlock that instance logged under the answer's correlation id.
 *
 * Runs on the machine's MariaDB (TEST_MYSQL_URL) and on the three-node Galera harness (one instance per node);
 * skipped with a message without TEST_MYSQL_URL, HAProxy (.ci/run installs it), galera-4, or the previous
 * release's commit in this clone. Ports: balancers 4100 and 4110, instances 4101-4103 and 4111-4113, Galera nodes
 * 4120-4122 (gcomm and IST 4130-4135, SST 5130-5134). The first run builds the previous release (`npm ci`, about
 * 5 minutes here); later runs reuse it. Each scenario takes 2 to 4 minutes on the shared 2-core machine.
 */

const REPOSITORY = new URL('..', import.meta.url).pathname;
const CURRENT_CLI = join(REPOSITORY, 'dist', 'src', 'cli', 'main.js');
const CURRENT_VERSION = (JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8')) as { version: string }).version;
const CHANGELOG = join(REPOSITORY, 'CHANGELOG.md');
/** Steady load between the steps, per phase. */
const STEADY_MS = Number(process.env.TT_TEST_UPGRADE_STEADY_MS ?? 4_000);
const SANDBOX_SHIPMENT: LoadShipment = { carrierCode: 'MAEU', carrierBookingReference: '262150002', billOfLadingNumber: 'MAEU262150002' };
const DEMO_ACCOUNT = 'demo-account';

const previous = (() => {
  try {
    return previousRelease(readFileSync(CHANGELOG, 'utf8'), CURRENT_VERSION);
  } catch (err) {
    return { error: (err as Error).message };
  }
})();

/** Why the upgrade cannot run here (skipped, said so), or null. A changelog without the previous release fails instead. */
const unavailable =
  (TEST_MYSQL_URL ? null : 'TEST_MYSQL_URL is not set') ??
  haproxyUnavailable() ??
  (existsSync(CURRENT_CLI) ? null : `${CURRENT_CLI} is not built (npm run build)`) ??
  ('commit' in previous ? releaseUnavailable(REPOSITORY, previous.commit) : null);
if (unavailable) console.log(`Rolling upgrade tests skipped: ${unavailable}`);
const galeraMissing = unavailable ?? galeraUnavailable();
if (galeraMissing && !unavailable) console.log(`Rolling upgrade on Galera skipped: ${galeraMissing}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function token(base: string, client: { client_id: string; client_secret: string }, scope: string): Promise<string> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope,
    }),
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`token (${scope}): ${response.status} ${body}`);
  return (JSON.parse(body) as { access_token: string }).access_token;
}

/** Rows of the migration bookkeeping tables (any table named *migration* with a `name` column) recorded more than once. */
async function duplicateMigrations(conn: Connection, database: string): Promise<{ tables: string[]; duplicates: string[] }> {
  const [tables] = await conn.query(
    `SELECT TABLE_NAME AS t FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND COLUMN_NAME = 'name' AND TABLE_NAME LIKE '%migration%'`,
    [database],
  );
  const names = (tables as { t: string }[]).map((r) => r.t);
  const duplicates: string[] = [];
  for (const table of names) {
    const [rows] = await conn.query(`SELECT name, COUNT(*) AS n FROM \`${database}\`.\`${table}\` GROUP BY name HAVING COUNT(*) > 1`);
    duplicates.push(...(rows as { name: string; n: number }[]).map((r) => `${table}.${r.name} ×${r.n}`));
  }
  return { tables: names, duplicates };
}

interface Setup {
  /** Balancer and instance ports. */
  balancerPort: number;
  instancePorts: [number, number, number];
  /** DATABASE_URL of instance i (0 to 2), and of the commands. */
  databaseUrl: (i: number) => string;
  /** Extra environment of every process (Galera: deadlines above its eviction time). */
  env?: Record<string, string>;
  /** The bookkeeping check's connection. */
  connect: () => Promise<Connection>;
  databaseName: string;
}

interface Outcome {
  load: UpgradeLoad;
  comparisons: Comparison[];
  stoppedWith: string[];
  /** The version each started instance's /ready named. */
  readyVersions: { instance: string; release: string; ready?: string }[];
  finish: { code: number | null; output: string; attempts: number; args?: string };
  status: string;
  finalEvents: Set<string>;
  webhookNamed: Map<string, number>;
  migrations: { tables: string[]; duplicates: string[] };
  /** What each instance logged at warn or above, over all its runs. */
  problems: string[];
  failed?: Error;
}

/**
 * The whole procedure on `setup`; what it saw. A step that cannot complete (an instance that never gets ready)
 * ends the procedure, and is reported with whatever was counted until then.
 */
async function rollingUpgrade(setup: Setup, old: Release, current: Release, cleanups: (() => Promise<unknown>)[]): Promise<Outcome> {
  const balancer = await HaproxyBalancer.start(setup.balancerPort, {
    i1: setup.instancePorts[0],
    i2: setup.instancePorts[1],
    i3: setup.instancePorts[2],
  });
  cleanups.push(() => balancer.stop());
  const env = (i: number): Record<string, string> => ({
    HOST: '127.0.0.1',
    DATABASE_URL: setup.databaseUrl(i),
    // Tokens name the balancer as their issuer: every instance accepts every other's.
    TT_BASE_URL: balancer.url,
    TT_LOG_LEVEL: 'warn',
    TT_EVALUATE_INTERVAL_SECONDS: '0',
    TT_CARRIER_POLLER: 'false',
    TT_TRACKING_FETCHER: 'false',
    TT_QUOTAS: 'false',
    TT_DELIVERY_POLL_MS: '200',
    TT_DB_POOL_SIZE: '5',
    ...setup.env,
  });
  const instances = setup.instancePorts.map((port, i) => new Instance(`i${i + 1}`, port, env(i)));
  cleanups.push(() => Promise.all(instances.map((i) => i.stop())));
  const receiver = await WebhookReceiver.start();
  cleanups.push(() => receiver.close());

  // The previous release: one instance migrates and seeds the sandbox, then the two others.
  const { demo } = await instances[0]!.start(old);
  if (!demo) throw new Error(`no sandboxDemoClient in ${instances[0]!.output()}`);
  await Promise.all(instances.slice(1).map((i) => i.start(old)));
  for (const instance of instances) await balancer.waitFor(instance.name, 'UP', (s) => s.status === 'UP');
  for (const scope of ['tracking-operator.ingest', 'track-and-trace.subscribe']) {
    const granted = await runCli(old, env(0), ['client', 'grant', demo.client_id, scope]);
    if (granted.code !== 0) throw new Error(`client grant ${scope}: ${granted.output}`);
  }
  const readToken = await token(balancer.url, demo, 'track-and-trace.read');
  const operatorToken = await token(balancer.url, demo, 'tracking-operator.ingest');
  const subscribeToken = await token(balancer.url, demo, 'track-and-trace.subscribe');
  const seeded: LoadShipment[] = [1, 2, 3].map((k) => ({
    carrierCode: 'MAEU',
    carrierBookingReference: `UPG${k}`,
    billOfLadingNumber: `MAEUUPG${k}`,
  }));
  const seed = await fetch(`${balancer.url}/v2/operator/ingest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify({
      carrierCode: 'MAEU',
      shipments: seeded.map((s) =>
        rawShipment({
          bookingReference: `FWD-${s.carrierBookingReference}`,
          carrierBookingReference: s.carrierBookingReference,
          billOfLadingNumber: s.billOfLadingNumber,
          accounts: [DEMO_ACCOUNT],
          containers: [],
        }),
      ),
    }),
  });
  if (seed.status !== 200) throw new Error(`seeding the upgrade's shipments: ${seed.status} ${await seed.text()}`);
  // An account-wide webhook, subscribed before the upgrade, to every new milestone.
  const subscribed = await fetch(`${balancer.url}/v2/subscriptions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${subscribeToken}` },
    body: JSON.stringify({ callbackUrl: receiver.url, triggerTypes: ['EVENT_TRIGGER'] }),
  });
  if (subscribed.status !== 201) throw new Error(`subscribing the webhook: ${subscribed.status} ${await subscribed.text()}`);

  const shipments = [...seeded, SANDBOX_SHIPMENT];
  const load = new UpgradeLoad({ base: balancer.url, readToken, operatorToken, shipments, ingestEveryMs: 300 });
  await load.saveCursor();
  const outcome: Outcome = {
    load,
    comparisons: [],
    stoppedWith: [],
    readyVersions: [],
    finish: { code: null, output: '(not run)', attempts: 0 },
    status: '',
    finalEvents: new Set(),
    webhookNamed: new Map(),
    migrations: { tables: [], duplicates: [] },
    problems: [],
  };

  /** The procedure for one instance: out of the balancer, drained, stopped, started from `release`, back in. */
  const replace = async (instance: Instance, release: Release) => {
    load.phase = `${instance.name} ${instance.release?.version} → ${release.version}`;
    await balancer.setState(instance.name, 'maint');
    await balancer.waitFor(instance.name, 'left with no session', (s) => s.status === 'MAINT' && s.current === 0, 15_000);
    outcome.stoppedWith.push(`${instance.name} ${instance.release?.version}: ${await instance.stop()}`);
    const { readyVersion } = await instance.start(release);
    outcome.readyVersions.push({ instance: instance.name, release: release.version, ready: readyVersion });
    await balancer.setState(instance.name, 'ready');
    await balancer.waitFor(instance.name, 'UP', (s) => s.status === 'UP');
  };
  const steady = async (phase: string, compare?: [Instance, Instance]) => {
    load.phase = phase;
    const until = Date.now() + STEADY_MS;
    if (compare) outcome.comparisons.push(await compareInstances(phase, compare[0], compare[1], shipments, readToken));
    await sleep(Math.max(0, until - Date.now()));
  };

  const [i1, i2, i3] = instances as [Instance, Instance, Instance];
  load.phase = `all ${old.version}`;
  load.start();
  try {
    await steady(`all ${old.version}`);
    await replace(i1, current);
    await steady('mixed: i1 new', [i2, i1]);
    await replace(i2, current);
    await steady('mixed: i1, i2 new', [i3, i2]);
    await replace(i3, current);
    await steady(`all ${current.version}`);
    await replace(i3, old);
    await steady('mixed: i3 back', [i3, i1]);
    await replace(i3, current);
    await steady(`all ${current.version} again`);
    // `finish` refuses while an older instance is alive; the last one stopped a moment ago: asked again, bounded.
    // The previous release records no heartbeat, so finish asks the operator's word that none runs: given, as an
    // operator gives it, once every instance's /ready names this release.
    load.phase = 'upgrade finish';
    const deadline = Date.now() + 120_000;
    let args = ['upgrade', 'finish'];
    for (;;) {
      outcome.finish.attempts++;
      const finished = await runCli(current, env(0), args, 300_000);
      outcome.finish = { ...finished, attempts: outcome.finish.attempts, args: args.slice(1).join(' ') };
      // 2 is a usage error (no such command): asking again changes nothing.
      if (finished.code === 0 || finished.code === 2 || Date.now() > deadline) break;
      if (finished.output.includes('--previous-release-stopped') && !args.includes('--previous-release-stopped')) {
        const versions = await Promise.all(instances.map((i) => i.readyVersion()));
        if (versions.every((v) => v === current.version)) {
          args = [...args, '--previous-release-stopped'];
          continue;
        }
      }
      await sleep(2_000);
    }
    outcome.status = (await runCli(current, env(0), ['upgrade', 'status', '--json'])).output;
    await steady('after finish');
  } catch (err) {
    outcome.failed = err as Error;
  } finally {
    load.phase = 'settling';
    await load.stop();
  }

  // What was acknowledged reaches the feed and the webhook within moments (the delivery worker polls every 200 ms).
  await load.catchUpFeed(30_000);
  const webhookDeadline = Date.now() + 30_000;
  const named = () => {
    const counts = new Map<string, number>();
    for (const r of receiver.accepted) {
      const id = (r.json as { transmissionHeader?: { triggeredByEvent?: string } } | undefined)?.transmissionHeader?.triggeredByEvent;
      if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  while (Date.now() < webhookDeadline && !load.acknowledged.every((id) => named().has(id))) await sleep(500);
  outcome.webhookNamed = named();
  for (const shipment of shipments) {
    const answer = await fetch(`${balancer.url}/v2/shipments?billOfLadingNumber=${shipment.billOfLadingNumber}`, {
      headers: { Authorization: `Bearer ${readToken}` },
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    if (answer?.status !== 200) continue;
    const body = (await answer.json()) as { shipmentTracking: { transportEvents?: { eventID: string }[] } };
    for (const event of body.shipmentTracking.transportEvents ?? []) outcome.finalEvents.add(event.eventID);
  }
  outcome.problems = instances.flatMap((i) => i.problems.map((line) => `${i.name} ${line}`));
  const conn = await setup.connect();
  try {
    outcome.migrations = await duplicateMigrations(conn, setup.databaseName);
  } finally {
    await conn.end();
  }
  return outcome;
}

/**
 * A failed answer the expand steps explain, on Galera only. The first instance of this release applies the expand
 * steps, and each DDL runs in Total Order Isolation: every node applies it at the same point and brute-force aborts
 * the statements that hold its table, so a read of the previous release on another node fails with "Deadlock found"
 * (1213), which 0.4.0 answers with a 500 (REST) or INTERNAL_SERVER_ERROR (GraphQL). This release reads again after
 * such an abort (src/db/read-retry.ts); 0.4.0 cannot be changed. So such an answer is explained, never hidden: it was
 * given in the phase the expand steps ran in, by an instance of the previous release, which logged the deadlock
 * under the answer's correlation id (docs/upgrading.md, "On a Galera cluster").
 */
function explainedByExpandDdl(failure: Failure, outcome: Outcome, expandPhase: string, oldVersion: string): boolean {
  if (failure.phase !== expandPhase || !failure.correlationId) return false;
  return outcome.problems.some(
    (line) =>
      line.startsWith(`${failure.servedBy} ${oldVersion}: `) &&
      line.includes(failure.correlationId!) &&
      line.includes('Deadlock found when trying to get lock'),
  );
}

/** Prints what the procedure saw and asserts the promises on it (each softly: every one is reported). */
function report(name: string, outcome: Outcome, tolerance?: { expandPhase: string; oldVersion: string }): void {
  const { load } = outcome;
  const explained = tolerance
    ? load.failures.filter((f) => explainedByExpandDdl(f, outcome, tolerance.expandPhase, tolerance.oldVersion))
    : [];
  console.log(`Rolling upgrade on ${name}: counts per phase`);
  console.table(load.table());
  console.log(
    JSON.stringify(
      {
        acknowledgedEvents: load.acknowledged.length,
        comparisons: outcome.comparisons.map((c) => ({ phase: c.phase, compared: c.compared, differing: c.differing.length })),
        stoppedWith: outcome.stoppedWith,
        readyVersions: outcome.readyVersions,
        finish: {
          args: outcome.finish.args,
          code: outcome.finish.code,
          attempts: outcome.finish.attempts,
          output: outcome.finish.output.slice(-800),
        },
        status: outcome.status.slice(0, 1500),
        migrationTables: outcome.migrations.tables,
        failed: outcome.failed?.message.slice(0, 1500),
        samples: load.samples.slice(0, 12),
        abortedByExpandDdl: explained,
        problems: outcome.problems.slice(0, 20),
      },
      null,
      2,
    ),
  );
  expect.soft(outcome.failed?.message, 'the procedure ran to its end').toBeUndefined();
  // A failure names what was answered and what the instances logged: CI shows the message, not the console.
  const seen = (phase: string) => {
    const samples = load.samples.filter((s) => s.startsWith(`[${phase}]`)).slice(0, 3);
    return ` (samples: ${JSON.stringify(samples)}; instances logged: ${JSON.stringify(outcome.problems.slice(0, 6))})`;
  };
  for (const [phase, counts] of load.counts) {
    const excused = (kind: 'status' | 'graphql') =>
      explained.filter((f) => f.phase === phase && (kind === 'graphql') === f.label.endsWith('INTERNAL_SERVER_ERROR')).length;
    const serverErrors = counts.serverError - excused('status');
    const graphqlInternal = counts.graphqlInternal - excused('graphql');
    expect.soft(serverErrors, `${phase}: 5xx through the balancer${serverErrors ? seen(phase) : ''}`).toBe(0);
    expect.soft(counts.transport, `${phase}: transport errors through the balancer${counts.transport ? seen(phase) : ''}`).toBe(0);
    expect.soft(graphqlInternal, `${phase}: GraphQL INTERNAL_SERVER_ERROR${graphqlInternal ? seen(phase) : ''}`).toBe(0);
    // The load sends only valid requests with valid tokens: a refusal (a token one release does not accept) fails a client too.
    expect.soft(counts.clientError, `${phase}: 4xx through the balancer${counts.clientError ? seen(phase) : ''}`).toBe(0);
  }
  expect.soft(outcome.comparisons.length, 'mixed phases compared').toBeGreaterThanOrEqual(3);
  for (const comparison of outcome.comparisons)
    expect.soft(comparison.differing, `${comparison.phase}: old and new give the same shipmentTracking`).toEqual([]);
  expect.soft(outcome.finish.code, `tracking upgrade finish: ${outcome.finish.output.slice(-500)}`).toBe(0);
  expect.soft(load.acknowledged.length, 'events acknowledged').toBeGreaterThan(20);
  expect
    .soft(
      load.acknowledged.filter((id) => !outcome.finalEvents.has(id)),
      'acknowledged events missing from the final snapshot',
    )
    .toEqual([]);
  expect
    .soft(
      load.acknowledged.filter((id) => load.feedNamed.get(id) !== 1).map((id) => `${id} ×${load.feedNamed.get(id) ?? 0}`),
      'acknowledged events not in the feed exactly once',
    )
    .toEqual([]);
  expect
    .soft(
      load.acknowledged.filter((id) => !outcome.webhookNamed.has(id)),
      'acknowledged events never delivered to the webhook',
    )
    .toEqual([]);
  expect.soft(outcome.migrations.tables, 'the migration bookkeeping table').toContain('kysely_migration');
  expect.soft(outcome.migrations.duplicates, 'migrations recorded more than once').toEqual([]);
  // The instance on the port is the release just started (this release's /ready names its version; 0.4.0's has none).
  for (const started of outcome.readyVersions)
    if (started.release === CURRENT_VERSION) expect.soft(started.ready, `${started.instance}: /ready's version`).toBe(CURRENT_VERSION);
  for (const stopped of outcome.stoppedWith) expect.soft(stopped, 'each instance drained and exited 0').toMatch(/: 0$/);
}

describe('the previous release, from CHANGELOG.md', () => {
  it('is the entry below the current version, with the commit it names', () => {
    const changelog = [
      '# Changelog',
      '## [Unreleased]',
      '## [0.5.0] - 2026-12-02',
      '### Added',
      '- something',
      '## [0.4.0] - 2026-11-26',
      'Commit: 269978ec8b43c5b8ed4dd81a2467d8b1c0b0f046',
      '## [0.3.0] - 2026-11-01',
      'Commit: 1111111111111111111111111111111111111111',
    ].join('\n');
    expect(changelogReleases(changelog).map((r) => r.version)).toEqual(['0.5.0', '0.4.0', '0.3.0']);
    expect(previousRelease(changelog, '0.5.0')).toEqual({ version: '0.4.0', commit: '269978ec8b43c5b8ed4dd81a2467d8b1c0b0f046' });
    expect(previousRelease(changelog, '0.4.0')).toEqual({ version: '0.3.0', commit: '1111111111111111111111111111111111111111' });
    expect(() => previousRelease(changelog, '0.6.0')).toThrow(/no entry for package.json's version 0.6.0/);
    expect(() => previousRelease(changelog.replace(/Commit: 2699.*/, ''), '0.5.0')).toThrow(/0.4.0 names no commit/);
  });

  it("this repository's CHANGELOG.md names the release before package.json's version", () => {
    expect('error' in previous ? previous.error : null).toBeNull();
  });
});

describe.skipIf(unavailable !== null)('a rolling upgrade from the previous release, behind HAProxy', () => {
  let old: Release;
  const current: Release = { version: CURRENT_VERSION, cli: CURRENT_CLI };

  beforeAll(() => {
    if ('error' in previous) throw new Error(previous.error);
    const build: ReleaseBuild = buildRelease(REPOSITORY, previous.commit);
    old = { version: previous.version, cli: build.cli };
  }, 20 * 60_000);
  afterAll(async () => {
    await Promise.all([...children].map((c) => stopChild(c, 5_000)));
  }, 60_000);

  it(
    'on MariaDB: three instances, each upgraded in turn, one rolled back and forward, then finish: no request fails',
    async () => {
      const cleanups: (() => Promise<unknown>)[] = [];
      const database = await createEmptyDatabase('mysql');
      const name = new URL(database.url).pathname.slice(1);
      try {
        const outcome = await rollingUpgrade(
          {
            balancerPort: 4100,
            instancePorts: [4101, 4102, 4103],
            databaseUrl: () => database.url,
            connect: () => createConnection(TEST_MYSQL_URL!),
            databaseName: name,
          },
          old,
          current,
          cleanups,
        );
        report('MariaDB', outcome);
      } finally {
        for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
        await database.destroy();
      }
    },
    10 * 60_000,
  );

  describe.skipIf(galeraMissing !== null)('on a three-node Galera cluster', () => {
    let cluster: GaleraCluster | undefined;
    beforeAll(async () => {
      cluster = await GaleraCluster.start({ basePort: 4120, galeraPort: 4130 });
      // As docs/upgrading.md asks before an upgrade from 0.4.0 on Galera: the server sends an autocommit statement
      // that a replicated DDL aborted again, up to 10 times (0.4.0 does not; this release does so itself).
      for (const node of [1, 2, 3]) {
        const conn = await cluster.connect(node);
        await conn.query('SET GLOBAL wsrep_retry_autocommit = 10');
        await conn.end();
      }
    }, 240_000);
    afterAll(async () => {
      await Promise.all([...children].map((c) => stopChild(c, 5_000)));
      await cluster?.stop();
    }, 120_000);

    it(
      'one instance per node, each upgraded in turn, one rolled back and forward, then finish: no request fails',
      async () => {
        const c = cluster!;
        const cleanups: (() => Promise<unknown>)[] = [];
        const name = `tt_upgrade_${Date.now().toString(36)}`;
        const admin = await c.connect(1);
        await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
        await admin.end();
        try {
          const outcome = await rollingUpgrade(
            {
              balancerPort: 4110,
              instancePorts: [4111, 4112, 4113],
              databaseUrl: (i) => c.url(i + 1, name),
              // Deadlines above the harness's eviction time (docs/operating.md, Running on a Galera cluster).
              env: { TT_DB_STATEMENT_TIMEOUT_MS: '10000', TT_DB_ACQUIRE_TIMEOUT_MS: '10000', TT_DB_CONNECT_TIMEOUT_MS: '2000' },
              connect: () => c.connect(1),
              databaseName: name,
            },
            old,
            current,
            cleanups,
          );
          report('Galera', outcome, { expandPhase: `i1 ${old.version} → ${current.version}`, oldVersion: old.version });
        } finally {
          for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
          const conn = await c.connect(1);
          await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
          await conn.end();
        }
      },
      10 * 60_000,
    );
  });
});
