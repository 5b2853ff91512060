import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { runOnline } from '../../src/db/online-ddl.js';
import type { SqlDialect } from '../../src/db/dialect.js';

/**
 * Compact event storage (docs/architecture.md, Event storage): `event.payload` holds the event's JSON compressed
 * against a preset dictionary behind a format byte (src/store/events/event-payload.ts); new rows write it and '' in
 * `payload_json`. The column is added nullable, at the end of the table: instant on MariaDB 10.3+ and MySQL
 * 8.0.12+, a schema change alone on SQLite, so the migration never rewrites the table. Rows stored before keep
 * their plain JSON and read as they are; backfillCompactEvents (src/store/events/compact-events.ts) converts them
 * afterwards in small transactions.
 */
export default function compactEvents(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      await runOnline(
        db,
        dialect,
        db.schema.alterTable('event').addColumn('payload', dialect === 'mysql' ? sql`mediumblob` : 'blob'),
        'instant',
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('event').dropColumn('payload').execute();
    },
  };
}
