import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { runOnline } from '../../src/db/online-ddl.js';
import { keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Grants and revokes are changes (docs/account-feed.md): an account given a shipment, or one that lost it, is a
 * change_log row of that account alone.
 *
 * - `change_log.account_id`: null for a change of the shipment itself (every account that sees it reads it); the
 *   account for `GRANTED` and `REVOKED` (only that account's readers get it, and a REVOKED reaches them although
 *   the account no longer sees the shipment).
 * - `dcsa_notification_event_seq_idx`: the DCSA notifications that already carried an event, so a subscription
 *   whose account gains a shipment receives its past events once (src/store/push/dcsa-outbox.ts).
 */
export default function accessChanges(dialect: SqlDialect): PhasedMigration {
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      // Added columns take the table's exact collation (004 sets it as the table's default).
      await runOnline(db, dialect, db.schema.alterTable('change_log').addColumn('account_id', keyColumn(100)), 'instant');
      await runOnline(
        db,
        dialect,
        db.schema.createIndex('dcsa_notification_event_seq_idx').on('dcsa_notification_event').columns(['event_seq', 'delivery_id']),
        'inplace',
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('dcsa_notification_event_seq_idx').on('dcsa_notification_event').execute();
      await db.schema.alterTable('change_log').dropColumn('account_id').execute();
    },
  };
}
