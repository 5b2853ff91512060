import type { Kysely } from 'kysely';
import type { PhasedMigration } from './phase.js';
import { exactTables, keyColumn, type SqlDialect } from '../../src/db/dialect.js';

/**
 * Which releases are running (docs/upgrading.md; src/store/housekeeping/instance-heartbeats.ts): every
 * `tracking serve` writes its row at start-up and every few seconds, and deletes it when it stops, so that
 * `tracking upgrade status` lists the instances with their versions and `tracking upgrade finish` refuses while
 * an instance of an older release is alive.
 *
 * - `id`: the instance (host:pid:random), `version`: its release (semver);
 * - `started_at`, `last_seen_at`: ISO 8601 times of the instance's own clock. An instance is alive while its
 *   `last_seen_at` is recent (a few heartbeats, which tolerates NTP-kept skew).
 *
 * A new table: the previous release ignores it (an expand step).
 */
export default function instanceHeartbeats(dialect: SqlDialect): PhasedMigration {
  const ts = keyColumn(30);
  return {
    phase: 'expand',
    async up(db: Kysely<any>) {
      const exact = await exactTables(db, dialect);
      await exact(
        db.schema
          .createTable('instance_heartbeat')
          .addColumn('id', keyColumn(100), (c) => c.primaryKey())
          .addColumn('version', keyColumn(40), (c) => c.notNull())
          .addColumn('started_at', ts, (c) => c.notNull())
          .addColumn('last_seen_at', ts, (c) => c.notNull()),
      ).execute();
    },
  };
}
