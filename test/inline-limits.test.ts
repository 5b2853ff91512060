import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect, sql } from 'kysely';
import SQLite from 'better-sqlite3';
import { InlineLimitsPlugin } from '../src/db/inline-limits.js';

interface Schema {
  item: { id: number; name: string };
}

describe('InlineLimitsPlugin (SQLite: LIMIT/OFFSET written into the SQL, not bound)', () => {
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }), plugins: [new InlineLimitsPlugin()] });

  it('writes a safe integer limit and offset into the statement and binds the other values', () => {
    const compiled = db.selectFrom('item').select('id').where('name', '=', 'x').limit(5).offset(10).compile();
    expect(compiled.sql).toMatch(/limit 5 offset 10$/);
    expect(compiled.parameters).toEqual(['x']);
  });

  it('keeps anything but a safe non-negative integer a bound parameter', () => {
    for (const value of [-1, 1.5, 2 ** 60]) {
      const compiled = db.selectFrom('item').select('id').limit(value).compile();
      expect(compiled.sql).toMatch(/limit \?$/);
      expect(compiled.parameters).toEqual([value]);
    }
  });

  it('returns the rows the limit and offset select', async () => {
    await sql`create table item (id integer primary key, name text)`.execute(db);
    await db
      .insertInto('item')
      .values([1, 2, 3, 4].map((id) => ({ id, name: `n${id}` })))
      .execute();
    const rows = await db.selectFrom('item').select('id').orderBy('id').limit(2).offset(1).execute();
    expect(rows.map((r) => r.id)).toEqual([2, 3]);
  });
});
