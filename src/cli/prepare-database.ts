import type { Database } from '../db/connect.js';
import { checkEngine } from '../db/engine.js';
import type { Log } from '../observability/logger.js';
import { migrateToLatest } from '../store/housekeeping/migrate.js';

/**
 * What every command does with its database before anything else: migrate (under the database's lock, so any
 * number of processes may start at once) and check the engine, warning about one that is known to differ
 * from MySQL 8 and MariaDB, naming a Galera cluster and warning of its settings (src/db/engine.ts).
 */
export async function prepareDatabase(database: Database, log: Log, options: { statementMs?: number } = {}): Promise<void> {
  const applied = await migrateToLatest(database, { log });
  if (applied.length > 0) log('info', `applied ${applied.length} migrations`, { migrations: applied });
  const engine = await checkEngine(database, options);
  if (engine.cluster) {
    const { name, size, node, status, state } = engine.cluster;
    log('info', `database is Galera cluster ${name} of ${size} nodes, through node ${node}`, { cluster: name, size, node, status, state });
  }
  if (engine.warning) {
    log(
      'warn',
      engine.cluster
        ? `Galera cluster ${engine.cluster.name}: settings the service relies on`
        : `database engine ${engine.engine} differs from MySQL 8 and MariaDB`,
      {
        engine: engine.engine,
        version: engine.version,
        detail: engine.warning,
      },
    );
  }
}
