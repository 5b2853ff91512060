import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * How a carrier's EDI times without a zone code are read (docs/carriers.md "Times"):
 * `carrier_source.edi_times`, `utc` for a carrier that sends UTC, null for the guides' local time of the
 * status location (the default). Expand only: nullable, so a previous release that inserts carriers without
 * it keeps working, and its carriers read as local. On MySQL/MariaDB the column is added in place
 * (ALGORITHM=INSTANT: no table copy, no lock held while the table is rewritten).
 */
export default function ediTimes(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      if (dialect === 'mysql') {
        await sql`alter table carrier_source add column edi_times varchar(5) null, algorithm=instant`.execute(db);
      } else {
        await db.schema.alterTable('carrier_source').addColumn('edi_times', keyColumn(5)).execute();
      }
    },
  };
}
