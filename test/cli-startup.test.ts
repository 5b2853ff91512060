import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A CLI that answers at once (issue 27): `tracking --help` and the argument errors of every command load
 * only the parser (commander, the configuration reader), never a command's implementation, so they do not
 * pay for the service (kysely, graphql, jose, pino, the database drivers). What a process loads is recorded
 * by a module resolve hook (node:module register) in the real binary; a command that runs shows the same
 * hook sees what it loads lazily.
 */
const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;
const HEAVY = ['kysely', 'graphql', 'graphql-yoga', 'jose', 'pino', 'better-sqlite3', 'mysql2', 'prom-client', '@pothos/core'];

let dir: string;
let register: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tt-cli-startup-'));
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.TT_MODULE_TRACE, result.url + '\\n');
  return result;
}
`,
  );
  register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
/** Runs the binary; returns its exit, output and the modules it resolved (packages by name, our files by path). */
function traced(args: string[], env: Record<string, string> = {}) {
  const trace = join(dir, `trace-${++runs}.txt`);
  writeFileSync(trace, '');
  const result = spawnSync(process.execPath, ['--import', register, BIN, ...args], {
    env: { ...process.env, TT_LOG_LEVEL: 'warn', TT_MODULE_TRACE: trace, ...env },
    encoding: 'utf8',
  });
  const urls = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(urls.map((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]).filter((p): p is string => Boolean(p)));
  const ours = new Set(urls.map((u) => /\/dist\/(src\/.*)\.js$/.exec(u)?.[1]).filter((p): p is string => Boolean(p)));
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, packages, ours };
}

function expectLight(run: ReturnType<typeof traced>) {
  expect(run.packages.has('commander')).toBe(true);
  expect(HEAVY.filter((p) => run.packages.has(p))).toEqual([]);
  // Nothing of the service: no store, database, auth, GraphQL, HTTP or push code (domain/types: the allowed
  // values an argument is checked against, plain constants; domain/release: the version --version prints).
  expect(
    [...run.ours].filter(
      (p) =>
        !/^src\/(cli\/(main|program|carrier-program|shipment-program|arguments|cli-context)|config\/|domain\/(client-address|thresholds|types|release))/.test(
          p,
        ),
    ),
  ).toEqual([]);
}

describe('tracking answers --help and argument errors without loading the service', () => {
  it('the hook sees what a running command loads (the check cannot pass by accident)', () => {
    const keys = traced(['keys', 'generate', '--json']);
    expect(keys.code).toBe(0);
    expect(keys.packages.has('jose')).toBe(true);
    expect(keys.ours.has('src/cli/keys-command')).toBe(true);
    const path = join(dir, 'migrated.sqlite');
    const migrate = traced(['migrate'], { DATABASE_URL: `sqlite:${path}` });
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.packages.has('kysely')).toBe(true);
    expect(existsSync(path)).toBe(true);
  });

  it('tracking --help lists the commands, exits 0, loads only the parser', () => {
    const run = traced(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: tracking /);
    for (const command of ['serve', 'ingest', 'client', 'carrier', 'poll', 'shipment', 'keys'])
      expect(run.stdout).toContain(`\n  ${command}`);
    expectLight(run);
  });

  it.each([
    [['keys', 'retire', '--help'], /^Usage: tracking keys retire \[options\] <KID>/],
    [['poll', '--help'], /^Usage: tracking poll /],
    [['carrier', 'list', '--help'], /^Usage: tracking carrier list /],
  ])('%j prints its usage and loads only the parser', (args, usage) => {
    const run = traced(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(usage);
    expectLight(run);
  });

  // A bad PORT too: an argument error is answered before the configuration is read.
  it.each([
    [['client', 'create', '--name', 'x'], /required option '--account <ACCOUNT>' not specified/],
    [['client', 'disable'], /missing required argument 'CLIENT_ID'/],
    [['ingest'], /missing required argument 'FILE/],
    [['exception', 'list', '--status', 'MAYBE'], /--status/],
    [['carrier', 'add'], /missing required argument 'CODE'/],
    [['carrier', 'rejected', 'replay', '--id', 'x'], /must be the ID of a kept event/],
    [['poll', '--carrier', 'MAEU'], /--carrier needs --once/],
    [['shipment', 'revoke', 'MAEU', 'B1', '--account', 'a'], /required option '--reason <TEXT>' not specified/],
    [['keys', 'retire', 'kid-1'], /required option '--reason <TEXT>' not specified/],
    // A kid beginning with '-' is the KID, not an unknown option: here the extra word is what is refused.
    [['keys', 'retire', '-3zXQmdAAntcpMr-tAqCk6GR1dMEyzQ4SF_67KBqobo', '--reason', 'rotated', 'extra'], /too many arguments/],
    [['delivery', 'list', '--limit', 'lots'], /--limit/],
    [['serve', 'extra'], /too many arguments|unknown command/],
    [['nonsense'], /unknown command 'nonsense'/],
  ])('%j is a usage error: exit 2, the reason and the help on stderr, nothing of the service loaded', (args, reason) => {
    const run = traced(args, { PORT: 'eighty', DATABASE_URL: `sqlite:${join(dir, 'never.sqlite')}` });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr).toContain('Usage: tracking');
    expectLight(run);
    expect(existsSync(join(dir, 'never.sqlite'))).toBe(false);
  });
});
