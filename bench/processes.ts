import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The servers under test run as child processes, as they run in production:
 * the bench process (with the load generator) does not share their event
 * loop or heap, and RSS is the server's own. Every child is killed on exit.
 */

const here = dirname(fileURLToPath(import.meta.url));
/** The bench's own build (this file is dist-bench/bench/processes.js once built; tsconfig.bench.json). */
export const BENCH_DIST = join(here, '..');
/** The repository: the service under test is its production build, dist/ (`npm run build`). */
const ROOT = join(BENCH_DIST, '..');
export const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
export const BASELINE = join(BENCH_DIST, 'bench', 'baseline-server.js');

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** Resident set size in MiB, from /proc. */
  rssMiB(): number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `node [nodeArgs] script args` with `env` and resolves once it prints
 * a line matching `ready` whose first group is the port.
 */
export async function startServer(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  nodeArgs: string[] = [],
  logFile?: string,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // Keep the server's warnings and errors visible, but not its every line.
      process.stderr.write(`[${name}] ${chunk.toString()}`);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before it was ready:\n${output}`));
    });
  });
  // Keep draining stdout so the child never blocks on a full pipe; keep it when asked to.
  child.stdout?.removeAllListeners('data');
  if (logFile) child.stdout?.pipe(createWriteStream(logFile, { flags: 'a' }));
  else child.stdout?.resume();
  const pid = child.pid ?? 0;
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    pid,
    rssMiB() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      running.delete(child);
    },
  };
}

export interface ServiceOptions {
  databaseUrl: string;
  baseUrl: string;
  poolSize?: number;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** Append the server's stdout to this file (e.g. with --trace-gc). */
  logFile?: string;
}

/**
 * The node flags `npm start` runs the service with (package.json scripts.start,
 * e.g. the young generation size), so the bench measures the service as it is
 * started in production.
 */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1).filter((w) => w.startsWith('--'));
}

/** `tracking serve` from the build, as `npm start` runs it, on a free port of 127.0.0.1, counting SQL statements. */
export function startService(options: ServiceOptions): Promise<ServerProcess> {
  return startServer(
    'service',
    CLI,
    ['serve'],
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      TT_BASE_URL: options.baseUrl,
      TT_ENVIRONMENT: 'sandbox',
      TT_SEED_SANDBOX: 'false',
      TT_LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? 'warn',
      TT_EVALUATE_INTERVAL_SECONDS: '0',
      TT_COUNT_QUERIES: '1',
      // One client drives all the load: quotas stay on (their cost is measured) but far above it.
      TT_QUOTA_LOOKUPS_PER_MINUTE: '1000000',
      TT_QUOTA_TOKENS_PER_MINUTE: '1000000',
      TT_QUOTA_SUBSCRIPTIONS_PER_MINUTE: '1000000',
      ...(options.poolSize ? { TT_DB_POOL_SIZE: String(options.poolSize) } : {}),
      ...options.env,
    },
    /listening on http:\/\/localhost:(\d+)/,
    [...startFlags(), ...(options.nodeArgs ?? [])],
    options.logFile,
  );
}

export interface BaselineOptions {
  databaseUrl: string;
  issuer: string;
  jwks: unknown;
  poolSize?: number;
  nodeArgs?: string[];
}

/** The hand-written baseline (bench/baseline-server.ts). */
export function startBaseline(options: BaselineOptions): Promise<ServerProcess> {
  return startServer(
    'baseline',
    BASELINE,
    [],
    {
      PORT: '0',
      DATABASE_URL: options.databaseUrl,
      BASELINE_ISSUER: options.issuer,
      BASELINE_JWKS: JSON.stringify(options.jwks),
      ...(options.poolSize ? { BASELINE_POOL_SIZE: String(options.poolSize) } : {}),
    },
    /baseline listening on port (\d+)/,
    options.nodeArgs,
  );
}
