import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';

/**
 * A three-node MariaDB Galera cluster on this machine, from the Debian packages (`mariadb-server`, `galera-4`,
 * `rsync` for state transfers), for test/galera-cluster.test.ts. Every node has its own data folder under a
 * temporary directory, its own socket and ports (client 23306+, Galera 24567+, IST 24568+, SST 25567+: high ports,
 * away from the machine's own MariaDB on 3306, whose data and configuration it never reads: `--no-defaults`
 * everywhere). Node 1 is bootstrapped (`--wsrep-new-cluster`) from `mariadb-install-db`; nodes 2 and 3 join empty
 * and get their data by SST (rsync). A node killed with SIGKILL restarts and rejoins by IST.
 *
 * Run as root (CI), the servers run as the `mysql` user (`--user=mysql`, the folders are given to it): the rsync
 * daemon that receives an SST drops root for `nobody` and could not write a root-owned folder.
 */

export const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';
const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';

/** Why the cluster cannot run here (a missing package), or null when it can. */
export function galeraUnavailable(): string | null {
  for (const [path, pkg] of [
    [GALERA_PROVIDER, 'galera-4'],
    [MARIADBD, 'mariadb-server'],
    [INSTALL_DB, 'mariadb-server'],
  ] as const) {
    if (!existsSync(path)) return `${path} is missing (apt-get install ${pkg})`;
  }
  if (spawnSync('rsync', ['--version']).status !== 0) return 'rsync is missing (apt-get install rsync)';
  if (process.getuid?.() === 0 && spawnSync('id', ['mysql']).status !== 0) return 'no mysql user to run the servers as';
  return null;
}

export interface GaleraOptions {
  /** Client port of node 1; nodes 2 and 3 take the next ones. Default 23306. */
  basePort?: number;
  /** Galera (gcomm) port of node 1; each node takes two (gcomm, IST). Default 24567. */
  galeraPort?: number;
  /** evs.suspect_timeout: how long a silent node has before the others evict it. Default PT3S. */
  suspectTimeout?: string;
}

interface Node {
  index: number;
  port: number;
  gcommPort: number;
  dir: string;
  process: ChildProcess | null;
}

export class GaleraCluster {
  readonly nodes: Node[];
  readonly #root: string;
  readonly #options: Required<GaleraOptions>;
  readonly #user: string | null;

  private constructor(options: GaleraOptions) {
    this.#options = { basePort: 23306, galeraPort: 24567, suspectTimeout: 'PT3S', ...options };
    this.#root = mkdtempSync(join(tmpdir(), 'tt-galera-'));
    this.#user = process.getuid?.() === 0 ? 'mysql' : null;
    this.nodes = [1, 2, 3].map((index) => ({
      index,
      port: this.#options.basePort + index - 1,
      gcommPort: this.#options.galeraPort + (index - 1) * 2,
      dir: join(this.#root, `node${index}`),
      process: null,
    }));
  }

  /** Starts the three nodes: node 1 bootstraps, 2 and 3 join by SST; resolves when all three are Synced. */
  static async start(options: GaleraOptions = {}): Promise<GaleraCluster> {
    const cluster = new GaleraCluster(options);
    try {
      for (const node of cluster.nodes) {
        mkdirSync(join(node.dir, 'data'), { recursive: true });
        mkdirSync(join(node.dir, 'tmp'), { recursive: true });
      }
      cluster.#giveToUser(cluster.#root);
      const install = spawnSync(
        INSTALL_DB,
        [
          '--no-defaults',
          `--datadir=${join(cluster.nodes[0]!.dir, 'data')}`,
          ...(cluster.#user ? [`--user=${cluster.#user}`] : []),
          '--auth-root-authentication-method=normal',
          '--skip-test-db',
        ],
        { encoding: 'utf8' },
      );
      if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr}`);
      cluster.#giveToUser(cluster.#root);
      cluster.#spawn(cluster.nodes[0]!, true);
      await cluster.waitSynced(1, 60_000);
      // One joiner at a time: a donor serves one SST at once.
      for (const index of [2, 3]) {
        cluster.#spawn(cluster.nodes[index - 1]!, false);
        await cluster.waitSynced(index, 120_000);
      }
      return cluster;
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }

  /** A mysql:// URL of `database` on node `index` (1 to 3). */
  url(index: number, database = ''): string {
    return `mysql://root@127.0.0.1:${this.nodes[index - 1]!.port}/${database}`;
  }

  async connect(index: number): Promise<Connection> {
    return createConnection({ host: '127.0.0.1', port: this.nodes[index - 1]!.port, user: 'root', multipleStatements: false });
  }

  /** SIGKILL to node `index`'s mariadbd: a crash, no shutdown. Resolves once the process is gone. */
  async kill(index: number): Promise<void> {
    const child = this.nodes[index - 1]!.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }

  /** Starts node `index` again (after a kill): it recovers, rejoins by IST and is Synced when this resolves. */
  async restart(index: number, timeoutMs = 120_000): Promise<void> {
    this.#spawn(this.nodes[index - 1]!, false);
    await this.waitSynced(index, timeoutMs);
  }

  /** Starts node `index` again without waiting. */
  startAgain(index: number): void {
    this.#spawn(this.nodes[index - 1]!, false);
  }

  /** Waits until node `index` reports wsrep_local_state_comment = Synced and wsrep_ready = ON. */
  async waitSynced(index: number, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = 'not answering';
    while (Date.now() < deadline) {
      const child = this.nodes[index - 1]!.process;
      if (child && (child.exitCode !== null || child.signalCode !== null)) {
        throw new Error(`galera node ${index} exited (${child.exitCode ?? child.signalCode}); see ${this.nodes[index - 1]!.dir}/error.log`);
      }
      try {
        const conn = await this.connect(index);
        try {
          const [rows] = await conn.query("show status where variable_name in ('wsrep_local_state_comment', 'wsrep_ready')");
          const status = Object.fromEntries((rows as { Variable_name: string; Value: string }[]).map((r) => [r.Variable_name, r.Value]));
          last = JSON.stringify(status);
          if (status.wsrep_local_state_comment === 'Synced' && status.wsrep_ready === 'ON') return;
        } finally {
          await conn.end();
        }
      } catch (err) {
        last = String(err);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`galera node ${index} not synced within ${timeoutMs} ms: ${last}`);
  }

  /** Shuts every node down (SIGTERM, then SIGKILL after 20 s) and deletes the data folders. */
  async stop(): Promise<void> {
    await Promise.all(
      this.nodes.map(async (node) => {
        const child = node.process;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await gone;
        clearTimeout(timer);
      }),
    );
    rmSync(this.#root, { recursive: true, force: true });
  }

  #spawn(node: Node, bootstrap: boolean): void {
    const data = join(node.dir, 'data');
    const addresses = this.nodes.map((n) => `127.0.0.1:${n.gcommPort}`).join(',');
    const args = [
      '--no-defaults',
      ...(this.#user ? [`--user=${this.#user}`] : []),
      `--datadir=${data}`,
      // A folder of its own for temporary tables: a starting mariadbd deletes every `#sql*` file of its tmpdir, so
      // with the default /tmp a node (re)starting in another cluster of the suite deleted this one's tables mid-query
      // ("Error on delete of '/tmp/#sql-temptable-…'", seen when two clusters' tests ran at once).
      `--tmpdir=${join(node.dir, 'tmp')}`,
      `--socket=${join(node.dir, 'mysqld.sock')}`,
      `--pid-file=${join(node.dir, 'mysqld.pid')}`,
      `--log-error=${join(node.dir, 'error.log')}`,
      `--port=${node.port}`,
      '--bind-address=127.0.0.1',
      '--skip-name-resolve',
      '--skip-log-bin',
      // What Galera needs (and src/db/engine.ts checks).
      '--binlog-format=ROW',
      '--default-storage-engine=InnoDB',
      '--innodb-autoinc-lock-mode=2',
      // Small: three servers share this machine with the test.
      '--innodb-buffer-pool-size=64M',
      '--innodb-log-file-size=32M',
      '--innodb-flush-log-at-trx-commit=2',
      '--performance-schema=OFF',
      '--max-connections=300',
      '--wsrep-on=ON',
      `--wsrep-provider=${GALERA_PROVIDER}`,
      '--wsrep-cluster-name=tt_test_cluster',
      `--wsrep-cluster-address=gcomm://${addresses}`,
      `--wsrep-node-name=node${node.index}`,
      `--wsrep-node-address=127.0.0.1:${node.gcommPort}`,
      `--wsrep-sst-receive-address=127.0.0.1:${node.gcommPort + 1000}`,
      '--wsrep-sst-method=rsync',
      '--wsrep-slave-threads=2',
      `--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:${node.gcommPort};ist.recv_addr=127.0.0.1:${node.gcommPort + 1};` +
        `gcache.size=64M;evs.suspect_timeout=${this.#options.suspectTimeout};evs.inactive_timeout=PT15S`,
      ...(bootstrap ? ['--wsrep-new-cluster'] : []),
    ];
    const child = spawn(MARIADBD, args, { stdio: 'ignore' });
    child.on('error', () => {});
    node.process = child;
  }

  /** The data folders belong to the user the servers run as (see the module comment). */
  #giveToUser(dir: string): void {
    if (!this.#user) return;
    const id = spawnSync('id', ['-u', this.#user], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', this.#user], { encoding: 'utf8' });
    const [uid, group] = [Number(id.stdout.trim()), Number(gid.stdout.trim())];
    const walk = (path: string) => {
      chownSync(path, uid, group);
      if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    };
    walk(dir);
  }
}
