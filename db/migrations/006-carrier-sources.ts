import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Carriers as configured event sources (docs/carriers.md "Carrier onboarding"): each
 * carrier's notification secret (the DCSA Notification-Signature key) and,
 * optionally, the DCSA `GET /v2/events` endpoint the poller reads, with its
 * credentials. Secrets and credentials are sealed (src/auth/secret-box.ts),
 * never stored in plain text.
 *
 * carrier_poll_state is the poller's per-carrier bookkeeping, shared by every
 * instance: the watermark it resumes from, and the lease that keeps two
 * instances from polling one carrier at once (taken with one atomic UPDATE).
 */
export default function carrierSources(dialect: SqlDialect): PhasedMigration {
  const ts = keyColumn(30);
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      // New MySQL tables get the exact collation explicitly (docs/architecture.md, Identity), not the server default.
      const exact = await exactTables(db, dialect);

      await exact(
        db.schema
          .createTable('carrier_source')
          .addColumn('carrier_code', keyColumn(4), (c) => c.primaryKey())
          .addColumn('name', keyColumn(200), (c) => c.notNull())
          .addColumn('status', keyColumn(10), (c) => c.notNull())
          .addColumn('notification_secret_ciphertext', 'text', (c) => c.notNull())
          .addColumn('events_url', keyColumn(2000))
          .addColumn('events_auth_ciphertext', 'text')
          .addColumn('poll_interval_seconds', 'integer', (c) => c.notNull().defaultTo(300))
          .addColumn('created_at', ts, (c) => c.notNull())
          .addColumn('updated_at', ts, (c) => c.notNull())
          .addColumn('secret_rotated_at', ts, (c) => c.notNull())
          .addColumn('disabled_at', ts),
      ).execute();

      await exact(
        db.schema
          .createTable('carrier_poll_state')
          .addColumn('carrier_code', keyColumn(4), (c) => c.primaryKey())
          .addColumn('watermark', ts, (c) => c.notNull())
          .addColumn('next_poll_at', ts, (c) => c.notNull())
          .addColumn('lease_owner', keyColumn(64))
          .addColumn('lease_until', ts, (c) => c.notNull())
          .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_polled_at', ts)
          .addColumn('last_error', keyColumn(500))
          .addColumn('events_polled', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await db.schema.createIndex('carrier_poll_state_due_idx').on('carrier_poll_state').column('next_poll_at').execute();
    },
  };
}
