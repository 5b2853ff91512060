import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { STOPPED } from '../src/carriers/poller.js';
import { readPollState } from '../src/store/carriers/poll-state.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { FakeDcsaPublisher } from './support/fake-dcsa-publisher.js';
import { CARRIER, rawEquipmentEvent, rawShipment, CONTAINER_A } from './support/ingest-fixtures.js';

/**
 * `tracking poll` as an operator runs it, the real binary against a fake DCSA publisher, on each store
 * (issue 27): the process stays alive while a retry waits or a poll is due (on SQLite nothing else holds it),
 * `--once` ends after the last page is stored or with its retry budget spent (exit 1, the summary line), and
 * every clean exit, SIGTERM included, releases the lease.
 */
const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;
const START = Date.parse('2024-03-01T00:00:00Z');
const COUNT = 120;

function published(i: number): Record<string, unknown> {
  const created = new Date(START + i * 60_000).toISOString();
  return rawEquipmentEvent(1000 + i, { eventCreatedDateTime: created, eventDateTime: created, equipmentReference: CONTAINER_A });
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

describe.each(dialects)('tracking poll on $name', ({ name, enabled }) => {
  let t: TestDatabase | undefined;
  let publisher: FakeDcsaPublisher | undefined;
  let child: ChildProcess | undefined;

  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await publisher?.close();
    await t?.destroy();
    child = undefined;
    publisher = undefined;
    t = undefined;
  });

  async function setUp(script: FakeDcsaPublisher['script']) {
    publisher = await FakeDcsaPublisher.start({ apiKey: { header: 'X-API-Key', value: 'k-123' } });
    publisher.events = Array.from({ length: COUNT }, (_, i) => published(i));
    publisher.script = script;
    t = await createTestDatabase(name);
    const master = parseBundle({ carrierCode: CARRIER, shipments: [rawShipment()] });
    if (!master.ok) throw new Error('bundle');
    await ingestBundle(t.database, master.bundle, { now: () => new Date() });
    const add = spawnSync(
      process.execPath,
      [BIN, 'carrier', 'add', CARRIER, '--events-url', publisher.eventsUrl, '--api-key', 'k-123', '--poll-since', '2024-02-01T00:00:00Z'],
      { env: { ...process.env, DATABASE_URL: t.url, TT_BASE_URL: 'https://tracking.example.com', TT_LOG_LEVEL: 'warn' }, encoding: 'utf8' },
    );
    expect(add.status, add.stderr).toBe(0);
  }

  /** Starts `tracking ARGS`; resolves when it exits. */
  function run(args: string[]): { exited: Promise<Exit> } {
    const proc = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, DATABASE_URL: t!.url, TT_LOG_LEVEL: 'warn', TT_CARRIER_POLL_PAGE_SIZE: '20' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<Exit>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
    return { exited };
  }

  const stored = async () =>
    Number(
      (
        await t!.database.db
          .selectFrom('event')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const lease = async () => (await readPollState(t!.database.db, CARRIER))!;

  it.skipIf(!enabled)(
    '--once waits out a 429 (Retry-After: 1) and a 500 mid-feed, stores every event, exits 0, frees the lease',
    async () => {
      await setUp({ 2: { status: 429, retryAfter: '1' }, 3: { status: 500 } });
      const { code, stdout, stderr } = await run(['poll', '--once']).exited;
      expect(code, stderr).toBe(0);
      const lines = stdout.trim().split('\n');
      // The carrier's line, then the tracking fetcher's round (nothing to track here).
      expect(lines).toHaveLength(2);
      expect(JSON.parse(lines[1]!)).toMatchObject({ trackingFetches: 0 });
      expect(JSON.parse(lines[0]!)).toMatchObject({ carrierCode: CARRIER, events: COUNT, eventsStored: COUNT, retries: 2, error: null });
      expect(await stored()).toBe(COUNT);
      expect((await lease()).lease_owner).toBeNull();
    },
    120_000,
  );

  it.skipIf(!enabled)(
    '--once with its retry budget spent: exit 1 with the summary line; what was stored stays; the lease is free',
    async () => {
      const busy = { status: 429, retryAfter: '1' };
      await setUp({ 2: busy, 3: busy, 4: busy, 5: busy, 6: busy });
      const { code, stdout } = await run(['poll', '--once']).exited;
      expect(code).toBe(1);
      const summary = JSON.parse(stdout.trim().split('\n')[0]!);
      expect(summary).toMatchObject({ carrierCode: CARRIER, pages: 2, retries: 4 });
      expect(summary.error).toMatch(/after 5 tries/);
      expect(await stored()).toBe(40);
      const state = await lease();
      expect(state.lease_owner).toBeNull();
      expect(state.consecutive_failures).toBe(1);
    },
    120_000,
  );

  it.skipIf(!enabled)(
    'SIGTERM while a retry waits: --once stops, prints its summary, exits 1, and releases the lease at once',
    async () => {
      await setUp({ 2: { status: 429, retryAfter: '50' } });
      const running = run(['poll', '--once']);
      // The third request (the refused page) has been answered: the poller is waiting out its Retry-After.
      await expect.poll(() => publisher!.requests.length, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(3);
      await expect.poll(async () => (await lease()).lease_owner, { timeout: 30_000 }).not.toBeNull();
      // The operator sees who holds the lease, and until when.
      const { lease_owner: owner, lease_until: until } = await lease();
      const list = spawnSync(process.execPath, [BIN, 'carrier', 'list'], {
        env: { ...process.env, DATABASE_URL: t!.url, TT_BASE_URL: 'https://tracking.example.com', TT_LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
      expect(list.stdout).toContain(`${owner} until ${until}`);
      const json = spawnSync(process.execPath, [BIN, 'carrier', 'list', '--json'], {
        env: { ...process.env, DATABASE_URL: t!.url, TT_BASE_URL: 'https://tracking.example.com', TT_LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
      expect(JSON.parse(json.stdout)[0].poll).toMatchObject({ leaseOwner: owner, leaseUntil: until });
      child!.kill('SIGTERM');
      const { code, signal, stdout } = await running.exited;
      expect(signal).toBeNull();
      expect(code).toBe(1);
      expect(JSON.parse(stdout.trim())).toMatchObject({ carrierCode: CARRIER, pages: 2, error: STOPPED });
      const state = await lease();
      expect(state.lease_owner).toBeNull();
      // Due again at once for the next poller, and the stop is no failure of the carrier.
      expect(Date.parse(state.next_poll_at)).toBeLessThanOrEqual(Date.now());
      expect(state.consecutive_failures).toBe(0);
      expect(await stored()).toBe(40);
    },
    120_000,
  );

  it.skipIf(!enabled)(
    'without --once it keeps running between polls, polls again when due, and SIGTERM exits 0 with the lease free',
    async () => {
      await setUp({});
      const running = run(['poll']);
      await expect.poll(stored, { timeout: 30_000, interval: 100 }).toBe(COUNT);
      await expect.poll(async () => (await lease()).last_polled_at, { timeout: 30_000, interval: 100 }).not.toBeNull();
      const first = publisher!.requests.length;
      // Due again now: the running poller (not a new one) asks the carrier again at its next tick.
      await t!.database.db
        .updateTable('carrier_poll_state')
        .set({ next_poll_at: new Date(0).toISOString() })
        .execute();
      await expect.poll(() => publisher!.requests.length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(first);
      expect(child!.exitCode).toBeNull();
      await expect.poll(async () => (await lease()).lease_owner, { timeout: 30_000, interval: 100 }).toBeNull();
      child!.kill('SIGTERM');
      const { code, signal } = await running.exited;
      expect(signal).toBeNull();
      expect(code).toBe(0);
      expect((await lease()).lease_owner).toBeNull();
    },
    120_000,
  );
});
