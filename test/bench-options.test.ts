import { describe, expect, it } from 'vitest';
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
