import type { Database } from '../db/connect.js';
import { checkEngine } from '../db/engine.js';
import type { Log } from '../service/logger.js';
import { migrateToLatest } from '../store/migrate.js';

/**
 * What every command does with its database before anything else: migrate (under the database's lock, so any
 * number of processes may start at once) and check the engine, warning about one that is known to differ
 * from MySQL 8 and MariaDB (src/db/engine.ts).
 */
export async function prepareDatabase(database: Database, log: Log): Promise<void> {
  await migrateToLatest(database, { log });
  const engine = await checkEngine(database);
  if (engine.warning) {
    log('warn', `database engine ${engine.engine} differs from MySQL 8 and MariaDB`, {
      engine: engine.engine,
      version: engine.version,
      detail: engine.warning,
    });
  }
}
