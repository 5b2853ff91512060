import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createPool } from 'mysql2/promise';
import { runLoad, type LoadResult } from './load.js';
import { cpuMicros, databaseCpuMicros } from './measure.js';

/**
 * What this machine allows a conditional poll at all, for reading the
 * service's figures: the same load generator and connections against a bare
 * node:http server that answers 304 after one statement (`SELECT 1`) on the
 * bench's store, as the service's 304 does (its lookup). No token, no quota,
 * no framework: the gap between this and the service's 304 scenario is the
 * service's own per-request cost. `npm run bench` measures it in the same run
 * and prints the 304 scenario as a share of it (`ceiling C%` on the last line);
 * `node dist-bench/bench/ceiling.js` prints it alone, with a no-work server too.
 *
 * BENCH_MYSQL_URL names the MariaDB server (default mysql://root@127.0.0.1:3306/test).
 */

export type CeilingKind = 'plain' | 'mysql' | 'sqlite';

const LABELS: Record<CeilingKind, string> = {
  plain: 'node:http, 304, no work',
  mysql: 'node:http, 304 after one SELECT 1 on MariaDB',
  sqlite: 'node:http, 304 after one SELECT 1 on SQLite',
};

function serve(kind: CeilingKind): void {
  const statement = statementFor(kind);
  const server = createServer((_req, res) => {
    const answer = () => res.writeHead(304, { ETag: 'W/"ceiling"', 'Cache-Control': 'private, no-cache' }).end();
    if (statement) statement().then(answer, () => res.writeHead(503).end());
    else answer();
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
}

function statementFor(kind: CeilingKind): (() => Promise<unknown>) | null {
  if (kind === 'mysql') {
    const pool = createPool({ uri: process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test', connectionLimit: 32 });
    return () => pool.query('SELECT 1');
  }
  if (kind === 'sqlite') {
    const select = new Database(':memory:').prepare('SELECT 1');
    return () => Promise.resolve(select.get());
  }
  return null;
}

/** Starts the ceiling server of `kind` in a child process and loads it as the 304 scenario is loaded. */
export async function measureCeiling(
  kind: CeilingKind,
  options: { connections: number; seconds: number; warmupSeconds: number },
): Promise<LoadResult & { label: string; cpuMicrosPerRequest: number; dbCpuMicrosPerRequest: number }> {
  const child = fork(fileURLToPath(import.meta.url), [kind]);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.once('exit', (code) => reject(new Error(`the ceiling server exited with ${code}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    const poll = () => ({
      method: 'GET' as const,
      path: '/v2/shipments?billOfLadingNumber=X',
      headers: { 'If-None-Match': 'W/"ceiling"' },
    });
    const run = { connections: options.connections, expected: [304] };
    const pid = child.pid ?? 0;
    let cpuBefore = NaN;
    let dbCpuBefore = NaN;
    const load = await runLoad(url, poll, {
      ...run,
      seconds: options.seconds,
      warmup: { seconds: options.warmupSeconds },
      onMeasureStart: () => {
        cpuBefore = cpuMicros(pid);
        dbCpuBefore = databaseCpuMicros();
      },
    });
    // The server's CPU per answer, as bench/measure.ts takes the service's (responses: answers the run received).
    return {
      ...load,
      label: LABELS[kind],
      cpuMicrosPerRequest: (cpuMicros(pid) - cpuBefore) / load.responses,
      dbCpuMicrosPerRequest: (databaseCpuMicros() - dbCpuBefore) / load.responses,
    };
  } finally {
    child.kill();
  }
}

const mode = process.argv[2];
if (mode === 'plain' || mode === 'mysql' || mode === 'sqlite') {
  serve(mode);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const kind of ['plain', 'mysql', 'sqlite'] as const) {
    const r = await measureCeiling(kind, { connections: 64, seconds: 10, warmupSeconds: 2 });
    process.stdout.write(`${r.label}: ${Math.round(r.requestsPerSecond)} req/s, p50 ${r.p50} p99 ${r.p99} ms, errors ${r.errors}\n`);
  }
}
