import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import type { SqlDialect } from '../../src/db/dialect.js';

/**
 * Migration 004 stored each shipment's milestone index in a MySQL `text`
 * column (64 KB): a shipment with 100 containers has a larger index, and its
 * ingest failed with "Data too long". This widens it, and the exception
 * condition column of 003 with it, to the `mediumtext` of the other JSON
 * columns (jsonColumn). SQLite's text has no such bound: nothing to do there.
 */
export default function wideMilestoneIndex(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'contract',
    async up(db: Kysely<any>) {
      if (dialect !== 'mysql') return;
      // MODIFY keeps the column's character set and collation only when restated: the table's default is the exact one (002).
      await sql`alter table shipment modify milestones_json mediumtext null`.execute(db);
      await sql`alter table tracking_exception modify condition_json mediumtext null`.execute(db);
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'mysql') return;
      await sql`alter table shipment modify milestones_json text null`.execute(db);
      await sql`alter table tracking_exception modify condition_json text null`.execute(db);
    },
  };
}
