import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareVersions, VERSION } from '../src/domain/release.js';
import { listInstances } from '../src/store/housekeeping/instance-heartbeats.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/** Releases (CHANGELOG.md, docs/upgrading.md): the version everywhere it shows, the changelog the upgrade test reads. */
const root = new URL('..', import.meta.url).pathname;
const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;

function tracking(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, TT_LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the release', () => {
  it('is the version package.json states, printed bare by tracking --version', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(tracking(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it("is the changelog's newest release, under [Unreleased], and the previous release's commit is on a line of its own", () => {
    const changelog = readFileSync(`${root}CHANGELOG.md`, 'utf8');
    const releases = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => m[1]);
    expect(releases.slice(0, 3)).toEqual(['Unreleased', VERSION, '0.4.0']);
    const section = changelog.slice(changelog.indexOf(`## [${VERSION}]`), changelog.indexOf('## [0.4.0]'));
    expect(section).toMatch(/^### Upgrading$/m);
    const commit = /^Commit: ([0-9a-f]{40})$/m.exec(changelog.slice(changelog.indexOf('## [0.4.0]')))?.[1];
    expect(commit).toBe('269978ec8b43c5b8ed4dd81a2467d8b1c0b0f046');
  });

  it('orders versions as semver does', () => {
    expect(compareVersions('0.4.0', '0.5.0')).toBeLessThan(0);
    expect(compareVersions('0.10.0', '0.9.1')).toBeGreaterThan(0);
    expect(compareVersions('0.5.0-rc.1', '0.5.0')).toBeLessThan(0);
    expect(compareVersions('0.5.0', '0.5.0')).toBe(0);
  });
});

describe.each(dialects)('tracking upgrade on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name, { migrateTo: '014-tracking-requests' });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)(
    'status lists pending steps; finish refuses without the word about 0.4.0, then finishes, then has nothing to do',
    () => {
      const env = { DATABASE_URL: t.url };
      const status = tracking(['upgrade', 'status', '--json'], env);
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toEqual({
        instances: [],
        pending: [
          '025-compact-events',
          '026-compact-snapshots',
          '027-compact-milestones',
          '028-mark-stand-ins',
          '032-plain-access-changes',
        ],
        finished: false,
      });
      const refused = tracking(['upgrade', 'finish'], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('--previous-release-stopped');
      const finished = tracking(['upgrade', 'finish', '--previous-release-stopped'], env);
      expect(finished).toMatchObject({ code: 0 });
      expect(finished.stdout).toContain(`Finished the upgrade to ${VERSION}`);
      expect(JSON.parse(tracking(['upgrade', 'status', '--json'], env).stdout)).toMatchObject({ pending: [], finished: true });
      expect(tracking(['upgrade', 'finish'], env)).toMatchObject({
        code: 0,
        stdout: `The upgrade to ${VERSION} is finished already: nothing to do.\n`,
      });
      expect(tracking(['upgrade', 'status'], env).stdout).toContain(`Upgrade to ${VERSION}: finished.`);
    },
    120_000,
  );
});

describe.each(dialects)('standalone workers on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)(
    'tracking poll and tracking deliver record their heartbeat while they run, listed by upgrade status, and delete it when stopped',
    async () => {
      const env = { ...process.env, DATABASE_URL: t.url, TT_LOG_LEVEL: 'warn' };
      const workers = [['poll'], ['deliver']].map((args) => {
        const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        return { child, exited };
      });
      try {
        // Each records its row at start-up, before it works.
        for (let i = 0; ; i++) {
          const instances = await listInstances(t.database.db, new Date());
          if (instances.length === 2) {
            expect(instances).toMatchObject([
              { version: VERSION, alive: true },
              { version: VERSION, alive: true },
            ]);
            break;
          }
          if (i > 300) throw new Error(`instances: ${JSON.stringify(instances)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const status = JSON.parse(tracking(['upgrade', 'status', '--json'], { DATABASE_URL: t.url }).stdout) as { instances: unknown[] };
        expect(status.instances).toHaveLength(2);
      } finally {
        for (const w of workers) w.child.kill('SIGTERM');
      }
      expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
      expect(await listInstances(t.database.db, new Date())).toEqual([]);
    },
    120_000,
  );
});
