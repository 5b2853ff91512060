import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { runOnline } from '../../src/db/online-ddl.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Carriers that send EDI (docs/carriers.md "EDI"):
 * - `edi_interchange`: each X12 315 or EDIFACT IFTSTA interchange taken in, by its sender and control
 *   number (ISA06 and ISA13; UNB 0004 and 0020), so that a re-sent interchange is recognised and changes
 *   nothing. One row per (format, sender, control number).
 * - `carrier_source.edi_formats`: the EDI formats a carrier sends (comma-separated, `x12-315`,
 *   `iftsta`); null for DCSA only.
 */
export default function ediInterchanges(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      const exact = await exactTables(db, dialect);
      await exact(
        db.schema
          .createTable('edi_interchange')
          .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
          .addColumn('format', keyColumn(10), (c) => c.notNull())
          .addColumn('sender_id', keyColumn(40), (c) => c.notNull())
          .addColumn('control_number', keyColumn(14), (c) => c.notNull())
          .addColumn('carrier_code', keyColumn(4), (c) => c.notNull())
          .addColumn('received_at', keyColumn(30), (c) => c.notNull())
          .addColumn('transactions', 'integer', (c) => c.notNull())
          .addColumn('transactions_rejected', 'integer', (c) => c.notNull())
          .addColumn('events_stored', 'integer', (c) => c.notNull())
          .addUniqueConstraint('edi_interchange_uq', ['format', 'sender_id', 'control_number']),
      ).execute();
      await runOnline(db, dialect, db.schema.alterTable('carrier_source').addColumn('edi_formats', keyColumn(40)), 'instant');
    },
  };
}
