import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { runOnline } from '../../src/db/online-ddl.js';
import { keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * One back-off per carrier for every instance (docs/carriers.md "Back-off"): a carrier's Retry-After, or the
 * service's own back-off after repeated 5xx or no answer, is kept on the carrier's row, and every instance's
 * poller and tracking fetcher reads it before it calls the carrier.
 *
 * - `backoff_until`: no call to the carrier before this time (null: none asked);
 * - `backoff_reason`: why (the carrier's answer), shown by `tracking carrier list`;
 * - `backoff_failures`: calls in a row whose tries were spent on 5xx or no answer; the service's own back-off
 *   doubles with each (reset by the next answer).
 */
export default function carrierBackoff(dialect: SqlDialect): PhasedMigration {
  const ts = keyColumn(30);
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      await runOnline(db, dialect, db.schema.alterTable('carrier_source').addColumn('backoff_until', ts), 'instant');
      await runOnline(db, dialect, db.schema.alterTable('carrier_source').addColumn('backoff_reason', keyColumn(500)), 'instant');
      await runOnline(
        db,
        dialect,
        db.schema.alterTable('carrier_source').addColumn('backoff_failures', 'integer', (c) => c.notNull().defaultTo(0)),
        'instant',
      );
    },
  };
}
