import { sql, type Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, jsonColumn, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * What keeps data from regressing or going unseen, and what operators need
 * over the whole life of carriers, clients and accounts:
 *
 * - shipment.stated_at: the time of the statement the shipment's master data
 *   is (the bundle's generatedDateTime, a shipment's updatedDateTime, or the
 *   ingestion time); an older statement changes nothing (docs/architecture.md,
 *   Exception rules). Null on shipments stored before: their next statement
 *   is taken, whatever its time.
 * - shipment_statement: digests of statements without a time of their own
 *   (and of future-dated ones, whose time was clamped), so that replaying
 *   one is recognised as a replay.
 * - shipment_account_revocation: an account's access an operator took back;
 *   no ingest grants it again.
 * - unlinked_event: stored events linked to no shipment yet (backfilled here),
 *   for the metric and `tracking carrier unlinked`.
 * - rejected_event: events a poll or a carrier notification refused, kept
 *   with their error (bounded) for `tracking carrier rejected replay`.
 * - carrier_source: the previous notification secret and events credentials,
 *   valid until the end of a rotation's overlap.
 * - api_client.secret_pepper_id: which pepper the secret's HMAC is under
 *   (docs/operating.md "Operating", rotating TT_SECRET_PEPPER); null until the client's
 *   next token request.
 */
export default function statementsAndLifecycle(dialect: SqlDialect): PhasedMigration {
  const ts = keyColumn(30);
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      // New MySQL tables get the exact collation explicitly (docs/architecture.md, Identity), not the server default.
      const exact = await exactTables(db, dialect);

      await db.schema.alterTable('shipment').addColumn('stated_at', ts).execute();
      await exact(
        db.schema
          .createTable('shipment_statement')
          .addColumn('shipment_id', 'integer', (c) => c.notNull())
          .addColumn('digest', keyColumn(64), (c) => c.notNull())
          .addColumn('stated_at', ts, (c) => c.notNull())
          .addPrimaryKeyConstraint('shipment_statement_pk', ['shipment_id', 'digest']),
      ).execute();

      await exact(
        db.schema
          .createTable('shipment_account_revocation')
          .addColumn('shipment_id', 'integer', (c) => c.notNull())
          .addColumn('account_id', keyColumn(100), (c) => c.notNull())
          .addColumn('reason', keyColumn(500), (c) => c.notNull())
          .addColumn('revoked_at', ts, (c) => c.notNull())
          .addPrimaryKeyConstraint('shipment_account_revocation_pk', ['shipment_id', 'account_id']),
      ).execute();

      await exact(
        db.schema
          .createTable('unlinked_event')
          .addColumn('event_seq', 'integer', (c) => c.primaryKey())
          .addColumn('carrier_code', keyColumn(4), (c) => c.notNull()),
      ).execute();
      await db.schema.createIndex('unlinked_event_carrier_idx').on('unlinked_event').columns(['carrier_code', 'event_seq']).execute();
      await sql`insert into unlinked_event (event_seq, carrier_code)
        select e.seq, e.carrier_code from event e
        where not exists (select 1 from shipment_event se where se.event_seq = e.seq)`.execute(db);

      await exact(
        db.schema
          .createTable('rejected_event')
          .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
          .addColumn('carrier_code', keyColumn(4), (c) => c.notNull())
          .addColumn('source', keyColumn(20), (c) => c.notNull())
          .addColumn('digest', keyColumn(64), (c) => c.notNull())
          .addColumn('event_id', keyColumn(100))
          .addColumn('event_json', jsonColumn(dialect), (c) => c.notNull())
          .addColumn('error', keyColumn(1000), (c) => c.notNull())
          .addColumn('first_rejected_at', ts, (c) => c.notNull())
          .addColumn('last_rejected_at', ts, (c) => c.notNull())
          .addColumn('times_rejected', 'integer', (c) => c.notNull().defaultTo(1))
          .addUniqueConstraint('rejected_event_digest_uq', ['carrier_code', 'digest']),
      ).execute();

      await db.schema.alterTable('carrier_source').addColumn('previous_secret_ciphertext', 'text').execute();
      await db.schema.alterTable('carrier_source').addColumn('previous_secret_expires_at', ts).execute();
      await db.schema.alterTable('carrier_source').addColumn('previous_auth_ciphertext', 'text').execute();
      await db.schema.alterTable('carrier_source').addColumn('previous_auth_expires_at', ts).execute();

      await db.schema.alterTable('api_client').addColumn('secret_pepper_id', keyColumn(16)).execute();
    },
  };
}
