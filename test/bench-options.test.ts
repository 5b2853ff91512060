import { describe, expect, it } from 'vitest';
import { migrationMismatch } from '../bench/databases.js';
import { ingestDialects, parseOptions } from '../bench/options.js';

/** `npm run bench -- --sqlite` runs on a machine without MariaDB: nothing of it creates a database there. */
describe('bench options', () => {
  it('--sqlite serves and ingests on SQLite only', () => {
    const options = parseOptions(['--sqlite', '--quick']);
    expect(options.dialect).toBe('sqlite');
    expect(ingestDialects(options)).toEqual(['sqlite']);
  });

  it('a MariaDB run compares the ingest on both stores; --no-ingest on none', () => {
    expect(ingestDialects(parseOptions([]))).toEqual(['mysql', 'sqlite']);
    expect(ingestDialects(parseOptions(['--sqlite', '--no-ingest']))).toEqual([]);
  });
});

/** `--reuse-seed` measures the database a `--keep` run left on its private server (bench/README.md, Scale runs). */
describe('bench options: --reuse-seed', () => {
  const reuse = ['--shipments', '30000', '--private-mariadb', '--private-mariadb-dir', '/tmp/kept', '--reuse-seed'];

  it('names the kept folder and keeps it and its database for the next run', () => {
    const options = parseOptions(reuse);
    expect(options.privateMariadb).toEqual({ bufferPoolGiB: 8, directory: '/tmp/kept', reuse: true });
    expect(options.keep).toBe(true);
    expect(options.shipments).toBe(30_000);
    expect(parseOptions(['--private-mariadb']).privateMariadb?.reuse).toBe(false);
  });

  it('refuses without the private server and its folder', () => {
    expect(() => parseOptions(['--reuse-seed'])).toThrow(/--reuse-seed needs --private-mariadb --private-mariadb-dir DIR/);
    expect(() => parseOptions(['--private-mariadb', '--reuse-seed'])).toThrow(/--reuse-seed needs/);
    expect(() => parseOptions(['--private-mariadb-dir', '/tmp/kept', '--reuse-seed'])).toThrow(/--reuse-seed needs/);
    expect(() => parseOptions(['--private-mariadb', '--private-mariadb-dir', '--reuse-seed'])).toThrow(/--reuse-seed needs/);
    expect(() => parseOptions([...reuse, '--sqlite'])).toThrow(/not --sqlite/);
  });

  it('refuses what would seed the kept database or change it for the next run', () => {
    expect(() => parseOptions([...reuse, '--stages', '10000,30000'])).toThrow(/drop --stages/);
    expect(() => parseOptions([...reuse, '--fanout'])).toThrow(/drop --fanout/);
  });
});

describe('a kept database against the code’s migrations', () => {
  const code = ['001-initial', '002-exact-identifiers', '003-exception-lifecycle'];

  it('matches only when it has applied exactly the code’s migrations', () => {
    expect(migrationMismatch(code, code)).toBeNull();
    expect(migrationMismatch(code.slice(0, 2), code)).toMatch(/lacks the code's migrations 003-exception-lifecycle: it is behind/);
    expect(migrationMismatch([...code, '024-later'], code)).toMatch(/does not know \(024-later\): it is ahead/);
  });
});

/** A MariaDB scale run reads the lookup tables into the buffer pool before each stage (bench/warm-pool.ts). */
describe('bench options: --cold-pool', () => {
  it('warms the pool on MariaDB unless told not to; never on SQLite', () => {
    expect(parseOptions(['--shipments', '30000']).warmPool).toBe(true);
    expect(parseOptions(['--shipments', '30000', '--cold-pool']).warmPool).toBe(false);
    expect(parseOptions(['--sqlite', '--shipments', '30000']).warmPool).toBe(false);
  });
});
