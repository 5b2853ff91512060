import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createConnection } from 'mysql2/promise';

/**
 * The bench's own MariaDB server (`--private-mariadb`), for a store larger than the machine's shared server's
 * 128 MiB buffer pool can serve: its own data folder (initialised by `mariadb-install-db`), socket and port on
 * 127.0.0.1, an InnoDB buffer pool sized for the data, started for the run and stopped (its folder deleted)
 * at the end. The machine's own server on 3306 is never touched: `--no-defaults`, so none of its configuration
 * is read either. As test/support/galera-cluster.ts does, a bench run as root runs the server as `mysql`.
 *
 * Besides the buffer pool, one setting differs from MariaDB's defaults: the redo log (1 GiB against 96 MiB), so
 * a bulk load is not throttled by checkpoints every few seconds. Durability is the default
 * (innodb_flush_log_at_trx_commit=1, doublewrite on).
 */

const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';

export interface PrivateMariadb {
  /** mysql://root@127.0.0.1:PORT/ */
  url: string;
  /** The mariadbd process: the bench reads its CPU time per request (bench/measure.ts, databaseCpu). */
  pid: number;
  dataDirectory: string;
  bufferPoolGiB: number;
  /** The server's folder (its data folder, socket, log): what --private-mariadb-dir names for --reuse-seed. */
  root: string;
  /** Shuts the server down (a clean InnoDB shutdown) and deletes its folder unless `keep` (or a reused one). */
  stop(keep?: boolean): Promise<void>;
}

export async function startPrivateMariadb(options: {
  bufferPoolGiB: number;
  parent?: string;
  /** The folder of a kept server (or its data folder) to start on. */
  reuse?: string;
}): Promise<PrivateMariadb> {
  const user = process.getuid?.() === 0 ? 'mysql' : null;
  if (options.reuse !== undefined) return serve(keptFolder(options.reuse), user, options.bufferPoolGiB, true);
  const root = mkdtempSync(join(options.parent ?? tmpdir(), 'tt-bench-mariadb-'));
  const data = join(root, 'data');
  mkdirSync(data);
  giveTo(user, root);
  const install = spawnSync(
    INSTALL_DB,
    [
      '--no-defaults',
      `--datadir=${data}`,
      ...(user ? [`--user=${user}`] : []),
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed (${install.status}): ${install.stderr || install.error?.message}`);
  }
  giveTo(user, root);
  return serve(root, user, options.bufferPoolGiB, false);
}

/** The kept server's folder: the one a --keep run printed (holding `data`), or that `data` folder itself. */
function keptFolder(directory: string): string {
  const given = resolve(directory);
  if (existsSync(join(given, 'data', 'mysql'))) return given;
  if (basename(given) === 'data' && existsSync(join(given, 'mysql'))) return dirname(given);
  throw new Error(`--reuse-seed: ${given} is not the folder of a private MariaDB server a --keep run left (no data/mysql in it)`);
}

/** Starts mariadbd on the folder `root` (its data in root/data); a `reused` folder is never deleted. */
async function serve(root: string, user: string | null, bufferPoolGiB: number, reused: boolean): Promise<PrivateMariadb> {
  const data = join(root, 'data');
  const port = await freePort();
  const log = join(root, 'error.log');
  // Temporary tables and sort files in a folder of the server's own: a mariadbd starting with /tmp as its tmpdir
  // (the Galera harness's nodes did, test/support/galera-cluster.ts) deletes every #sql file there, another
  // server's included, which failed this server's statements mid-way ("Error on delete of '/tmp/#sql-temptable-…").
  const tmp = join(root, 'tmp');
  if (!existsSync(tmp)) {
    mkdirSync(tmp);
    giveTo(user, tmp);
  }
  const child: ChildProcess = spawn(
    MARIADBD,
    [
      '--no-defaults',
      ...(user ? [`--user=${user}`] : []),
      `--datadir=${data}`,
      `--socket=${join(root, 'mysqld.sock')}`,
      `--pid-file=${join(root, 'mysqld.pid')}`,
      `--log-error=${log}`,
      `--tmpdir=${tmp}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--skip-name-resolve',
      '--skip-log-bin',
      '--character-set-server=utf8mb4',
      '--performance-schema=OFF',
      `--innodb-buffer-pool-size=${bufferPoolGiB}G`,
      '--innodb-buffer-pool-load-at-startup=OFF',
      '--innodb-log-file-size=1G',
      '--max-connections=300',
    ],
    { stdio: 'ignore' },
  );
  child.on('error', () => {});
  const url = `mysql://root@127.0.0.1:${port}/`;
  const stop = async (keep = false) => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // A clean shutdown writes back the dirty part of the buffer pool: give it time.
      const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
      await gone;
      clearTimeout(timer);
    }
    if (!keep && !reused) rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', () => child.kill('SIGKILL'));
  try {
    await waitForServer(url, child, log);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, pid: child.pid ?? 0, dataDirectory: data, root, bufferPoolGiB, stop };
}

async function waitForServer(url: string, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the private mariadbd exited (${child.exitCode ?? child.signalCode}): ${tail(log)}`);
    }
    try {
      const conn = await createConnection(url);
      await conn.end();
      return;
    } catch (err) {
      last = String(err);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the private mariadbd did not answer within 120 s: ${last}; ${tail(log)}`);
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-10).join('\n');
  } catch {
    return '(no error log)';
  }
}

/** A port of 127.0.0.1 nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The server's folders belong to the user it runs as. */
function giveTo(user: string | null, dir: string): void {
  if (!user) return;
  const uid = Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
  const walk = (path: string) => {
    chownSync(path, uid, gid);
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  walk(dir);
}
