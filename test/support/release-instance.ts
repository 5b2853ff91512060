import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The processes of the rolling-upgrade test (issue 48): `tracking serve` instances of either release on fixed
 * ports, and `tracking` commands, run as children without blocking the test's event loop (its load runs
 * meanwhile). Every child is kept in `children` until it exits, so the test's afterAll ends whatever is left,
 * even after a failure.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Release {
  version: string;
  cli: string;
}

export interface DemoClient {
  client_id: string;
  client_secret: string;
}

export interface StartedInstance {
  /** `/ready`'s `version`; undefined for a release without it. */
  readyVersion?: string;
  demo?: DemoClient;
}

/** Every child started here, until it exits: the test ends what is left in its afterAll, whatever happened. */
export const children = new Set<ChildProcess>();

export async function stopChild(child: ChildProcess, graceMs = 20_000): Promise<number | string | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? child.signalCode;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(graceMs)]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
    return 'SIGKILL';
  }
  return child.exitCode ?? child.signalCode;
}

/** One `tracking serve` on a fixed port: stopped and started again from either release. */
export class Instance {
  child: ChildProcess | null = null;
  release: Release | null = null;
  #output = '';
  /** Log lines at warn or above of every run of this instance (kept across restarts), tagged with the release. */
  readonly problems: string[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  output(): string {
    return this.#output.slice(-6000);
  }

  /**
   * Starts `release` and waits until its /ready answers 200: the version that answer names (releases from 0.5.0
   * on carry it), and the sandbox demo client of its start line, if any.
   */
  async start(release: Release, timeoutMs = 180_000): Promise<StartedInstance> {
    this.release = release;
    this.#output = '';
    const child = spawn(process.execPath, [release.cli, 'serve'], {
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    children.add(child);
    child.once('exit', () => children.delete(child));
    const take = (c: Buffer) => {
      const text = c.toString();
      this.#output += text;
      for (const line of text.split('\n'))
        if (
          /"level":"(warn|error|fatal)"|"level":(40|50|60)\b|Error/.test(line) &&
          !line.includes('"route":"/ready"') &&
          this.problems.length < 200
        )
          this.problems.push(`${release.version}: ${line.slice(0, 1200)}`);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${this.name} (${release.version}) exited ${child.exitCode}: ${this.output()}`);
      const ready = await fetch(`${this.base}/ready`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
      if (ready?.status === 200) {
        const { version } = (await ready.json().catch(() => ({}))) as { version?: string };
        const line = this.#output.split('\n').find((l) => l.includes('sandboxDemoClient'));
        const demo = line ? (JSON.parse(line) as { sandboxDemoClient: DemoClient }).sandboxDemoClient : undefined;
        return { readyVersion: version, demo };
      }
      await sleep(200);
    }
    throw new Error(`${this.name} (${release.version}) not ready within ${timeoutMs} ms: ${this.output()}`);
  }

  /** The version its /ready names now (undefined: none, or no answer). */
  async readyVersion(): Promise<string | undefined> {
    const ready = await fetch(`${this.base}/ready`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
    const body = ready ? ((await ready.json().catch(() => ({}))) as { version?: string }) : {};
    return body.version;
  }

  /** SIGTERM, and its exit: its code (0 when it drained), or SIGKILL when it outlived its grace. */
  async stop(): Promise<number | string | null> {
    return this.child ? stopChild(this.child) : null;
  }
}

/** A `tracking` command of `release`, run without blocking the load (spawnSync would stop the event loop). */
export function runCli(
  release: Release,
  env: Record<string, string>,
  args: string[],
  timeoutMs = 120_000,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [release.cli, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, output });
    });
  });
}
