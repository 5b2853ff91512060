import { sql } from 'kysely';
import type { Database } from './connect.js';

/**
 * Which engine answers on the MySQL protocol, and whether the service knows it to behave differently from
 * MySQL 8 and MariaDB, where it is tested (docs/architecture.md, Scale-out). Nothing in the service depends on
 * engine-specific locking (no `SKIP LOCKED`; claims are conditional UPDATEs), but two things rest on what
 * MySQL and MariaDB do and some compatible engines do not:
 *
 * - auto-increment ids grow in the order they are handed out: deliveries of a subscription are sent in id
 *   order, and a shipment's changes are in id order within an ordering batch of the change log;
 * - one database with ordinary transactions: the outbox and the change log are written in the transaction of
 *   the change that caused them.
 */

export interface EngineCheck {
  /** MySQL, MariaDB, TiDB, Vitess, SQLite, or what the server called itself. */
  engine: string;
  version: string;
  /** Set when the engine is known to differ in what the service relies on. */
  warning: string | null;
}

/** Names the engine from `SELECT VERSION()` and `@@version_comment`. Pure. */
export function classifyEngine(version: string, comment: string): EngineCheck {
  const text = `${version} ${comment}`;
  if (/tidb/i.test(text)) {
    return {
      engine: 'TiDB',
      version,
      warning:
        'TiDB hands out auto-increment ids in per-server batches, not in order across TiDB servers (unless the tables ' +
        'use AUTO_ID_CACHE 1): webhook order per subscription and the change log order per shipment rely on that ' +
        'order. The service is tested on MySQL 8 and MariaDB only.',
    };
  }
  if (/vitess|planetscale/i.test(text)) {
    return {
      engine: 'Vitess',
      version,
      warning:
        "Vitess: keep the service's tables in one unsharded keyspace. The outbox and the change log are written in " +
        'the transaction of the change that caused them, and their order rests on auto-increment ids, which a ' +
        'sharded keyspace neither keeps in one transaction nor hands out in order. The service is tested on ' +
        'MySQL 8 and MariaDB only.',
    };
  }
  if (/mariadb/i.test(text)) return { engine: 'MariaDB', version, warning: null };
  return { engine: 'MySQL', version, warning: null };
}

/** Asks the server what it is. SQLite is itself. */
export async function checkEngine(database: Database): Promise<EngineCheck> {
  if (database.dialect === 'sqlite') {
    const { rows } = await sql<{ version: string }>`select sqlite_version() as version`.execute(database.db);
    return { engine: 'SQLite', version: rows[0]?.version ?? '', warning: null };
  }
  const { rows } = await sql<{ version: string }>`select version() as version`.execute(database.db);
  const version = rows[0]?.version ?? '';
  let comment = '';
  try {
    const answer = await sql<{ comment: string | null }>`select @@version_comment as comment`.execute(database.db);
    comment = answer.rows[0]?.comment ?? '';
  } catch {
    // An engine without the variable: the version alone names it.
  }
  return classifyEngine(version, comment);
}
