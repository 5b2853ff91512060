import { createServer, type Server } from 'node:http';
import { createHttpServer, listen } from '../http/http-server.js';
import { Request as FetchRequest } from '@whatwg-node/fetch';
import { createApp } from '../app/create-app.js';
import { startEvaluator } from '../app/workers.js';
import { startEtaTrainer } from '../app/eta-training.js';
import { startPredictedArrivalPusher } from '../app/predicted-arrival-pusher.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { countIngestedBundle, withStatementMetrics } from '../observability/metrics.js';
import { startTracing } from '../app/tracing.js';
import { metricsEndpoint } from '../http/use-metrics.js';
import type { Config } from '../config/config.js';
import { connectDatabase } from '../db/connect.js';
import { startCarrierPoller, startTrackingFetcher } from '../carriers/serve-poller.js';
import { ensureSandboxCarrier, ensureSandboxEdiCarrier, sandboxCarrierFetch } from '../carriers/sandbox-carrier.js';
import { ensureSandboxDemoClient, SANDBOX_DEMO_ACCOUNT, seedSandboxIfEmpty } from '../app/sandbox-seed.js';
import { prepareDatabase } from './prepare-database.js';
import { recordServiceValue } from '../store/housekeeping/service-secrets.js';
import { startHeartbeat } from '../store/housekeeping/instance-heartbeats.js';
import { SERVED_BASE_URL } from './carrier-commands.js';
import { VERSION } from '../domain/release.js';

/**
 * `tracking serve`: migrate, seed the sandbox into an empty sandbox database,
 * listen, and re-run the time-based exception rules periodically. Resolves
 * -1 (keep running); SIGINT/SIGTERM close the server and the pool.
 */
export async function runServe(config: Config, stdout: NodeJS.WriteStream = process.stdout): Promise<number> {
  const logger = createLogger(config.logLevel);
  // Migrations run on their own connections, without the statement timeout a long ALTER would hit: one migrates,
  // the other renews the migration lease meanwhile (src/store/housekeeping/migrate.ts).
  const migrating = connectDatabase(config.databaseUrl, { poolSize: 2 });
  try {
    await prepareDatabase(migrating, logger.log, { statementMs: config.resilience.db.statementMs });
  } finally {
    await migrating.close();
  }
  const database = connectDatabase(config.databaseUrl, {
    poolSize: config.dbPoolSize,
    log: withStatementMetrics(undefined, config.metrics.enabled),
    timeouts: config.resilience.db,
  });
  // This instance's release in the database (docs/upgrading.md), before it writes anything: each beat also reads
  // whether the upgrade is finished, which decides the forms its writes store (src/store/encoding/write-forms.ts).
  const heartbeat = await startHeartbeat(database.db, database.dialect, { log: logger.log }).catch(async (err: unknown) => {
    await database.close().catch(() => undefined);
    throw err;
  });
  const tracing = config.tracing.otlpEndpoint ? await startTracing(config.tracing) : undefined;
  const app = await createApp({
    config,
    database,
    logger,
    snapshotCacheBytes: config.snapshotCacheMb === undefined ? undefined : config.snapshotCacheMb * 1024 * 1024,
    plugins: tracing?.plugins,
    httpPlugins: tracing?.httpPlugins,
  }).catch(async (err: unknown) => {
    // Nothing listens yet: the error ends the command (exit 1) once nothing holds the process open.
    await tracing?.shutdown().catch(() => undefined);
    await heartbeat.stop().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  });

  // Any start-up step that fails (a seed or a write that ran out of retries, a port in use) ends the process with a
  // non-zero code: never an instance that listens and answers /ready without its workers or its signal handlers.
  let http: ReturnType<typeof createHttpServer> | undefined;
  let metricsServer: Server | undefined;
  try {
    // Seeds are idempotent upserts: every replica of a deployment may run them at the same moment (README,
    // Operating). TT_SEED_SANDBOX=false creates nothing, the demo client included.
    let demo: { client_id: string; client_secret: string } | null = null;
    if (config.environment === 'sandbox' && config.seedSandbox) {
      const seeded = await seedSandboxIfEmpty(database, config, new Date(), countIngestedBundle);
      if (seeded) logger.log('info', 'seeded the sandbox bundle', seeded);
      demo = await ensureSandboxDemoClient(database, app.clients);
      await ensureSandboxCarrier(app.services.carriers);
      await ensureSandboxEdiCarrier(app.services.carriers);
    }
    // The sandbox's simulated carrier answers in-process (docs/tracking-requests.md, Sandbox); any other address goes out.
    const carrierFetch = config.environment === 'sandbox' ? sandboxCarrierFetch() : undefined;

    const server = createHttpServer(app.listener, { config, log: logger.log, dialect: database.dialect });
    http = server;
    const port = await server.listen(config.port, config.host);
    metricsServer =
      app.metricsRegistry && config.metrics.port !== undefined
        ? createMetricsServer(metricsEndpoint(app.metricsRegistry, config.metrics.token), logger)
        : undefined;
    const metricsPort = metricsServer ? await listen(metricsServer, config.metrics.port ?? 0, config.host) : undefined;

    const local = `http://localhost:${port}`;
    // The address the CLI prints in URLs handed to others (a carrier's notification URL) when TT_BASE_URL is
    // unset in its shell: the one this server actually answers at (carrier-commands.ts, publicBaseUrl).
    await recordServiceValue(database.db, SERVED_BASE_URL, config.baseUrlSet ? config.baseUrl : local);
    const urls = {
      rest: `${local}/v2/shipments`,
      token: `${local}/oauth/token`,
      graphql: `${local}/graphql`,
      health: `${local}/health`,
      ready: `${local}/ready`,
      docs: `${local}/docs`,
      openapi: `${local}/openapi.json`,
      ...(app.metricsRegistry ? { metrics: `http://localhost:${metricsPort ?? port}/metrics` } : {}),
    };
    // The sandbox demo client's secret is sandbox data, shown at every start so the README's
    // first command leads somewhere; production has no demo client and prints no secret.
    logger.announce(`track-and-trace ${config.environment} listening on ${local}`, {
      version: VERSION,
      environment: config.environment,
      database: database.description,
      urls,
      graphiql: config.graphiql,
      tracing: tracing ? withoutCredentials(config.tracing.otlpEndpoint ?? '') : false,
      ...(demo ? { sandboxDemoClient: { account: SANDBOX_DEMO_ACCOUNT, ...demo } } : {}),
    });
    if (stdout.isTTY) stdout.write(humanBanner(config, database.description, urls, demo));

    const evaluator = startEvaluator(config, database, logger);
    // PREDICTED_ARRIVAL (docs/push.md, Predicted arrival): timed passes, and one soon after this process
    // commits an ingest or a new model; what it enqueues wakes the delivery worker.
    const wakeDeliveries = app.services.push.wake;
    const predictedArrivalPusher = startPredictedArrivalPusher(config, database, app.services.predictions, logger, {
      onPushed: () => wakeDeliveries(),
    });
    app.services.push.wake = () => {
      wakeDeliveries();
      predictedArrivalPusher.nudge();
    };
    // The predicted arrival's model, folded forward as voyages arrive (one instance at a time, by a lease).
    const etaTrainer = startEtaTrainer(config, database, logger, { onTrained: () => predictedArrivalPusher.nudge() });

    // Stored snapshots are no longer compacted in the background here: rewriting them into the compact form is a
    // contract step, which `tracking upgrade finish` runs (docs/upgrading.md).

    // Webhook deliveries of every instance's (and the CLI's) commits; off where dedicated `tracking deliver` workers run.
    if (config.push.worker) app.deliveries.start();
    // Carriers' DCSA events endpoints; off where a dedicated `tracking poll` runs.
    const poller = config.carriers.poller
      ? startCarrierPoller({ ...app.services, fetch: carrierFetch, wake: () => app.services.push.wake() })
      : undefined;
    // What clients asked to track (docs/tracking-requests.md); off where a dedicated `tracking poll` runs.
    const fetcher = config.tracking.fetcher
      ? startTrackingFetcher({ ...app.services, fetch: carrierFetch, wake: () => app.services.push.wake() })
      : undefined;

    // Graceful shutdown (README "Shutdown"): /ready turns 503, every request
    // received is answered with Connection: close, idle connections end after
    // a linger and the listener closes after it (http-server.ts, drain); once
    // the connections are gone, the evaluator (between runs), the delivery
    // worker, the poller and the pool stop.
    const graceMs = config.resilience.shutdownGraceSeconds * 1000;
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.log('info', `received ${signal}, shutting down`, { graceSeconds: config.resilience.shutdownGraceSeconds });
      // The hard limit: whatever still runs then is cut.
      setTimeout(() => process.exit(1), graceMs).unref();
      metricsServer?.close();
      metricsServer?.closeIdleConnections();
      // Most of the grace for requests; the rest for the worker and the pool.
      void server
        .drain(Math.max(graceMs - 1000, graceMs / 2))
        .then(() => Promise.all([evaluator.stop(), etaTrainer.stop(), predictedArrivalPusher.stop()]))
        .then(() => Promise.all([app.close(), poller?.stop(), fetcher?.stop()]))
        .then(() => tracing?.shutdown())
        // No longer serving: `tracking upgrade status` stops listing it, `finish` stops waiting for it.
        .then(() => heartbeat.stop())
        .catch((err: unknown) => logger.log('warn', 'shutdown step failed', { error: String(err) }))
        .then(() => database.close())
        .catch((err: unknown) => logger.log('warn', 'closing the database failed', { error: String(err) }))
        .finally(() => process.exit(0));
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  } catch (err) {
    logger.log('error', 'start-up failed; closing the listener and exiting', { error: err instanceof Error ? err.stack : String(err) });
    // Whatever still runs then is cut.
    setTimeout(() => process.exit(1), 5000).unref();
    metricsServer?.close();
    await http?.drain(0).catch(() => undefined);
    await app.close().catch(() => undefined);
    await tracing?.shutdown().catch(() => undefined);
    await heartbeat.stop().catch(() => undefined);
    await database.close().catch(() => undefined);
    return 1;
  }
  return -1;
}

/** TT_METRICS_PORT: a listener that answers GET /metrics and nothing else (404). */
function createMetricsServer(scrape: (request: Request) => Promise<Response>, logger: Logger): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('only /metrics here\n');
      return;
    }
    const headers = new Headers();
    if (req.headers.authorization) headers.set('authorization', req.headers.authorization);
    scrape(new FetchRequest(`http://metrics${path}`, { method: req.method, headers }))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(req.method === 'HEAD' ? undefined : await response.text());
      })
      .catch((err: unknown) => {
        logger.log('error', 'metrics scrape failed', { error: err instanceof Error ? err.stack : String(err) });
        res.writeHead(500).end();
      });
  });
}

/** A collector URL may carry user:password; the banner shows where spans go, not how to log in there. */
function withoutCredentials(endpoint: string): string {
  const url = new URL(endpoint);
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/$/, '');
}

function humanBanner(
  config: Config,
  database: string,
  urls: Record<string, string>,
  demo: { client_id: string; client_secret: string } | null,
): string {
  const lines = [
    '',
    `track-and-trace ${config.environment}, database ${database}`,
    `  REST      ${urls.rest}   token: POST ${urls.token}`,
    `  ${config.graphiql ? 'GraphiQL' : 'GraphQL '}  ${urls.graphql}`,
    `  health    ${urls.health}   readiness: ${urls.ready}`,
    `  API docs  ${urls.docs}   OpenAPI: ${urls.openapi}`,
    ...(urls.metrics ? [`  metrics   ${urls.metrics}`] : []),
  ];
  if (demo) {
    lines.push(
      `  sandbox demo client (account ${SANDBOX_DEMO_ACCOUNT}):`,
      `    export CLIENT_ID=${demo.client_id} CLIENT_SECRET=${demo.client_secret}`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}
