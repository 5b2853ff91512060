import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A past release built from its commit with the repository alone, for the rolling-upgrade test (issue 48):
 * `git worktree add --detach DIR COMMIT`, then `npm ci` there, which builds dist/ through the `prepare` script.
 * DIR is a cache outside the work tree, keyed by the commit (os.tmpdir()/tt-releases/COMMIT) and reused once a
 * build completed (a marker file written last); a half-made one is removed and made again. On this machine
 * (Node 20, a warm npm cache) 0.4.0's `npm ci` took about 5.5 minutes the first time; a reused build takes none.
 */

const ROOT = join(tmpdir(), 'tt-releases');
const BUILT = '.tt-release-built';

export interface ReleaseBuild {
  dir: string;
  /** `node <cli> serve` runs the release. */
  cli: string;
}

function run(command: string, args: string[], cwd: string, timeoutMs: number): void {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} in ${cwd} failed (${result.status ?? result.signal ?? result.error?.message}):\n${result.stdout}${result.stderr}`.slice(
        -4000,
      ),
    );
  }
}

/** Why `commit` cannot be built from this clone (a shallow clone without it, no git), or null when it can. */
export function releaseUnavailable(repository: string, commit: string): string | null {
  const git = spawnSync('git', ['-C', repository, 'cat-file', '-e', `${commit}^{commit}`], { encoding: 'utf8' });
  if (git.error) return `git is missing (${git.error.message})`;
  if (git.status !== 0) return `commit ${commit} is not in this clone's history (a shallow clone? git fetch --unshallow)`;
  return null;
}

/** The built release of `commit`, from the cache or built now (minutes: `npm ci`). */
export function buildRelease(repository: string, commit: string, timeoutMs = 15 * 60_000): ReleaseBuild {
  const dir = join(ROOT, commit);
  const cli = join(dir, 'dist', 'src', 'cli', 'main.js');
  if (existsSync(join(dir, BUILT)) && existsSync(cli)) return { dir, cli };
  mkdirSync(ROOT, { recursive: true });
  if (existsSync(dir)) {
    // An earlier build stopped half-way: start again from a clean checkout.
    spawnSync('git', ['-C', repository, 'worktree', 'remove', '--force', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
  spawnSync('git', ['-C', repository, 'worktree', 'prune']);
  run('git', ['-C', repository, 'worktree', 'add', '--detach', dir, commit], repository, 120_000);
  run('npm', ['ci', '--no-audit', '--no-fund'], dir, timeoutMs);
  if (!existsSync(cli)) throw new Error(`npm ci in ${dir} built no ${cli}`);
  writeFileSync(join(dir, BUILT), `${new Date().toISOString()}\n`);
  return { dir, cli };
}
