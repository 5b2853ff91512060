import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The built CLI, as operators run it. */
export const CLI_BIN = new URL('../../dist/src/cli/main.js', import.meta.url).pathname;

/**
 * `tracking ingest` of one bundle in its own process (written to `dir` as `name`), with `env` over this
 * process's. Asynchronously: a receiver living in the test's process must keep answering while it runs (a
 * synchronous spawn would stall it, so that deliveries sent meanwhile time out and are sent again).
 */
export async function ingestInProcess(
  dir: string,
  name: string,
  bundle: unknown,
  env: Record<string, string>,
): Promise<{ status: number | null; stderr: string }> {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(bundle));
  const child = spawn(process.execPath, [CLI_BIN, 'ingest', file], {
    env: { ...process.env, TT_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { status, stderr };
}

/** Resolves once `condition` holds; throws after `ms`, naming `what` it waited for. */
export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
