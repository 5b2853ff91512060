import { sql } from 'kysely';
import type { Database } from './connect.js';

/**
 * Which engine answers on the MySQL protocol, and whether the service knows it to behave differently from
 * MySQL 8 and MariaDB, where it is tested (docs/architecture.md, Scale-out). Nothing in the service depends on
 * engine-specific locking (no `SKIP LOCKED`; claims are conditional UPDATEs), but two things rest on what
 * MySQL and MariaDB do and some compatible engines do not:
 *
 * - auto-increment ids grow in the order they are handed out: deliveries of a subscription are sent in id
 *   order, and a shipment's changes are in id order within an ordering batch of the change log;
 * - one database with ordinary transactions: the outbox and the change log are written in the transaction of
 *   the change that caused them.
 */

export interface EngineCheck {
  /** MySQL, MariaDB, TiDB, Vitess, SQLite, or what the server called itself. */
  engine: string;
  version: string;
  /** Set when the engine is known to differ in what the service relies on, or a Galera setting is wrong for it. */
  warning: string | null;
  /** Set when the server is a node of a Galera cluster (wsrep_on). */
  cluster?: GaleraCluster;
}

/** A Galera cluster (MariaDB Galera, Percona XtraDB Cluster) as one of its nodes describes it. */
export interface GaleraCluster {
  name: string;
  /** Nodes in this node's primary component. */
  size: number;
  node: string;
  /** Primary, Non-primary or Disconnected. */
  status: string;
  /** Synced, Donor/Desynced, Joining, ... */
  state: string;
}

/** What the Galera check reads from the node (SHOW VARIABLES / SHOW STATUS), by name. */
export interface GaleraSettings {
  wsrep_on?: string;
  wsrep_cluster_name?: string;
  wsrep_node_name?: string;
  wsrep_cluster_size?: string;
  wsrep_cluster_status?: string;
  wsrep_local_state_comment?: string;
  wsrep_provider_options?: string;
  binlog_format?: string;
  innodb_autoinc_lock_mode?: string;
}

/** An ISO 8601 duration as Galera writes it (PT5S, PT1.5S, PT1M30S), in ms; undefined when not one. */
export function isoDurationMs(text: string): number | undefined {
  const m = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text.trim());
  if (!m || text.trim() === 'P' || text.trim() === 'PT') return undefined;
  const [d, h, min, sec] = m.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number];
  return Math.round((((d * 24 + h) * 60 + min) * 60 + sec) * 1000);
}

/**
 * How long a Galera cluster takes to evict a node that stopped answering: `evs.suspect_timeout` (default 5 s)
 * plus the check period after it (`evs.inactive_check_period`, default 0.5 s). Until then every commit on the
 * surviving nodes waits (the cluster cannot order it without the silent node), so a statement deadline shorter
 * than this turns the wait into errors on healthy nodes.
 */
export function evictionMs(providerOptions: string): number {
  const option = (name: string, fallback: number) => {
    const m = new RegExp(`(?:^|;)\\s*${name.replace('.', '\\.')}\\s*=\\s*([^;]+)`).exec(providerOptions);
    return (m ? isoDurationMs(m[1]!) : undefined) ?? fallback;
  };
  return option('evs.suspect_timeout', 5000) + option('evs.inactive_check_period', 500);
}

/**
 * The Galera part of the check (pure): names the cluster and warns of every setting the service relies on
 * that is not as it needs (docs/operating.md, Running on a Galera cluster):
 *
 * - binlog_format=ROW: Galera replicates row images; with another format writes are not replicated safely;
 * - innodb_autoinc_lock_mode=2: interleaved auto-increment locks; with the others, concurrent inserts through
 *   several nodes deadlock on the table's auto-increment lock and Galera cannot certify them;
 * - a statement timeout (TT_DB_STATEMENT_TIMEOUT_MS) longer than the cluster's eviction time, so that the
 *   commits held while a dead node is evicted finish instead of failing on the healthy nodes.
 *
 * Undefined when wsrep is off (a plain server).
 */
export function classifyGalera(
  settings: GaleraSettings,
  statementMs: number | undefined,
): { cluster: GaleraCluster; warnings: string[] } | undefined {
  if ((settings.wsrep_on ?? '').toUpperCase() !== 'ON') return undefined;
  const cluster: GaleraCluster = {
    name: settings.wsrep_cluster_name ?? '',
    size: Number(settings.wsrep_cluster_size ?? 0),
    node: settings.wsrep_node_name ?? '',
    status: settings.wsrep_cluster_status ?? '',
    state: settings.wsrep_local_state_comment ?? '',
  };
  const warnings: string[] = [];
  if ((settings.binlog_format ?? '').toUpperCase() !== 'ROW') {
    warnings.push(`binlog_format is ${settings.binlog_format ?? 'unknown'}: Galera needs ROW to replicate every write.`);
  }
  if (settings.innodb_autoinc_lock_mode !== '2') {
    warnings.push(
      `innodb_autoinc_lock_mode is ${settings.innodb_autoinc_lock_mode ?? 'unknown'}: Galera needs 2 (interleaved); ` +
        'with another mode concurrent inserts through several nodes deadlock on the auto-increment lock.',
    );
  }
  const eviction = evictionMs(settings.wsrep_provider_options ?? '');
  if (statementMs !== undefined && statementMs > 0 && statementMs <= eviction) {
    warnings.push(
      `TT_DB_STATEMENT_TIMEOUT_MS (${statementMs} ms) is not longer than the time the cluster takes to evict a dead node ` +
        `(evs.suspect_timeout + evs.inactive_check_period = ${eviction} ms): commits held on the healthy nodes while a node ` +
        `dies would fail there. Set it above ${eviction} ms (10000 with Galera's defaults).`,
    );
  }
  if (cluster.status !== '' && cluster.status !== 'Primary') {
    warnings.push(`this node is ${cluster.status}, not in the primary component: it refuses queries until it rejoins.`);
  }
  return { cluster, warnings };
}

/** Names the engine from `SELECT VERSION()` and `@@version_comment`. Pure. */
export function classifyEngine(version: string, comment: string): EngineCheck {
  const text = `${version} ${comment}`;
  if (/tidb/i.test(text)) {
    return {
      engine: 'TiDB',
      version,
      warning:
        'TiDB hands out auto-increment ids in per-server batches, not in order across TiDB servers (unless the tables ' +
        'use AUTO_ID_CACHE 1): webhook order per subscription and the change log order per shipment rely on that ' +
        'order. The service is tested on MySQL 8 and MariaDB only.',
    };
  }
  if (/vitess|planetscale/i.test(text)) {
    return {
      engine: 'Vitess',
      version,
      warning:
        "Vitess: keep the service's tables in one unsharded keyspace. The outbox and the change log are written in " +
        'the transaction of the change that caused them, and their order rests on auto-increment ids, which a ' +
        'sharded keyspace neither keeps in one transaction nor hands out in order. The service is tested on ' +
        'MySQL 8 and MariaDB only.',
    };
  }
  if (/mariadb/i.test(text)) return { engine: 'MariaDB', version, warning: null };
  return { engine: 'MySQL', version, warning: null };
}

/** Asks the server what it is. SQLite is itself. `statementMs`: the statement timeout the service runs with. */
export async function checkEngine(database: Database, options: { statementMs?: number } = {}): Promise<EngineCheck> {
  if (database.dialect === 'sqlite') {
    const { rows } = await sql<{ version: string }>`select sqlite_version() as version`.execute(database.db);
    return { engine: 'SQLite', version: rows[0]?.version ?? '', warning: null };
  }
  const { rows } = await sql<{ version: string }>`select version() as version`.execute(database.db);
  const version = rows[0]?.version ?? '';
  let comment = '';
  try {
    const answer = await sql<{ comment: string | null }>`select @@version_comment as comment`.execute(database.db);
    comment = answer.rows[0]?.comment ?? '';
  } catch {
    // An engine without the variable: the version alone names it.
  }
  const engine = classifyEngine(version, comment);
  const galera = classifyGalera(await galeraSettings(database), options.statementMs);
  if (!galera) return engine;
  const warning = [engine.warning, ...galera.warnings].filter((w) => w !== null).join(' ');
  return { ...engine, cluster: galera.cluster, warning: warning === '' ? null : warning };
}

/** The variables and status the Galera check reads; empty where the server has none (MySQL, TiDB, ...). */
async function galeraSettings(database: Database): Promise<GaleraSettings> {
  const settings: Record<string, string> = {};
  const read = async (statement: ReturnType<typeof sql<{ Variable_name: string; Value: string }>>) => {
    try {
      for (const row of (await statement.execute(database.db)).rows) settings[row.Variable_name.toLowerCase()] = String(row.Value);
    } catch {
      // An engine without SHOW VARIABLES or SHOW STATUS: nothing Galera about it.
    }
  };
  await read(
    sql`show global variables where variable_name in ('wsrep_on', 'wsrep_cluster_name', 'wsrep_node_name', 'wsrep_provider_options', 'binlog_format', 'innodb_autoinc_lock_mode')`,
  );
  if ((settings.wsrep_on ?? '').toUpperCase() === 'ON') {
    await read(sql`show global status where variable_name in ('wsrep_cluster_size', 'wsrep_cluster_status', 'wsrep_local_state_comment')`);
  }
  return settings;
}
