import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentationPages, doctestExamples, type DocExample } from './support/docs.js';

/**
 * Docs as tests: every fenced block preceded by the line `<!-- doctest -->` in README.md and docs/*.md runs,
 * page by page in document order, against a sandbox `tracking serve` on a free port and a fresh SQLite
 * database, as a reader would run it:
 *
 * - `sh`/`bash`/`shell` blocks run with `bash -e -o pipefail` in one working directory per page, with `BASE`,
 *   `PORT`, `CLIENT_ID`, `CLIENT_SECRET` (the sandbox demo client, as `npm start` prints them) and `DATABASE_URL`
 *   set, and the CLI on PATH as `tracking` (the same database as the server). Variables a block sets (`TOKEN`,
 *   `SUBSCRIPTION_ID`, …) carry over to the next blocks of its page. `curl` fails the block on an HTTP error
 *   status (it runs with `--fail-with-body`) unless the example prints the status itself with `-w`.
 *   Background processes a block starts (a local webhook receiver) are stopped when the page ends.
 * - `graphql` blocks are POSTed to `$BASE/graphql` with the page's `$TOKEN` (a read token of the demo client
 *   when the page has none yet); an answer with `errors` fails.
 * - `<!-- doctest file=NAME -->` saves its block (of any language: a bundle, a configuration) as NAME in the
 *   page's directory for later blocks, and runs nothing.
 * - `js` blocks run with node as ES modules. A block whose first line is `// file: NAME` is saved as NAME in
 *   the page's directory (later blocks use it) and only syntax-checked.
 *
 * A failing example fails with its page, the line of its fence and its output.
 */
const ROOT = new URL('../', import.meta.url).pathname;
const CLI = join(ROOT, 'dist/src/cli/main.js');
const SHELLS = new Set(['sh', 'bash', 'shell']);

const pages = documentationPages().map(({ page, text }) => ({ page, examples: doctestExamples(page, text) }));
const total = pages.reduce((n, p) => n + p.examples.length, 0);

let work: string;
let serve: ChildProcess | undefined;
let env: Record<string, string>;
let run = 0;
/** Process groups started for blocks: their background jobs (receivers) end with the page. */
const groups = new Set<number>();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startServe(serveEnv: Record<string, string>): Promise<{ client_id: string; client_secret: string }> {
  const child = spawn(process.execPath, [CLI, 'serve'], { env: serveEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  serve = child;
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('listening on http://'));
      if (!line) return;
      const banner = JSON.parse(line) as { sandboxDemoClient: { client_id: string; client_secret: string } };
      resolve(banner.sandboxDemoClient);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}${err}`)));
  });
}

function exec(command: string, args: string[], cwd: string, input?: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  if (child.pid) groups.add(child.pid);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  // A block that exits before reading its input closes the pipe first (EPIPE): its exit code tells what happened.
  child.stdin!.on('error', () => {});
  child.stdin!.end(input ?? '');
  // A background job the block started (a receiver) may hold the pipes open: the block is done when its shell
  // exits; what is still buffered arrives within a moment.
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      const done = () => resolve({ code, output });
      const timer = setTimeout(done, 1000);
      child.once('close', () => {
        clearTimeout(timer);
        done();
      });
    });
  });
}

/** The page's carried variables (written by its shell blocks). */
function pageState(dir: string): Record<string, string> {
  const file = join(dir, '.doctest-state');
  if (!existsSync(file)) return {};
  const vars: Record<string, string> = {};
  for (const m of readFileSync(file, 'utf8').matchAll(/^declare -x (\w+)="((?:[^"\\]|\\.)*)"$/gm)) {
    vars[m[1]!] = m[2]!.replace(/\\(.)/g, '$1');
  }
  return vars;
}

async function runShell(example: DocExample, dir: string): Promise<string> {
  const state = join(dir, '.doctest-state');
  const script = join(dir, `.block-${example.line}.sh`);
  writeFileSync(script, ['set -a', `if [ -f '${state}' ]; then . '${state}'; fi`, example.code, `export -p > '${state}'`, ''].join('\n'));
  const { code, output } = await exec('bash', ['-e', '-o', 'pipefail', script], dir);
  if (code !== 0) throw new Error(`exit ${code}\n${output}`);
  return output;
}

async function runGraphql(example: DocExample, dir: string): Promise<string> {
  let token = pageState(dir).TOKEN;
  if (!token) {
    const response = await fetch(`${env.BASE}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: env.CLIENT_ID!, client_secret: env.CLIENT_SECRET! }),
    });
    token = ((await response.json()) as { access_token: string }).access_token;
  }
  const response = await fetch(`${env.BASE}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: example.code }),
  });
  const text = await response.text();
  const body = JSON.parse(text) as { errors?: unknown[] };
  if (response.status !== 200 || body.errors) throw new Error(`HTTP ${response.status}\n${text}`);
  return text;
}

async function runJs(example: DocExample, dir: string): Promise<string> {
  const named = /^\/\/ file: (\S+)\s*$/m.exec(example.code.split('\n')[0] ?? '');
  const file = join(dir, named ? named[1]! : `.block-${example.line}.mjs`);
  writeFileSync(file, example.code);
  const { code, output } = await exec(process.execPath, named ? ['--check', file] : [file], dir);
  if (code !== 0) throw new Error(`exit ${code}\n${output}`);
  return output;
}

function saveFile(example: DocExample, dir: string): Promise<string> {
  writeFileSync(join(dir, example.file!), example.code);
  return Promise.resolve('');
}

function stopGroups(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  groups.clear();
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tt-doctest-'));
  const bin = join(work, 'bin');
  mkdirSync(bin);
  // The CLI as a reader has it on PATH, and curl failing on an HTTP error unless the example prints the status.
  writeFileSync(join(bin, 'tracking'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  const realCurl = ['/usr/bin/curl', '/usr/local/bin/curl', '/bin/curl'].find((p) => existsSync(p)) ?? 'curl';
  writeFileSync(
    join(bin, 'curl'),
    [
      '#!/bin/bash',
      'for a in "$@"; do case "$a" in -w|--write-out|-w*) exec ' + `'${realCurl}'` + ' "$@";; esac; done',
      `exec '${realCurl}' --fail-with-body "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'tracking'), 0o755);
  chmodSync(join(bin, 'curl'), 0o755);
  const port = await freePort();
  env = {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? work,
    LANG: 'C.UTF-8',
    PORT: String(port),
    BASE: `http://localhost:${port}`,
    DATABASE_URL: `sqlite:${join(work, 'tracking.sqlite')}`,
    TT_LOG_LEVEL: 'warn',
    TT_EVALUATE_INTERVAL_SECONDS: '0',
    // Webhook examples wait for a delivery: look for due ones often.
    TT_DELIVERY_POLL_MS: '100',
  };
  const demo = await startServe({ ...env, HOST: '127.0.0.1' });
  env.CLIENT_ID = demo.client_id;
  env.CLIENT_SECRET = demo.client_secret;
}, 180_000);

afterAll(() => {
  stopGroups();
  serve?.kill('SIGTERM');
  if (work) rmSync(work, { recursive: true, force: true });
  console.log(`doc examples run: ${run} of ${total}`);
});

describe('documentation examples', () => {
  it('finds marked examples in the README and docs/', () => {
    expect(total).toBeGreaterThan(0);
  });

  for (const { page, examples } of pages.filter((p) => p.examples.length > 0)) {
    describe(page, () => {
      let dir: string;
      beforeAll(() => {
        dir = join(work, page.replace(/[^\w.-]/g, '_'));
        mkdirSync(dir, { recursive: true });
      });
      afterAll(() => stopGroups());

      for (const example of examples) {
        it(`${page}:${example.line} (${example.lang})`, async () => {
          const runner = example.file
            ? saveFile
            : SHELLS.has(example.lang)
              ? runShell
              : example.lang === 'graphql'
                ? runGraphql
                : example.lang === 'js'
                  ? runJs
                  : undefined;
          if (!runner) throw new Error(`${page}:${example.line}: no runner for \`${example.lang}\` blocks`);
          try {
            await runner(example, dir);
          } catch (err) {
            throw new Error(`${page}:${example.line}: example failed\n${example.code}\n--- output ---\n${(err as Error).message}`, {
              cause: err,
            });
          }
          run += 1;
        }, 180_000);
      }
    });
  }

  it('ran every marked example', () => {
    expect(run).toBe(total);
  });
});
