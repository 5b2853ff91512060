import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { maeuBundle } from './support/fixture-bundle.js';

/**
 * The `tracking` bin as an operator runs it: the built CLI in a child
 * process, against a real database. `npm test` builds dist/ first.
 */
const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;

function tracking(args: string[], env: Record<string, string>, input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, TT_LOG_LEVEL: 'warn', ...env },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function tableCounts(t: TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['shipment', 'shipment_container', 'shipment_account', 'event', 'event_reference', 'shipment_event'] as const) {
    const row = await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

describe.each(dialects)('tracking CLI on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    dir = mkdtempSync(join(tmpdir(), 'tt-cli-'));
    env = { DATABASE_URL: t.url };
  });
  afterAll(async () => {
    await t?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!enabled)('ingests a bundle file, and re-ingesting it changes nothing', async () => {
    const file = join(dir, 'maeu.json');
    writeFileSync(file, JSON.stringify(maeuBundle()));
    const first = tracking(['ingest', file], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/maeu\.json: .*2 shipment/);
    const before = await tableCounts(t);
    expect(before.shipment).toBe(2);
    const again = tracking(['ingest', '-'], env, JSON.stringify(maeuBundle()));
    expect(again.code).toBe(0);
    expect(await tableCounts(t)).toEqual(before);
  });

  it.skipIf(!enabled)('rejects an invalid bundle with the field named, exit 1, and writes nothing', async () => {
    const bundle = maeuBundle();
    const bad = structuredClone(bundle) as any;
    bad.shipments[0].carrierBookingReference = 'NEW-BOOKING';
    bad.events[3].eventDateTime = '2026-13-40T25:00:00Z';
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    const before = await tableCounts(t);
    const result = tracking(['ingest', file], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/events\[3\]\.eventDateTime/);
    expect(result.stderr).toMatch(/nothing written/);
    expect(await tableCounts(t)).toEqual(before);

    const notJson = tracking(['ingest', '-'], env, '{"carrierCode": ');
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/invalid JSON/);
  });

  it.skipIf(!enabled)('creates API credentials once, as one JSON object with exactly client_id and client_secret', () => {
    const created = tracking(['client', 'create', '--name', 'ACME ERP', '--account', 'acme', '--json'], env);
    expect(created.code).toBe(0);
    const creds = JSON.parse(created.stdout) as Record<string, string>;
    expect(Object.keys(creds).sort()).toEqual(['client_id', 'client_secret']);
    expect(Buffer.from(creds.client_secret!, 'base64url').length).toBeGreaterThanOrEqual(32);
    const listed = tracking(['client', 'list'], env);
    expect(listed.stdout).toContain(creds.client_id);
    expect(listed.stdout).not.toContain(creds.client_secret);
  });

  it.skipIf(!enabled)('explains usage errors and configuration errors', () => {
    expect(tracking(['frobnicate'], env).code).toBe(2);
    const badPort = tracking(['migrate'], { ...env, PORT: 'eighty' });
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(/PORT/);
    expect(tracking(['exception', 'clear', 'nope'], env).code).toBe(2);
    expect(tracking(['exception', 'clear', '00000000-0000-4000-8000-000000000000', '--note', 'x'], env).code).toBe(1);
  });
});

describe('tracking serve (README first command) over a real socket', () => {
  it('starts on the embedded store with sandbox data and answers with the printed demo client', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tt-serve-'));
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'tracking.sqlite')}`, TT_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const ready = new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (/client_secret=\S+/.test(out)) resolve(out);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      const banner = await ready;
      const base = /listening on (http:\/\/localhost:\d+)/.exec(banner)![1]!.replace('localhost', '127.0.0.1');
      const clientId = /client_id=(\S+)/.exec(banner)![1]!;
      const clientSecret = /client_secret=(\S+)/.exec(banner)![1]!;
      expect(banner).toMatch(/GraphiQL\s+http:\/\/localhost:\d+\/graphql/);

      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect((await fetch(`${base}/ready`)).status).toBe(200);
      const tokenResponse = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      });
      expect(tokenResponse.status).toBe(200);
      const { access_token } = (await tokenResponse.json()) as { access_token: string };
      const graphql = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${access_token}` },
        body: JSON.stringify({ query: '{ __type(name: "ShipmentTracking") { name } }' }),
      });
      expect(await graphql.json()).toEqual({ data: { __type: { name: 'ShipmentTracking' } } });
      const lookup = await fetch(`${base}/v2/shipments?billOfLadingNumber=MAEU262150002`, {
        headers: { Authorization: `Bearer ${access_token}` },
      });
      expect(lookup.status).toBe(200);
      const snapshot = ((await lookup.json()) as any).shipmentTracking;
      expect(snapshot.containers.length).toBeGreaterThan(0);
      expect(new Set(snapshot.exceptions.map((e: any) => e.status))).toEqual(new Set(['DETECTED', 'RESOLVED']));
      const graphiql = await fetch(`${base}/graphql`, { headers: { Accept: 'text/html' } });
      expect(await graphiql.text()).toMatch(/GraphiQL/i);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
