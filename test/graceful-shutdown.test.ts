import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * Graceful shutdown of a real `tracking serve` (docs/architecture.md, Limits and failure): on
 * SIGTERM, keep-alive clients hammering it get complete answers, the last
 * one on each connection carrying `Connection: close`; a request in flight
 * (its body still arriving) finishes; /ready says 503; no client sees a
 * reset; the process exits 0 well within TT_SHUTDOWN_GRACE_SECONDS.
 */
const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;
const GRACE_SECONDS = 6;
const CLIENTS = 8;

function startServe(databaseUrl: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TT_LOG_LEVEL: 'warn',
      TT_EVALUATE_INTERVAL_SECONDS: '1',
      TT_SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /listening on http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

interface Answer {
  status: number;
  connection: string | undefined;
}

function send(agent: Agent, port: number, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: body ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(dialects)('graceful shutdown of serve on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)(
    'SIGTERM: in-flight requests finish, keep-alive clients see Connection: close, none is reset',
    async () => {
      const { child, port } = await startServe(t.url);
      const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
        child.once('exit', (code) => resolve({ code, at: Date.now() })),
      );
      const errors: string[] = [];
      let answered = 0;
      let closedGracefully = 0;
      let signalled = false;
      let stop = false;

      // Keep-alive clients, each on one connection, looping until told the connection closes.
      const loops = Array.from({ length: CLIENTS }, async (_, i) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          while (!stop) {
            const answer =
              i % 2 === 0
                ? await send(agent, port, 'GET', '/health')
                : await send(agent, port, 'POST', '/graphql', JSON.stringify({ query: '{ __typename }' }));
            expect(answer.status).toBe(200);
            answered++;
            if (answer.connection === 'close') {
              expect(signalled).toBe(true);
              closedGracefully++;
              return;
            }
          }
        } catch (err) {
          errors.push(String(err));
        } finally {
          agent.destroy();
        }
      });

      // A keep-alive connection that asks /ready once shutdown has begun.
      const readyAgent = new Agent({ keepAlive: true, maxSockets: 1 });
      expect((await send(readyAgent, port, 'GET', '/ready')).status).toBe(200);

      // A request in flight at the signal: its body arrives in two parts, the second after the signal.
      const inFlight = new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        const body = 'grant_type=client_credentials&client_id=tt_x&client_secret=nope';
        let text = '';
        socket.on('data', (d) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write(
          `POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
        );
        setTimeout(() => socket.write(body.slice(10)), 2500);
      });

      await new Promise((r) => setTimeout(r, 700));
      const before = answered;
      const signalledAt = Date.now();
      signalled = true;
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 100));
      const ready = await send(readyAgent, port, 'GET', '/ready');
      readyAgent.destroy();

      await Promise.all(loops);
      stop = true;
      const inFlightAnswer = await inFlight;
      const exit = await exited;
      console.log(
        `${name}: ${answered} answers (${before} before SIGTERM), ${closedGracefully}/${CLIENTS} connections closed by Connection: close, ` +
          `${errors.length} resets, exit ${exit.code} after ${exit.at - signalledAt} ms`,
      );

      expect(errors).toEqual([]);
      expect(closedGracefully).toBe(CLIENTS);
      expect(ready.status).toBe(503);
      expect(inFlightAnswer).toMatch(/^HTTP\/1\.1 401 /);
      expect(inFlightAnswer).toMatch(/\r\nConnection: close\r\n/i);
      expect(inFlightAnswer).toContain('"invalid_client"');
      expect(exit.code).toBe(0);
      expect(exit.at - signalledAt).toBeLessThan(GRACE_SECONDS * 1000);
      // The listener is closed: a new connection is refused.
      await expect(send(new Agent(), port, 'GET', '/health')).rejects.toThrow(/ECONNREFUSED/);
    },
    30_000,
  );
});
