import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOf } from '../bench/generate.js';
import { buildSandboxBundle } from '../db/sandbox-bundle.js';
import { createApp } from '../src/app/create-app.js';
import { createLogger } from '../src/observability/logger.js';
import { runCli } from '../src/cli/program.js';
import { loadConfig } from '../src/config/config.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { createTestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
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
    const row = await t.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
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
    expect(created.code, created.stderr).toBe(0);
    const creds = JSON.parse(created.stdout) as Record<string, string>;
    expect(Object.keys(creds).sort()).toEqual(['client_id', 'client_secret']);
    expect(Buffer.from(creds.client_secret!, 'base64url').length).toBeGreaterThanOrEqual(32);
    const listed = tracking(['client', 'list'], env);
    expect(listed.stdout).toContain(creds.client_id);
    expect(listed.stdout).not.toContain(creds.client_secret);
  });

  it.skipIf(!enabled)(
    'explains usage errors and configuration errors',
    () => {
      expect(tracking(['frobnicate'], env).code).toBe(2);
      const badPort = tracking(['migrate'], { ...env, PORT: 'eighty' });
      expect(badPort.code).toBe(2);
      expect(badPort.stderr).toMatch(/PORT/);
      expect(tracking(['exception', 'clear', 'nope'], env).code).toBe(2);
      expect(tracking(['exception', 'clear', '00000000-0000-4000-8000-000000000000', '--note', 'x'], env).code).toBe(1);
    },
    120_000,
  ); // several CLI processes, one after another
});

/** The CLI in this process, against an open database (faster than the bin for data-heavy checks). */
async function inProcess(database: TestDatabase['database'], args: string[], tty = false) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: tty },
    env: {},
    now: () => new Date(),
    database,
  });
  return { code, stdout, stderr };
}

describe('tracking --help', () => {
  const COMMANDS = [
    [],
    ['serve'],
    ['migrate'],
    ['ingest'],
    ['evaluate'],
    ['exception'],
    ['exception', 'list'],
    ['exception', 'clear'],
    ['client'],
    ['client', 'create'],
    ['client', 'list'],
    ['client', 'disable'],
    ['client', 'rotate-secret'],
    ['client', 'grant'],
    ['client', 'revoke'],
    ['subscription'],
    ['subscription', 'list'],
    ['delivery'],
    ['delivery', 'list'],
    ['delivery', 'retry'],
    ['deliver'],
    ['keys'],
    ['keys', 'generate'],
  ];

  it.each(COMMANDS.map((c) => [c.join(' ') || '(none)', c] as const))('%s --help prints usage and does nothing else', (_label, command) => {
    const dir = mkdtempSync(join(tmpdir(), 'tt-help-'));
    try {
      const path = join(dir, 'fresh.sqlite');
      // A bad PORT too: help must not even read the configuration.
      const result = tracking([...command, '--help'], { DATABASE_URL: `sqlite:${path}`, PORT: 'eighty' });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: ${['tracking', ...command].join(' ')} `));
      expect(result.stderr).toBe('');
      expect(existsSync(path)).toBe(false);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers usage errors with exit 2, the reason and the help on stderr', () => {
    for (const args of [
      ['ingest', '--all', 'x.json'],
      ['ingest'],
      ['exception', 'list', '--status', 'OPEN'],
      ['keys'],
      ['client', 'frobnicate'],
    ]) {
      const result = tracking(args, {});
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^tracking [a-z ]*: .+\n\nUsage: tracking/);
      expect(result.stdout).toBe('');
    }
  });
});

describe('tracking keys generate', () => {
  it('prints a TT_SIGNING_KEY and TT_SECRET_PEPPER that start production and sign tokens', async () => {
    const result = tracking(['keys', 'generate'], {});
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    const signingKey = /^TT_SIGNING_KEY='(\{.+\})'$/.exec(lines[0]!)![1]!;
    const pepper = /^TT_SECRET_PEPPER=([A-Za-z0-9_-]{43})$/.exec(lines[1]!)![1]!;
    expect(JSON.parse(signingKey)).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      use: 'sig',
      kid: expect.any(String),
      d: expect.any(String),
    });

    const json = JSON.parse(tracking(['keys', 'generate', '--json'], {}).stdout) as Record<string, string>;
    expect(Object.keys(json).sort()).toEqual(['TT_SECRET_PEPPER', 'TT_SIGNING_KEY']);
    expect(json.TT_SIGNING_KEY).not.toBe(signingKey);

    const t = await createTestDatabase('sqlite');
    try {
      const config = loadConfig({
        TT_ENVIRONMENT: 'production',
        TT_BASE_URL: 'https://tracking.example.com',
        TT_SIGNING_KEY: signingKey,
        TT_SECRET_PEPPER: pepper,
      });
      const app = await createApp({ config, database: t.database, logger: createLogger('silent') });
      const creds = await app.clients.createClient({ name: 'prod', account: 'acme' });
      const response = await app.fetch('https://tracking.example.com/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: creds.client_id,
          client_secret: creds.client_secret,
        }).toString(),
      });
      expect(response.status).toBe(200);
      const token = ((await response.json()) as { access_token: string }).access_token;
      const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string; alg: string };
      expect(header).toMatchObject({ alg: 'ES256', kid: JSON.parse(signingKey).kid });
    } finally {
      await t.destroy();
    }
  });
});

describe.each(dialects)('tracking exception list and streamed ingest on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    dir = mkdtempSync(join(tmpdir(), 'tt-cli-'));
    for (const raw of buildSandboxBundle(new Date())) {
      const parsed = parseBundle(raw);
      if (!parsed.ok) throw new Error('sandbox bundle invalid');
      await ingestBundle(t.database, parsed.bundle, { now: () => new Date() });
    }
  });
  afterAll(async () => {
    await t?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  interface Listed {
    shipment: { carrierCode: string; carrierBookingReference: string; billOfLadingNumber: string | null };
    updatedAt: string;
    exception: { exceptionID: string; exceptionType: string; status: string };
  }
  const list = async (...args: string[]) => {
    const result = await inProcess(t.database, ['exception', 'list', '--json', ...args]);
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as Listed[];
  };

  it.skipIf(!enabled)('lists stored exceptions newest first, filtered by status, type and account', async () => {
    const all = await list();
    const stored = await t.database.db.selectFrom('tracking_exception').select(['exception_id', 'status', 'exception_type']).execute();
    expect(all).toHaveLength(stored.length);
    expect(all.map((e) => e.updatedAt)).toEqual([...all.map((e) => e.updatedAt)].sort().reverse());

    const detected = await list('--status', 'DETECTED');
    expect(detected.length).toBe(stored.filter((r) => r.status === 'DETECTED').length);
    expect(detected.length).toBeGreaterThan(0);
    expect(detected.every((e) => e.exception.status === 'DETECTED')).toBe(true);

    const rollovers = await list('--type', 'rollover', '--status', 'RESOLVED');
    expect(rollovers.length).toBeGreaterThan(0);
    expect(rollovers.every((e) => e.exception.exceptionType === 'ROLLOVER' && e.exception.status === 'RESOLVED')).toBe(true);

    // CMDUPUS2600087 belongs to other-account only (README's sandbox table).
    const other = await list('--account', 'other-account');
    expect(other.length).toBeGreaterThan(0);
    expect(other.every((e) => e.shipment.billOfLadingNumber === 'CMDUPUS2600087')).toBe(true);
    expect((await list('--account', 'demo-account')).some((e) => e.shipment.billOfLadingNumber === 'CMDUPUS2600087')).toBe(false);
    expect(await list('--account', 'nobody')).toEqual([]);

    expect(await list('--limit', '2')).toEqual(all.slice(0, 2));
    const table = await inProcess(t.database, ['exception', 'list', '--status', 'DETECTED']);
    expect(table.stdout).toMatch(/^EXCEPTION_ID\s+TYPE\s+SEVERITY\s+STATUS\s+CARRIER\s+BOOKING\s+BILL_OF_LADING/);
    expect(table.stdout.trim().split('\n')).toHaveLength(detected.length + 1);
    expect((await inProcess(t.database, ['exception', 'list', '--limit', '0'])).code).toBe(2);
  });

  it.skipIf(!enabled)(
    'streams a large file: a JSON summary per file, and broken JSON named by line and column with nothing written',
    async () => {
      const indexes = Array.from({ length: 170 }, (_, i) => 30_000 + i * 3);
      const raw = bundleOf(indexes, { tag: 'CLI' }) as { events: unknown[] };
      expect(raw.events.length).toBeGreaterThan(10_000);
      const text = JSON.stringify(raw, null, 1);
      const file = join(dir, 'large.json');
      writeFileSync(file, text);

      // Broken near the end: a colon missing on one line of the pretty-printed file.
      const lines = text.split('\n');
      const target = lines.length - 40;
      const broken = lines.map((line, i) => (i === target ? line.replace('": ', '" ') : line));
      const column = lines[target]!.indexOf('": ') + 3;
      const brokenFile = join(dir, 'broken.json');
      writeFileSync(brokenFile, broken.join('\n'));
      const before = await tableCounts(t);
      const failed = tracking(['ingest', brokenFile], { DATABASE_URL: t.url });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toBe(`${brokenFile}:${target + 1}:${column}: invalid JSON, nothing written: expected ':'\n`);
      expect(await tableCounts(t)).toEqual(before);

      const done = tracking(['ingest', '--json', file, '-'], { DATABASE_URL: t.url }, JSON.stringify(maeuBundle()));
      expect(done.stderr).toBe('');
      expect(done.code).toBe(0);
      const summaries = done.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(summaries).toEqual([
        expect.objectContaining({ file, shipmentsCreated: 170, eventsStored: raw.events.length, eventsAlreadyStored: 0 }),
        expect.objectContaining({ file: 'stdin', shipmentsCreated: 2 }),
      ]);
    },
    // Two CLI processes each write 10,000 events: a harness budget for a busy shared machine, not an assertion.
    120_000,
  );

  it.skipIf(!enabled)('shows progress on a terminal only', async () => {
    const file = join(dir, 'progress.json');
    writeFileSync(
      file,
      JSON.stringify(
        bundleOf(
          Array.from({ length: 40 }, (_, i) => 60_000 + i * 3),
          { tag: 'PRG' },
        ),
      ),
    );
    const onTty = await inProcess(t.database, ['ingest', file], true);
    expect(onTty.code).toBe(0);
    expect(onTty.stderr).toContain(`\r\x1b[K${file}: validated 1,000 entries`);
    expect(onTty.stderr).toMatch(/writing 40 shipment\(s\), [\d,]+ event\(s\)…/);
    expect(onTty.stderr.endsWith('\r\x1b[K')).toBe(true);
    const piped = await inProcess(t.database, ['ingest', file], false);
    expect(piped).toMatchObject({ code: 0, stderr: '' });
  });
});

interface Banner {
  message: string;
  environment: string;
  urls: Record<string, string>;
  graphiql: boolean;
  tracing: string | false;
  sandboxDemoClient?: { account: string; client_id: string; client_secret: string };
}

/** Starts `tracking serve` and resolves with its JSON banner line (stdout is a pipe: no human banner). */
async function startServe(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'tt-serve-'));
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'tracking.sqlite')}`,
      TT_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const banner = await new Promise<Banner>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('listening on'));
      if (line) resolve(JSON.parse(line) as Banner);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  const base = banner.urls.rest!.replace('/v2/shipments', '').replace('localhost', '127.0.0.1');
  return {
    banner,
    base,
    databaseUrl: `sqlite:${join(dir, 'tracking.sqlite')}`,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function tokenFrom(base: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('tracking serve (README first command) over a real socket', () => {
  it('starts on the embedded store with sandbox data and answers with the demo client of its JSON banner', async () => {
    const serve = await startServe({});
    try {
      const { banner, base } = serve;
      // A JSON log line, written even at TT_LOG_LEVEL=warn; stdout is no TTY, so no human banner.
      expect(banner).toMatchObject({ environment: 'sandbox', graphiql: true, tracing: false });
      expect(banner.message).toMatch(/^track-and-trace sandbox listening on http:\/\/localhost:\d+$/);
      expect(
        serve
          .output()
          .trim()
          .split('\n')
          .every((l) => l.startsWith('{')),
      ).toBe(true);
      const demo = banner.sandboxDemoClient!;
      expect(demo.account).toBe('demo-account');

      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect((await fetch(`${base}/ready`)).status).toBe(200);
      const access_token = await tokenFrom(base, demo.client_id, demo.client_secret);
      const graphql = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${access_token}` },
        body: JSON.stringify({ query: '{ __type(name: "ShipmentTracking") { name } }' }),
      });
      // extensions.cost (docs/graphql.md, Cost) rides along with every answer.
      expect(await graphql.json()).toMatchObject({ data: { __type: { name: 'ShipmentTracking' } }, extensions: { cost: {} } });
      const lookup = await fetch(`${base}/v2/shipments?billOfLadingNumber=MAEU262150002`, {
        headers: { Authorization: `Bearer ${access_token}` },
      });
      expect(lookup.status).toBe(200);
      const snapshot = ((await lookup.json()) as any).shipmentTracking;
      expect(snapshot.containers.length).toBeGreaterThan(0);
      expect(new Set(snapshot.exceptions.map((e: any) => e.status))).toEqual(new Set(['DETECTED', 'RESOLVED']));
      const graphiql = await fetch(`${base}/graphql`, { headers: { Accept: 'text/html' } });
      expect(await graphiql.text()).toMatch(/GraphiQL/i);

      const metrics = await (await fetch(banner.urls.metrics!.replace('localhost', '127.0.0.1'))).text();
      // The seed ran in this process; the statement hook is installed by serve.
      expect(metrics).toMatch(/^tt_ingest_bundles_total\{outcome="ingested"\} [1-9]/m);
      expect(metrics).toMatch(/^tt_db_statement_duration_seconds_count\{statement="select",outcome="ok"\} [1-9]/m);
    } finally {
      await serve.stop();
    }
  });

  it('hands the CLI of another shell the address it answers at: carrier add prints it, not localhost:4000', async () => {
    const serve = await startServe({});
    try {
      const port = new URL(serve.banner.urls.rest!).port;
      expect(port).not.toBe('4000');
      // Another shell: the same database, neither PORT nor TT_BASE_URL.
      const added = tracking(['carrier', 'add', 'OOLU', '--json'], { DATABASE_URL: serve.databaseUrl, PORT: '', TT_BASE_URL: '' });
      expect(added.code, added.stderr).toBe(0);
      expect((JSON.parse(added.stdout) as { notificationUrl: string }).notificationUrl).toBe(
        `http://localhost:${port}/v2/carrier-notifications/OOLU`,
      );
    } finally {
      await serve.stop();
    }
  });

  it('serves /metrics only on TT_METRICS_PORT when it is set', async () => {
    const port = await freePort();
    const serve = await startServe({ TT_METRICS_PORT: String(port), TT_SEED_SANDBOX: 'false' });
    try {
      expect(serve.banner.urls.metrics).toBe(`http://localhost:${port}/metrics`);
      expect((await fetch(`${serve.base}/metrics`)).status).toBe(404);
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('tt_http_requests_total');
      expect((await fetch(`http://127.0.0.1:${port}/graphql`)).status).toBe(404);
    } finally {
      await serve.stop();
    }
  });

  it('exports OpenTelemetry spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set, continuing the caller trace', async () => {
    const received: unknown[] = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces') received.push(JSON.parse(body));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const collectorPort = (collector.address() as AddressInfo).port;
    const serve = await startServe({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      TT_SEED_SANDBOX: 'false',
    });
    try {
      expect(serve.banner.tracing).toBe(`http://127.0.0.1:${collectorPort}`);
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      const response = await fetch(`${serve.base}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', traceparent: `00-${traceId}-b7ad6b7169203331-01` },
        body: JSON.stringify({ query: 'query Probe { __typename }' }),
      });
      expect(response.headers.get('x-request-id')).toBe(traceId);
      await expect.poll(() => JSON.stringify(received), { timeout: 10_000 }).toContain('query.Probe');
      const spans = JSON.stringify(received);
      expect(spans).toContain('POST /graphql');
      // OTLP/JSON carries ids as hex: the server span continues the caller's trace.
      expect(spans).toContain(traceId);
    } finally {
      await serve.stop();
      collector.close();
    }
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe.each(dialects)('tracking push commands on $name', ({ name, enabled }) => {
  let f: Awaited<ReturnType<typeof createTestApp>>;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name);
    await f.ingest({
      carrierCode: 'EGLV',
      shipments: [{ carrierBookingReference: 'CLI-PUSH-1', billOfLadingNumber: 'CLIPUSHBL1', carrierCode: 'EGLV', accounts: ['acct-cli'] }],
    });
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  it.skipIf(!enabled)(
    'grants the subscribe scope, lists subscriptions and deliveries, retries a failed delivery, delivers once',
    async () => {
      const creds = await f.app.clients.createClient({ name: 'cli push', account: 'acct-cli' });
      const granted = await inProcess(f.t.database, ['client', 'grant', creds.client_id, 'track-and-trace.subscribe']);
      expect(granted.code).toBe(0);
      expect(granted.stdout).toContain('track-and-trace.read track-and-trace.subscribe');
      expect((await inProcess(f.t.database, ['client', 'grant', creds.client_id, 'track-and-trace.write'])).code).toBe(2);
      expect((await inProcess(f.t.database, ['client', 'grant', 'tt_nobody', 'track-and-trace.subscribe'])).code).toBe(1);

      const { access_token } = await f.app.tokens.issueToken({
        clientId: creds.client_id,
        scope: 'track-and-trace.read track-and-trace.subscribe',
      });
      const created = await f.send('POST', '/v2/subscriptions', access_token, {
        callbackUrl: receiver.url,
        billOfLadingNumber: 'CLIPUSHBL1',
        triggerTypes: ['EVENT_TRIGGER'],
      });
      const { subscriptionID, secret } = (await created.json()) as { subscriptionID: string; secret: string };
      const listed = await inProcess(f.t.database, ['subscription', 'list', '--json']);
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ subscriptionID, clientID: creds.client_id, status: 'ACTIVE' })]);
      expect(listed.stdout).not.toContain(secret);

      receiver.answer = () => 500;
      const event = {
        eventID: 'c1100000-0000-4000-8000-000000000001',
        eventType: 'TRANSPORT',
        eventClassifierCode: 'EST',
        eventDateTime: '2026-10-21T20:00:00Z',
        eventCreatedDateTime: '2026-10-10T00:00:00Z',
        transportEventTypeCode: 'ARRI',
        documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'CLI-PUSH-1' }],
        transportCall: {
          transportCallID: 'TC-CLI',
          modeOfTransport: 'VESSEL',
          UNLocationCode: 'SGSIN',
          vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
        },
      };
      await f.ingest({ carrierCode: 'EGLV', events: [event] });
      // Given up at once: a retry period of zero.
      await f.t.database.db.updateTable('webhook_delivery').set({ created_at: '2000-01-01T00:00:00.000Z' }).execute();
      await f.app.deliveries.runOnce();
      const failed = JSON.parse((await inProcess(f.t.database, ['delivery', 'list', '--status', 'FAILED', '--json'])).stdout) as any[];
      expect(failed).toEqual([expect.objectContaining({ subscriptionID, status: 'FAILED', attempts: 1, lastStatus: 500 })]);

      receiver.answer = () => 200;
      expect((await inProcess(f.t.database, ['delivery', 'retry', failed[0].deliveryID])).code).toBe(0);
      expect((await inProcess(f.t.database, ['delivery', 'retry', failed[0].deliveryID])).code).toBe(1);
      const once = await inProcess(f.t.database, ['deliver', '--once']);
      expect(once.code).toBe(0);
      expect(JSON.parse(once.stdout)).toMatchObject({ delivered: 1 });
      expect(receiver.accepted.at(-1)?.json.transmissionHeader.triggeredByEvent).toBe(event.eventID);
      const table = await inProcess(f.t.database, ['delivery', 'list', '--subscription', subscriptionID]);
      expect(table.stdout).toMatch(/DELIVERED\s+2\s+200/);
    },
  );
});
