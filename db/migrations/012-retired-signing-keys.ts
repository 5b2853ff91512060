import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Access that ends everywhere at once (README "Live updates"): `retired_signing_key` records the kid of
 * each token signing key an operator retired (`tracking keys retire KID`). Every instance reads it within
 * the client check's cadence (5 s), so a token signed by a retired key stops working on lookups, and the
 * streams it opened end, on every instance, not only in the process that retired it.
 */
export default function retiredSigningKeys(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      const exact = await exactTables(db, dialect);
      await exact(
        db.schema
          .createTable('retired_signing_key')
          .addColumn('kid', keyColumn(255), (c) => c.primaryKey())
          .addColumn('reason', keyColumn(500), (c) => c.notNull())
          .addColumn('retired_at', keyColumn(30), (c) => c.notNull()),
      ).execute();
    },
  };
}
