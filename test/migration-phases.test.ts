import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations, PREVIOUS_RELEASE_MIGRATIONS } from '../db/migrations/index.js';
import { connectDatabase, type Database } from '../src/db/connect.js';
import { contractSteps } from '../src/store/housekeeping/contract-steps.js';
import { createEmptyDatabase, dialects } from './support/databases.js';

/**
 * Every migration is held to its phase's rules (db/migrations/phase.ts, docs/upgrading.md) by the statements it
 * actually runs on each store, in order on an empty database:
 *
 * - expand: CREATE TABLE; CREATE INDEX (a UNIQUE one only on a table the same step creates, whose rows are its own);
 *   ALTER TABLE ... ADD COLUMN, NOT NULL only with a DEFAULT (the previous release inserts without it); INSERT
 *   only into a table the same step creates; UPDATE only of columns the same step adds; reads. On MySQL/MariaDB
 *   an ALTER or CREATE INDEX of an existing table states its algorithm (src/db/online-ddl.ts), from 015 on: release
 *   0.4.0's migrations (001-014) ran on every deployment long ago and are left as they were written.
 * - contract: anything (it runs only at `tracking upgrade finish`).
 */
interface Verdict {
  statement: string;
  why: string;
}

const identifier = String.raw`[\`"]?(\w+)[\`"]?`;

export function expandViolations(statements: readonly string[], dialect: 'sqlite' | 'mysql', requireAlgorithm = true): Verdict[] {
  const created = new Set<string>();
  const added = new Set<string>();
  const out: Verdict[] = [];
  for (const raw of statements) {
    const s = raw.replace(/\s+/g, ' ').trim();
    const lower = s.toLowerCase();
    const bad = (why: string) => out.push({ statement: s, why });
    let m: RegExpExecArray | null;
    if (/^(select|pragma|show|set session|with)\b/.test(lower)) continue;
    if ((m = new RegExp(String.raw`^create table (?:if not exists )?${identifier}`, 'i').exec(s))) {
      created.add(m[1]!.toLowerCase());
      continue;
    }
    if ((m = new RegExp(String.raw`^create (unique )?index ${identifier} on ${identifier}`, 'i').exec(s))) {
      const table = m[3]!.toLowerCase();
      if (m[1] && !created.has(table)) bad('a unique index on an existing table may refuse what the previous release writes');
      if (requireAlgorithm && dialect === 'mysql' && !created.has(table) && !/algorithm=inplace lock=none$/i.test(s))
        bad('no ALGORITHM=INPLACE LOCK=NONE');
      continue;
    }
    if ((m = new RegExp(String.raw`^alter table ${identifier} add column ${identifier} (.*)$`, 'i').exec(s))) {
      const [, table, column, rest] = m;
      added.add(`${table!.toLowerCase()}.${column!.toLowerCase()}`);
      const definition = rest!.toLowerCase();
      if (/not null/.test(definition) && !/default/.test(definition)) bad('NOT NULL without a default');
      if (/,\s*(add|drop|modify|change|rename)\b/.test(definition)) bad('more than one clause in one ALTER');
      if (
        requireAlgorithm &&
        dialect === 'mysql' &&
        !created.has(table!.toLowerCase()) &&
        !/algorithm=(instant|inplace, lock=none)$/.test(definition)
      ) {
        bad('no ALGORITHM clause');
      }
      continue;
    }
    if ((m = new RegExp(String.raw`^insert into ${identifier}`, 'i').exec(s))) {
      if (!created.has(m[1]!.toLowerCase())) bad('rows written into a table the previous release reads');
      continue;
    }
    if ((m = new RegExp(String.raw`^update ${identifier} set (.*?)(?: where .*)?$`, 'i').exec(s))) {
      const table = m[1]!.toLowerCase();
      const columns = [...m[2]!.matchAll(new RegExp(String.raw`${identifier}\s*=`, 'g'))].map((c) => c[1]!.toLowerCase());
      const foreign = columns.filter((c) => !added.has(`${table}.${c}`) && !created.has(table));
      if (columns.length === 0 || foreign.length > 0) bad(`updates ${foreign.join(', ') || 'columns'} the previous release reads`);
      continue;
    }
    bad('not an expand statement');
  }
  return out;
}

describe('the phase rules', () => {
  it('accept what only adds, and catch what the previous release would trip on', () => {
    expect(
      expandViolations(
        [
          'create table "t" ("id" integer primary key)',
          'create unique index "t_uq" on "t" ("id")',
          'alter table "s" add column "c" integer default 0 not null',
          'update "s" set "c" = 1 where "x" < 2',
          'insert into "t" ("id") values (?)',
        ],
        'sqlite',
      ),
    ).toEqual([]);
    const caught = expandViolations(
      [
        'alter table `s` add column `c` int not null',
        'alter table `s` drop column `d`',
        'create unique index `u` on `s` (`e`) algorithm=inplace lock=none',
        'update `s` set `payload_json` = ?',
        'create index `i` on `s` (`e`)',
      ],
      'mysql',
    ).map((v) => v.why);
    expect(caught).toEqual([
      'NOT NULL without a default',
      'no ALGORITHM clause',
      'not an expand statement',
      'a unique index on an existing table may refuse what the previous release writes',
      'updates payload_json the previous release reads',
      'no ALGORITHM=INPLACE LOCK=NONE',
    ]);
  });

  it('declare every contract step a contract', () => {
    for (const [name, step] of Object.entries(contractSteps())) expect({ name, phase: step.phase }).toEqual({ name, phase: 'contract' });
  });
});

describe.each(dialects)('every migration keeps to its phase on $name', ({ name, enabled }) => {
  let empty: { url: string; destroy(): Promise<void> };
  let database: Database;
  let captured: string[] = [];
  beforeAll(async () => {
    if (!enabled) return;
    empty = await createEmptyDatabase(name);
    database = connectDatabase(empty.url, {
      poolSize: 2,
      log: (event) => {
        if (event.level === 'query') captured.push(event.query.sql);
      },
    });
  });
  afterAll(async () => {
    await database?.close();
    await empty?.destroy();
  });

  it.skipIf(!enabled)('expand steps only add', async () => {
    const violations: Record<string, Verdict[]> = {};
    const phases: Record<string, string> = {};
    for (const [migration, step] of Object.entries(migrations(database.dialect))) {
      captured = [];
      await step.up(database.db);
      phases[migration] = step.phase;
      if (step.phase !== 'expand') continue;
      const found = expandViolations(captured, database.dialect, !PREVIOUS_RELEASE_MIGRATIONS.includes(migration));
      if (found.length > 0) violations[migration] = found;
    }
    expect(violations).toEqual({});
    // Every step of this release after 0.4.0's is an expand step: the contract ones run at finish.
    expect(Object.entries(phases).filter(([n, p]) => !PREVIOUS_RELEASE_MIGRATIONS.includes(n) && p !== 'expand')).toEqual([]);
  });
});
