import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactCollation, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Identifiers and account ids compare exactly, byte for byte, on every store
 * (docs/architecture.md, Identity). SQLite's `=` already does; MySQL/MariaDB compare text
 * under the column's collation, and 001 left that to the server default
 * (often utf8mb4_general_ci: case- and accent-insensitive, trailing spaces
 * ignored), so a client of account `DEMO-ACCOUNT` could read `demo-account`.
 * Every table of 001 is converted to the exact collation (see exactCollation);
 * the conversion also makes it the table default, for columns added later.
 */
const TABLES = [
  'shipment',
  'shipment_container',
  'shipment_account',
  'event',
  'event_reference',
  'shipment_event',
  'tracking_exception',
  'exception_clear',
  'api_client',
  'signing_key',
  'service_secret',
  'transmission_block',
] as const;

export default function exactIdentifiers(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'contract',
    async up(db: Kysely<any>) {
      if (dialect !== 'mysql') return;
      const collation = await exactCollation(db);
      for (const table of TABLES) {
        await sql`alter table ${sql.table(table)} convert to character set utf8mb4 collate ${sql.raw(collation)}`.execute(db);
      }
    },
  };
}
