import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * HAProxy (Debian's package) in front of a few instances, as an operator runs it for a rolling upgrade (issue 48):
 * `option httpchk GET /ready`, `inter 1s fall 2 rise 2`, no retries (`retries 0`, no `option redispatch`), so
 * whatever an instance answers, or a connection it refuses, reaches the client as it is. It runs as a child in the
 * foreground (`-db`), never as a system service, with its runtime API on a stats socket in a temporary folder:
 * servers are taken out (`maint`) and put back (`ready`) through it, and its `show stat` says what it sees.
 */

export const HAPROXY = '/usr/sbin/haproxy';

/** Why HAProxy cannot run here, or null when it can. */
export function haproxyUnavailable(): string | null {
  const version = spawnSync(HAPROXY, ['-v'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return `${HAPROXY} is missing (apt-get install haproxy; .ci/run installs it)`;
  return null;
}

export interface ServerStat {
  /** UP, DOWN, MAINT, DRAIN, or a transition such as "UP 1/2". */
  status: string;
  /** Sessions open to the server now. */
  current: number;
  /** Sessions the server was given so far. */
  total: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class HaproxyBalancer {
  readonly #dir: string;
  readonly #socket: string;
  #child: ChildProcess | null = null;
  #output = '';

  private constructor(
    readonly port: number,
    readonly servers: Map<string, number>,
  ) {
    this.#dir = mkdtempSync(join(tmpdir(), 'tt-haproxy-'));
    this.#socket = join(this.#dir, 'admin.sock');
  }

  /** Starts HAProxy on 127.0.0.1:`port` over `servers` (name to port on 127.0.0.1); resolves once its API answers. */
  static async start(port: number, servers: Record<string, number>): Promise<HaproxyBalancer> {
    const balancer = new HaproxyBalancer(port, new Map(Object.entries(servers)));
    const config = join(balancer.#dir, 'haproxy.cfg');
    writeFileSync(config, balancer.#config());
    const child = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    balancer.#child = child;
    child.stdout!.on('data', (c: Buffer) => (balancer.#output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (balancer.#output += c.toString()));
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`haproxy exited ${child.exitCode}: ${balancer.#output}`);
      try {
        await balancer.command('show info');
        return balancer;
      } catch (err) {
        if (Date.now() > deadline) {
          await balancer.stop();
          throw new Error(`haproxy's API did not answer within 10 s: ${String(err)} ${balancer.#output}`, { cause: err });
        }
        await sleep(100);
      }
    }
  }

  #config(): string {
    return [
      'global',
      `  stats socket ${this.#socket} mode 600 level admin`,
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 30s',
      '  timeout server 30s',
      '  retries 0',
      'frontend tracking',
      `  bind 127.0.0.1:${this.port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /ready',
      // Which instance answered: the load's samples name it (test/support/upgrade-load.ts).
      '  http-response set-header X-Served-By %[srv_name]',
      '  default-server inter 1s fall 2 rise 2',
      ...[...this.servers].map(([name, port]) => `  server ${name} 127.0.0.1:${port} check`),
      '',
    ].join('\n');
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** One runtime API command; its answer. */
  command(line: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.#socket);
      let answer = '';
      socket.setTimeout(5_000, () => socket.destroy(new Error(`haproxy API: no answer to "${line}" within 5 s`)));
      socket.on('connect', () => socket.end(`${line}\n`));
      socket.on('data', (c: Buffer) => (answer += c.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  /** What HAProxy sees of server `name`. */
  async stat(name: string): Promise<ServerStat> {
    const csv = await this.command('show stat');
    const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const columns = header!.split(',');
    const row = rows.map((r) => r.split(',')).find((r) => r[0] === 'instances' && r[1] === name);
    if (!row) throw new Error(`haproxy has no server ${name}`);
    const field = (column: string) => row[columns.indexOf(column)] ?? '';
    return { status: field('status'), current: Number(field('scur')), total: Number(field('stot')) };
  }

  /** Takes `name` out (`maint`: no new request goes to it) or puts it back (`ready`: in once its checks pass). */
  async setState(name: string, state: 'maint' | 'ready'): Promise<void> {
    const answer = await this.command(`set server instances/${name} state ${state}`);
    if (answer.trim()) throw new Error(`haproxy: set server ${name} state ${state}: ${answer}`);
  }

  /** Waits until `ok(stat)` holds for `name`, at most `timeoutMs`. */
  async waitFor(name: string, what: string, ok: (stat: ServerStat) => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last: ServerStat | undefined;
    while (Date.now() < deadline) {
      last = await this.stat(name);
      if (ok(last)) return;
      await sleep(100);
    }
    throw new Error(`haproxy: server ${name} not ${what} within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
  }

  output(): string {
    return this.#output;
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
    }
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
