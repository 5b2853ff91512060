import { createServer } from 'node:http';
import { createApp } from '../app/create-app.js';
import { createLogger } from '../app/logger.js';
import type { Config } from '../config/config.js';
import { connectDatabase, migrateToLatest } from '../db/connect.js';
import { evaluateTimeRules } from '../store/time-rules.js';
import { ensureSandboxDemoClient, seedSandboxIfEmpty } from './sandbox-seed.js';

/**
 * `tracking serve`: migrate, seed the sandbox into an empty sandbox database,
 * listen, and re-run the time-based exception rules periodically. Resolves
 * -1 (keep running); SIGINT/SIGTERM close the server and the pool.
 */
export async function runServe(config: Config): Promise<number> {
  const logger = createLogger(config.logLevel);
  const database = connectDatabase(config.databaseUrl, { poolSize: config.dbPoolSize });
  await migrateToLatest(database);
  const app = await createApp({
    config,
    database,
    logger,
    snapshotCacheBytes: config.snapshotCacheMb === undefined ? undefined : config.snapshotCacheMb * 1024 * 1024,
  });

  let demo: { client_id: string; client_secret: string } | null = null;
  if (config.environment === 'sandbox') {
    if (config.seedSandbox) {
      const seeded = await seedSandboxIfEmpty(database, config);
      if (seeded) logger.log('info', 'seeded the sandbox bundle', seeded);
    }
    demo = await ensureSandboxDemoClient(database, app.clients);
  }

  const server = createServer(app.yoga);
  // Keep-alive longer than typical load balancer idle timeouts, so they close first.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const local = `http://localhost:${port}`;
  const lines = [
    `track-and-trace ${config.environment} listening on ${local} (database ${database.description})`,
    `  REST      ${local}/v2/shipments   token: POST ${local}/oauth/token`,
    config.graphiql ? `  GraphiQL  ${local}/graphql` : `  GraphQL   ${local}/graphql`,
    `  health    ${local}/health   readiness: ${local}/ready`,
  ];
  if (demo) lines.push(`  sandbox demo client (account demo-account): client_id=${demo.client_id} client_secret=${demo.client_secret}`);
  process.stdout.write(`${lines.join('\n')}\n`);

  let timer: NodeJS.Timeout | undefined;
  if (config.evaluateIntervalSeconds > 0) {
    const tick = async () => {
      try {
        const result = await evaluateTimeRules(database, config.thresholds, new Date());
        if (result.changed > 0) logger.log('info', 'time-based exception rules re-evaluated', { ...result });
      } catch (err) {
        logger.log('error', 'evaluate failed', { error: err instanceof Error ? err.message : String(err) });
      }
    };
    timer = setInterval(tick, config.evaluateIntervalSeconds * 1000);
    timer.unref();
    void tick();
  }

  const shutdown = (signal: string) => {
    logger.log('info', `received ${signal}, shutting down`);
    if (timer) clearInterval(timer);
    server.close(() => {
      void database.close().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  return -1;
}
