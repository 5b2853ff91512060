import { createConnection } from 'mysql2/promise';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSandboxDemoClient } from '../src/app/sandbox-seed.js';
import { ClientStore } from '../src/auth/client-store.js';
import { connectDatabase, type Database } from '../src/db/connect.js';
import { checkEngine, classifyEngine, classifyGalera } from '../src/db/engine.js';
import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
import { ensureMigrationLeaseTable, MIGRATION_LEASE_TABLE } from '../src/store/housekeeping/migration-lease.js';
import { testConfig } from './support/app-fixture.js';
import { createEmptyDatabase, dialects, TEST_MYSQL_URL } from './support/databases.js';
import { migrations } from '../db/migrations/index.js';

/**
 * Start-up that every replica of a deployment may run at the same moment (issue 26): migrations under a lock
 * the database gives, with a wait message; the sandbox demo client created once whoever gets there first; a
 * warning that names an engine known to differ. (test/replicas-start.test.ts starts real processes.)
 */

// Every migration of the repository: the first process applies them all.
const ALL_MIGRATIONS = Object.keys(migrations('sqlite')).length;

describe.each(dialects)('start-up on $name', ({ name, enabled }) => {
  let empty: { url: string; destroy(): Promise<void> };
  const opened: Database[] = [];
  const open = () => {
    const database = connectDatabase(empty.url, { poolSize: 2 });
    opened.push(database);
    return database;
  };

  beforeAll(async () => {
    if (enabled) empty = await createEmptyDatabase(name);
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    await empty?.destroy();
  });

  it.skipIf(!enabled)('migrates once when processes start together: one applies everything, the others wait and find nothing', async () => {
    const logs: string[][] = [[], [], []];
    const results = await Promise.all(logs.map((log) => migrateToLatest(open(), { log: (_level, message) => log.push(message) })));
    expect(results.map((r) => r.length).sort()).toEqual([0, 0, ALL_MIGRATIONS]);
    const waited = logs.filter((log) => log.includes('waiting for another process to finish migrating the database'));
    expect(waited.length).toBeGreaterThanOrEqual(1);
    for (const log of waited) expect(log).toContain('migration lock acquired after waiting');
  });

  it.skipIf(!enabled)('waits while another process holds the lock, says so, and goes on when it is released', async () => {
    const messages: string[] = [];
    let release: () => Promise<void>;
    if (name === 'mysql') {
      // Another process's lease row, as a process on another Galera node would have written it.
      const holder = await createConnection(empty.url);
      await ensureMigrationLeaseTable(open().db as Kysely<unknown>);
      await holder.query(
        `INSERT INTO ${MIGRATION_LEASE_TABLE} (id, holder, lease_until) VALUES (1, 'another process', ?)
        ON DUPLICATE KEY UPDATE holder = VALUES(holder), lease_until = VALUES(lease_until)`,
        [Date.now() + 60_000],
      );
      release = async () => {
        await holder.query(`UPDATE ${MIGRATION_LEASE_TABLE} SET holder = NULL, lease_until = 0 WHERE holder = 'another process'`);
        await holder.end();
      };
    } else {
      const holder = open();
      await sql`begin immediate`.execute(holder.db);
      release = async () => void (await sql`rollback`.execute(holder.db));
    }
    const migrating = open();
    const done = migrateToLatest(migrating, { log: (_level, message) => messages.push(message) });
    await expect.poll(() => messages, { timeout: 10_000 }).toContain('waiting for another process to finish migrating the database');
    await release();
    expect(await done).toEqual([]);
    expect(messages).toContain('migration lock acquired after waiting');
    if (name === 'sqlite') {
      // The connection waits for locks as it did before, once the migrations are done.
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(migrating.db);
      expect(rows[0]?.timeout).toBe(5000);
    }
  });

  it.skipIf(!enabled || name !== 'mysql')('takes over a migration lease whose holder died (its lease ran out)', async () => {
    const holder = await createConnection(empty.url);
    try {
      await holder.query(`UPDATE ${MIGRATION_LEASE_TABLE} SET holder = 'a process killed mid-migration', lease_until = ? WHERE id = 1`, [
        Date.now() + 1500,
      ]);
      const messages: string[] = [];
      expect(await migrateToLatest(open(), { log: (_level, message) => messages.push(message) })).toEqual([]);
      expect(messages).toEqual(['waiting for another process to finish migrating the database', 'migration lock acquired after waiting']);
      const [rows] = await holder.query(`SELECT holder FROM ${MIGRATION_LEASE_TABLE}`);
      expect(rows).toEqual([{ holder: null }]);
    } finally {
      await holder.end();
    }
  });

  it.skipIf(!enabled)('creates the sandbox demo client once when processes ensure it at the same moment', async () => {
    const config = testConfig();
    const stores = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const database = open();
        return { database, clients: await ClientStore.open(database.db, config) };
      }),
    );
    const credentials = await Promise.all(stores.map(({ database, clients }) => ensureSandboxDemoClient(database, clients)));
    expect(new Set(credentials.map((c) => JSON.stringify(c))).size).toBe(1);
    const rows = await stores[0]!.database.db.selectFrom('api_client').select('client_id').execute();
    expect(rows.map((r) => r.client_id)).toEqual([credentials[0]!.client_id]);
    expect(await stores[1]!.clients.authenticateClient(credentials[0]!.client_id, credentials[0]!.client_secret)).not.toBeNull();
    // A later start finds and keeps it.
    expect(await ensureSandboxDemoClient(stores[2]!.database, stores[2]!.clients)).toEqual(credentials[0]);
  });

  it.skipIf(!enabled)('names the engine, with no warning for this one', async () => {
    const engine = await checkEngine(open());
    expect(engine.warning).toBeNull();
    expect(engine.engine).toBe(name === 'sqlite' ? 'SQLite' : /mariadb/i.test(engine.version) ? 'MariaDB' : 'MySQL');
  });
});

describe('the engine check', () => {
  it.each([
    ['8.0.11-TiDB-v7.5.1', 'TiDB Server (Apache License 2.0) Community Edition, MySQL 8.0 compatible', 'TiDB'],
    ['8.0.30-Vitess', 'Version: 19.0.4 (Git revision) built on …', 'Vitess'],
    ['8.0.23-PlanetScale', '', 'Vitess'],
  ])('warns about %s', (version, comment, engine) => {
    const check = classifyEngine(version, comment);
    expect(check.engine).toBe(engine);
    expect(check.warning).toContain(engine);
  });

  it.each([
    ['11.4.2-MariaDB-ubu2204', 'mariadb.org binary distribution', 'MariaDB'],
    ['8.0.36', 'MySQL Community Server - GPL', 'MySQL'],
    ['8.0.mysql_aurora.3.05.2', 'Source distribution', 'MySQL'],
  ])('does not warn about %s', (version, comment, engine) => {
    expect(classifyEngine(version, comment)).toEqual({ engine, version, warning: null });
  });

  const galera = {
    wsrep_on: 'ON',
    wsrep_cluster_name: 'tracking',
    wsrep_node_name: 'db2',
    wsrep_cluster_size: '3',
    wsrep_cluster_status: 'Primary',
    wsrep_local_state_comment: 'Synced',
    wsrep_provider_options: 'base_port = 4567; evs.inactive_check_period = PT0.5S; evs.suspect_timeout = PT5S; gcache.size = 128M',
    binlog_format: 'ROW',
    innodb_autoinc_lock_mode: '2',
  };

  it('names a Galera cluster and has nothing to say when its settings are right', () => {
    expect(classifyGalera(galera, 10_000)).toEqual({
      cluster: { name: 'tracking', size: 3, node: 'db2', status: 'Primary', state: 'Synced' },
      warnings: [],
    });
    expect(classifyGalera({ ...galera, wsrep_on: 'OFF' }, 10_000)).toBeUndefined();
  });

  it('warns of each Galera setting the service relies on', () => {
    const warnings = (settings: Partial<typeof galera>, statementMs: number) =>
      classifyGalera({ ...galera, ...settings }, statementMs)!.warnings.join(' ');
    expect(warnings({ binlog_format: 'MIXED' }, 10_000)).toMatch(/binlog_format is MIXED: Galera needs ROW/);
    expect(warnings({ innodb_autoinc_lock_mode: '1' }, 10_000)).toMatch(/innodb_autoinc_lock_mode is 1: Galera needs 2/);
    // The default 5 s statement timeout is shorter than the default eviction (5 s + 0.5 s).
    expect(warnings({}, 5000)).toMatch(/TT_DB_STATEMENT_TIMEOUT_MS \(5000 ms\) is not longer than .* 5500 ms/);
    expect(warnings({ wsrep_provider_options: 'evs.suspect_timeout = PT2S' }, 5000)).toBe('');
    expect(warnings({ wsrep_cluster_status: 'non-Primary' }, 10_000)).toMatch(/not in the primary component/);
  });

  it.skipIf(!TEST_MYSQL_URL)('reads the version of the server it is connected to', async () => {
    const database = connectDatabase(TEST_MYSQL_URL);
    try {
      expect((await checkEngine(database)).version).toMatch(/^\d+\.\d+/);
    } finally {
      await database.close();
    }
  });
});
