import { spawn, spawnSync } from 'node:child_process';
import { Agent, get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * `npm start`, the README's command, under a supervisor that signals only the process it started (docker stop,
 * most process managers) and starts the next instance when it exits (docs/operating.md "Supervisors"): SIGTERM to
 * npm reaches the server, which drains (an idle keep-alive connection keeps it lingering), and npm exits only
 * after the server has, with its exit code. Before `exec` in the start script, npm's `sh -c` died of the signal
 * and the server, never told, was left running while npm had exited.
 */
const ROOT = new URL('..', import.meta.url).pathname;

/** Whether `pid` is a process that has not exited (a zombie counts as exited). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return state !== '' && !state.startsWith('Z');
}

describe.each(dialects)('npm start on $name', ({ name, enabled }) => {
  let t: TestDatabase | undefined;
  /** What this test started, ended if a failed expectation left them running. */
  const started: number[] = [];
  afterEach(async () => {
    for (const pid of started.splice(0)) if (running(pid)) process.kill(pid, 'SIGKILL');
    await t?.destroy();
    t = undefined;
  });

  it.skipIf(!enabled)(
    'SIGTERM to npm drains the server it started, and npm exits after the server, with its code',
    async () => {
      t = await createTestDatabase(name);
      const npm = spawn('npm', ['start'], {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: t.url, TT_LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.push(npm.pid!);
      let out = '';
      npm.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; serverRunning: boolean }>((resolve) =>
        npm.once('exit', (code, signal) => resolve({ code, signal, serverRunning: server > 0 && running(server) })),
      );
      let server = 0;
      const port = await new Promise<number>((resolve, reject) => {
        npm.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          const line = out.split('\n').find((l) => l.includes('listening on http://localhost:'));
          if (!line) return;
          const banner = JSON.parse(line) as { pid: number; urls: { rest: string } };
          server = banner.pid;
          started.unshift(server);
          resolve(Number(new URL(banner.urls.rest).port));
        });
        npm.once('exit', (code) => reject(new Error(`npm start exited ${code}: ${out}`)));
      });
      // The server is npm's own child: no shell between them to swallow the signal.
      expect(spawnSync('ps', ['-o', 'ppid=', '-p', String(server)], { encoding: 'utf8' }).stdout.trim()).toBe(String(npm.pid));
      // An idle keep-alive connection: the drain lingers on it before the server exits.
      const agent = new Agent({ keepAlive: true });
      await new Promise<void>((resolve, reject) =>
        get({ host: '127.0.0.1', port, path: '/health', agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        }).on('error', reject),
      );
      npm.kill('SIGTERM');
      const exit = await exited;
      agent.destroy();
      expect(out).toContain('received SIGTERM, shutting down');
      expect(exit.serverRunning).toBe(false);
      expect(exit).toMatchObject({ code: 0, signal: null });
    },
    60_000,
  );
});
