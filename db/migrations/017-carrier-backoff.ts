import type { Kysely, Migration } from 'kysely';
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
export default function carrierBackoff(_dialect: SqlDialect): Migration {
  const ts = keyColumn(30);
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('carrier_source').addColumn('backoff_until', ts).execute();
      await db.schema.alterTable('carrier_source').addColumn('backoff_reason', keyColumn(500)).execute();
      await db.schema
        .alterTable('carrier_source')
        .addColumn('backoff_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
