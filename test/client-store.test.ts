import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientSecretHasher } from '../src/auth/client-secrets.js';
import { ClientInputError, ClientStore } from '../src/auth/client-store.js';
import { PEPPER_SECRET_NAME, resolvePepper } from '../src/auth/pepper.js';
import { storeServiceSecretOnce } from '../src/store/housekeeping/service-secrets.js';
import { ConfigError } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

const sandbox = { environment: 'sandbox', secretPepper: undefined } as const;

/** Counts secret comparisons, to show an unknown client_id costs what a wrong secret costs. */
class CountingHasher extends ClientSecretHasher {
  verifications = 0;
  override check(secret: string, storedHash: string): 'current' | 'previous' | false {
    this.verifications++;
    return super.check(secret, storedHash);
  }
}

describe.each(dialects)('client store on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let store: ClientStore;
  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    store = await ClientStore.open(t.database.db, sandbox);
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('creates a client whose credentials authenticate', async () => {
    const creds = await store.createClient({ name: 'Acme TMS', account: 'ACME' });
    expect(Object.keys(creds).sort()).toEqual(['client_id', 'client_secret']);
    const client = await store.authenticateClient(creds.client_id, creds.client_secret);
    expect(client).toMatchObject({ clientId: creds.client_id, name: 'Acme TMS', accountId: 'ACME', disabledAt: null });
    expect(await store.isClientActive(creds.client_id)).toBe(true);
  });

  it.skipIf(!enabled)('stores only a hash of the secret', async () => {
    const creds = await store.createClient({ name: 'Hash check', account: 'ACME' });
    const row = await t.database.db.selectFrom('api_client').selectAll().where('client_id', '=', creds.client_id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(creds.client_secret);
  });

  it.skipIf(!enabled)('refuses a wrong secret, an unknown id and a case variant of the id', async () => {
    const creds = await store.createClient({ name: 'Acme', account: 'ACME' });
    expect(await store.authenticateClient(creds.client_id, 'wrong')).toBeNull();
    expect(await store.authenticateClient(creds.client_id, '')).toBeNull();
    expect(await store.authenticateClient('tt_unknown', creds.client_secret)).toBeNull();
    expect(await store.authenticateClient(creds.client_id.toUpperCase(), creds.client_secret)).toBeNull();
    expect(await store.authenticateClient('', creds.client_secret)).toBeNull();
    expect(await store.authenticateClient('x'.repeat(500), creds.client_secret)).toBeNull();
    expect(await store.isClientActive('tt_unknown')).toBe(false);
  });

  it.skipIf(!enabled)('compares a secret for an unknown client_id just as for a wrong secret', async () => {
    const hasher = new CountingHasher(await resolvePepper(t.database.db, sandbox));
    const counted = new ClientStore(t.database.db, hasher);
    const creds = await counted.createClient({ name: 'Timing', account: 'ACME' });
    hasher.verifications = 0;
    await counted.authenticateClient(creds.client_id, 'wrong');
    expect(hasher.verifications).toBe(1);
    await counted.authenticateClient('tt_00000000000000000000000000000000', 'wrong');
    expect(hasher.verifications).toBe(2);
  });

  it.skipIf(!enabled)('a disabled client cannot authenticate and is no longer active', async () => {
    const creds = await store.createClient({ name: 'To disable', account: 'ACME' });
    expect(await store.disableClient(creds.client_id)).toBe(true);
    expect(await store.authenticateClient(creds.client_id, creds.client_secret)).toBeNull();
    expect(await store.isClientActive(creds.client_id)).toBe(false);
    const first = (await store.getClient(creds.client_id))?.disabledAt;
    expect(first).toEqual(expect.any(String));
    expect(await store.disableClient(creds.client_id)).toBe(true);
    expect((await store.getClient(creds.client_id))?.disabledAt).toBe(first);
    expect(await store.disableClient('tt_unknown')).toBe(false);
  });

  it.skipIf(!enabled)('rotating the secret makes the old one stop working', async () => {
    const creds = await store.createClient({ name: 'To rotate', account: 'ACME' });
    const rotated = await store.rotateSecret(creds.client_id);
    expect(rotated?.client_id).toBe(creds.client_id);
    expect(rotated?.client_secret).not.toBe(creds.client_secret);
    expect(await store.authenticateClient(creds.client_id, creds.client_secret)).toBeNull();
    expect(await store.authenticateClient(creds.client_id, rotated?.client_secret ?? '')).not.toBeNull();
    expect(await store.rotateSecret('tt_unknown')).toBeNull();
  });

  it.skipIf(!enabled)('lists clients without secrets or hashes', async () => {
    const clients = await store.listClients();
    expect(clients.length).toBeGreaterThanOrEqual(5);
    for (const c of clients) {
      expect(Object.keys(c).sort()).toEqual([
        'accountId',
        'clientId',
        'createdAt',
        'disabledAt',
        'name',
        'scopes',
        'secretPepper',
        'secretRotatedAt',
      ]);
    }
  });

  it.skipIf(!enabled)('grants and revokes the subscribe scope; every client keeps the read scope', async () => {
    const creds = await store.createClient({ name: 'Scoped', account: 'ACME' });
    expect((await store.getClient(creds.client_id))?.scopes).toEqual(['track-and-trace.read']);
    expect(await store.setScope(creds.client_id, 'track-and-trace.subscribe', true)).toEqual([
      'track-and-trace.read',
      'track-and-trace.subscribe',
    ]);
    expect(await store.setScope(creds.client_id, 'track-and-trace.subscribe', false)).toEqual(['track-and-trace.read']);
    await expect(store.setScope(creds.client_id, 'track-and-trace.read', false)).rejects.toThrow(ClientInputError);
    await expect(store.setScope(creds.client_id, 'track-and-trace.write', true)).rejects.toThrow(/unknown scope/);
    expect(await store.setScope('tt_nobody', 'track-and-trace.subscribe', true)).toBeNull();
  });

  it.skipIf(!enabled)('rejects an empty or oversized name or account', async () => {
    await expect(store.createClient({ name: ' ', account: 'ACME' })).rejects.toThrow(ClientInputError);
    await expect(store.createClient({ name: 'n', account: '' })).rejects.toThrow(/account/);
    await expect(store.createClient({ name: 'n'.repeat(201), account: 'ACME' })).rejects.toThrow(/name/);
  });

  it.skipIf(!enabled)('persists the sandbox pepper: credentials work over a new connection', async () => {
    const creds = await store.createClient({ name: 'Reconnect', account: 'ACME' });
    const again = connectDatabase(t.url);
    try {
      const reopened = await ClientStore.open(again.db, sandbox);
      expect(await reopened.authenticateClient(creds.client_id, creds.client_secret)).not.toBeNull();
      const rows = await again.db.selectFrom('service_secret').select('name').where('name', '=', PEPPER_SECRET_NAME).execute();
      expect(rows).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it.skipIf(!enabled)('uses a configured pepper instead, and hashes made under another pepper fail', async () => {
    const creds = await store.createClient({ name: 'Pepper change', account: 'ACME' });
    const configured = await ClientStore.open(t.database.db, { environment: 'sandbox', secretPepper: 'p'.repeat(32) });
    expect(await configured.authenticateClient(creds.client_id, creds.client_secret)).toBeNull();
  });

  it.skipIf(!enabled)('answers isClientActive from memory only within the configured TTL', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const cached = await ClientStore.open(t.database.db, sandbox, { activeCacheTtlMs: 1000, now: () => new Date(now) });
    const creds = await store.createClient({ name: 'Cached', account: 'ACME' });
    expect(await cached.isClientActive(creds.client_id)).toBe(true);
    await store.disableClient(creds.client_id); // another process, in effect
    expect(await cached.isClientActive(creds.client_id)).toBe(true);
    now += 1001;
    expect(await cached.isClientActive(creds.client_id)).toBe(false);
    // With the default (no cache) the change is seen on the next call.
    const uncached = await ClientStore.open(t.database.db, sandbox);
    expect(await uncached.isClientActive(creds.client_id)).toBe(false);
  });
});

describe.each(dialects)('pepper on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('production refuses to run without a configured pepper and never generates one', async () => {
    await expect(resolvePepper(t.database.db, { environment: 'production', secretPepper: undefined })).rejects.toThrow(ConfigError);
    expect(await t.database.db.selectFrom('service_secret').selectAll().execute()).toEqual([]);
    const configured = 'x'.repeat(40);
    expect(await resolvePepper(t.database.db, { environment: 'production', secretPepper: configured })).toBe(configured);
  });

  it.skipIf(!enabled)('two processes starting at once agree on one generated pepper', async () => {
    const other = connectDatabase(t.url);
    try {
      const peppers = await Promise.all([
        resolvePepper(t.database.db, sandbox),
        resolvePepper(other.db, sandbox),
        resolvePepper(other.db, sandbox),
      ]);
      expect(new Set(peppers).size).toBe(1);
      expect(peppers[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await resolvePepper(t.database.db, sandbox)).toBe(peppers[0]);
    } finally {
      await other.close();
    }
  });

  it.skipIf(!enabled)('the second writer of a service secret gets the first value back', async () => {
    expect(await storeServiceSecretOnce(t.database.db, 'race-probe', 'first')).toBe('first');
    expect(await storeServiceSecretOnce(t.database.db, 'race-probe', 'second')).toBe('first');
  });
});
