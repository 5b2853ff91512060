import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createPool } from 'mysql2/promise';
import { runLoad } from './load.js';

/**
 * What this machine allows a conditional poll at all, for reading the
 * service's figures (`node dist-bench/bench/ceiling.js` after `npm run bench:build`):
 * the same load generator and 64 connections against a bare node:http server
 * that answers 304 with no work, and against one that first sends one
 * statement (`SELECT 1`) to the bench's MariaDB, as the service's 304 does
 * (its lookup). No token, no quota, no framework: the gap between these and
 * the service's 304 scenario is the service's own per-request cost.
 *
 * BENCH_MYSQL_URL names the server (default mysql://root@127.0.0.1:3306/test).
 */

const mode = process.argv[2];
if (mode === 'plain' || mode === 'sql') {
  const pool =
    mode === 'sql' ? createPool({ uri: process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test', connectionLimit: 32 }) : null;
  const server = createServer((_req, res) => {
    const answer = () => res.writeHead(304, { ETag: 'W/"ceiling"', 'Cache-Control': 'private, no-cache' }).end();
    if (pool) pool.query('SELECT 1').then(answer, () => res.writeHead(503).end());
    else answer();
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
} else {
  for (const kind of ['plain', 'sql'] as const) {
    const child = fork(fileURLToPath(import.meta.url), [kind]);
    const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
    const url = `http://127.0.0.1:${port}`;
    const poll = () => ({
      method: 'GET' as const,
      path: '/v2/shipments?billOfLadingNumber=X',
      headers: { 'If-None-Match': 'W/"ceiling"' },
    });
    await runLoad(url, poll, { connections: 64, seconds: 2, expected: [304] });
    const r = await runLoad(url, poll, { connections: 64, seconds: 10, expected: [304] });
    process.stdout.write(
      `${kind === 'plain' ? 'node:http, 304, no work' : 'node:http, 304 after one SELECT 1'}: ${Math.round(r.requestsPerSecond)} req/s, ` +
        `p50 ${r.p50} p99 ${r.p99} ms, errors ${r.errors}\n`,
    );
    child.kill();
  }
}
