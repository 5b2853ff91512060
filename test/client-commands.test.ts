import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientStore } from '../src/auth/client-store.js';
import { loadConfig, type Config } from '../src/config/config.js';
import { runCaptured, type CliRun } from './support/cli-run.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

describe.each(dialects)('tracking client commands on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let config: Config;
  const run = (...args: string[]): Promise<CliRun> =>
    runCaptured(['client', ...args], { env: { DATABASE_URL: t.url }, database: t.database });
  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    config = loadConfig({ DATABASE_URL: t.url });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('create --json prints one object with exactly client_id and client_secret', async () => {
    const r = await run('create', '--name', 'Acme TMS', '--account', 'ACME', '--json');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const creds = JSON.parse(lines[0] ?? '') as Record<string, string>;
    expect(Object.keys(creds).sort()).toEqual(['client_id', 'client_secret']);
    const store = await ClientStore.open(t.database.db, config);
    expect(await store.authenticateClient(creds.client_id ?? '', creds.client_secret ?? '')).toMatchObject({
      accountId: 'ACME',
      name: 'Acme TMS',
    });
  });

  it.skipIf(!enabled)('create without --json shows the credentials and says the secret is shown once', async () => {
    const r = await run('create', '--name=Globex', '--account=GLOBEX');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/client_id:\s+tt_[0-9a-f]{32}/);
    expect(r.stdout).toMatch(/client_secret:\s+[A-Za-z0-9_-]{43}/);
    expect(r.stdout).toMatch(/shown only once/);
  });

  it.skipIf(!enabled)('list shows clients without secrets, as a table or JSON', async () => {
    const json = await run('list', '--json');
    expect(json.code).toBe(0);
    const clients = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(clients.map((c) => c.account)).toEqual(expect.arrayContaining(['ACME', 'GLOBEX']));
    for (const c of clients) {
      expect(Object.keys(c).sort()).toEqual([
        'account',
        'client_id',
        'created_at',
        'disabled_at',
        'name',
        'scopes',
        'secret_pepper',
        'secret_rotated_at',
      ]);
    }
    const text = await run('list');
    expect(text.stdout).toMatch(/^CLIENT_ID\s+ACCOUNT\s+NAME\s+STATUS/);
    expect(text.stdout).toContain('Acme TMS');
    expect(text.stdout).not.toMatch(/secret_hash|client_secret/);
  });

  it.skipIf(!enabled)('rotate-secret replaces the secret; disable stops the client', async () => {
    const created = JSON.parse((await run('create', '--name', 'Initech', '--account', 'INITECH', '--json')).stdout) as {
      client_id: string;
      client_secret: string;
    };
    const rotated = await run('rotate-secret', created.client_id, '--json');
    expect(rotated.code).toBe(0);
    const fresh = JSON.parse(rotated.stdout) as { client_id: string; client_secret: string };
    expect(Object.keys(fresh).sort()).toEqual(['client_id', 'client_secret']);
    const store = await ClientStore.open(t.database.db, config);
    expect(await store.authenticateClient(created.client_id, created.client_secret)).toBeNull();
    expect(await store.authenticateClient(created.client_id, fresh.client_secret)).not.toBeNull();

    const disabled = await run('disable', created.client_id);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toContain(created.client_id);
    expect(await store.authenticateClient(created.client_id, fresh.client_secret)).toBeNull();
    expect((await run('list')).stdout).toMatch(new RegExp(`${created.client_id}.*disabled`));
  });

  it.skipIf(!enabled)('exits 1 for an unknown client', async () => {
    for (const command of ['disable', 'rotate-secret']) {
      const r = await run(command, 'tt_nosuchclient');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/no client with id "tt_nosuchclient"/);
      expect(r.stdout).toBe('');
    }
  });

  it.skipIf(!enabled)('exits 2 with usage for bad invocations', async () => {
    const bad = [
      [],
      ['frobnicate'],
      ['create', '--name', 'X'],
      ['create', '--account', 'A'],
      ['create', '--name', 'X', '--account', 'A', '--bogus'],
      ['create', '--name', 'X', '--name', 'Y', '--account', 'A'],
      ['create', '--name', '  ', '--account', 'A'],
      ['create', '--name', 'X', '--account', 'A', 'extra'],
      ['create', '--name'],
      ['list', 'extra'],
      ['disable'],
      ['disable', 'a', 'b'],
      ['rotate-secret', '--json'],
    ];
    for (const args of bad) {
      const r = await run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^tracking client( [a-z-]+)?: .+\n\nUsage: tracking client/);
      expect(r.stdout).toBe('');
    }
    const before = JSON.parse((await run('list', '--json')).stdout) as unknown[];
    expect(before).toHaveLength(3);
  });

  it.skipIf(!enabled)('prints usage on help', async () => {
    const r = await run('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('tracking client create --name NAME --account ACCOUNT [--json]');
  });
});
