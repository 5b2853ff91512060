import { createWorkerServices } from '../app/workers.js';
import { createLogger } from '../observability/logger.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { whileBeating } from '../store/housekeeping/instance-heartbeats.js';
import { listDeliveries, retryDelivery } from '../store/push/delivery-queue.js';
import { listAllSubscriptions, type SubscriptionStatus } from '../store/push/webhook-subscriptions.js';
import { EXIT_NOT_FOUND, EXIT_OK, table, type CommandIo } from './client-commands.js';

/**
 * Operator commands of push delivery (docs/architecture.md, Push): look at
 * subscriptions and the delivery log, retry a failed delivery, and run a
 * dedicated delivery worker (`tracking deliver`) beside or instead of the
 * one in `serve`.
 */

export async function listSubscriptionsCommand(
  database: Database,
  filter: { client?: string; status?: SubscriptionStatus; limit: number },
  options: { json?: boolean },
  io: CommandIo,
): Promise<number> {
  const subscriptions = await listAllSubscriptions(database.db, {
    ...(filter.client ? { clientId: filter.client } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    limit: filter.limit,
  });
  if (options.json) {
    io.stdout.write(`${JSON.stringify(subscriptions)}\n`);
    return EXIT_OK;
  }
  if (subscriptions.length === 0) {
    io.stdout.write('No subscriptions.\n');
    return EXIT_OK;
  }
  io.stdout.write(
    table(
      ['SUBSCRIPTION_ID', 'CLIENT_ID', 'ACCOUNT', 'STATUS', 'TRIGGERS', 'CALLBACK_URL', 'CREATED'],
      subscriptions.map((s) => [
        s.subscriptionID,
        s.clientID,
        s.accountID,
        s.status === 'DISABLED' ? `DISABLED (${s.disabledReason ?? ''})` : s.status,
        s.triggerTypes.join(','),
        s.callbackUrl,
        s.createdDateTime,
      ]),
    ),
  );
  return EXIT_OK;
}

export async function listDeliveriesCommand(
  database: Database,
  filter: { subscription?: string; status?: string; limit: number },
  options: { json?: boolean },
  io: CommandIo,
): Promise<number> {
  const deliveries = await listDeliveries(database.db, {
    ...(filter.subscription ? { subscriptionId: filter.subscription } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    limit: filter.limit,
  });
  if (options.json) {
    io.stdout.write(`${JSON.stringify(deliveries)}\n`);
    return EXIT_OK;
  }
  if (deliveries.length === 0) {
    io.stdout.write('No deliveries.\n');
    return EXIT_OK;
  }
  io.stdout.write(
    table(
      ['DELIVERY_ID', 'SUBSCRIPTION_ID', 'TRIGGER', 'STATUS', 'ATTEMPTS', 'LAST', 'NEXT_ATTEMPT', 'CREATED'],
      deliveries.map((d) => [
        d.deliveryID,
        d.subscriptionID,
        d.triggerType,
        d.status,
        String(d.attempts),
        d.lastStatus !== null ? String(d.lastStatus) : (d.lastError ?? '').slice(0, 40),
        d.nextAttemptDateTime ?? '',
        d.createdDateTime,
      ]),
    ),
  );
  return EXIT_OK;
}

export async function retryDeliveryCommand(database: Database, deliveryId: string, io: CommandIo & { now: () => Date }): Promise<number> {
  if (!(await retryDelivery(database.db, deliveryId, io.now()))) {
    io.stderr.write(
      `tracking delivery retry: no FAILED delivery "${deliveryId}" of an active subscription (see: tracking delivery list --status FAILED)\n`,
    );
    return EXIT_NOT_FOUND;
  }
  io.stdout.write(`Delivery ${deliveryId} is pending again and will be sent by the next worker round.\n`);
  return EXIT_OK;
}

/**
 * `tracking deliver`: a delivery worker without the HTTP server, for
 * operators who run workers apart from the API instances (set
 * TT_DELIVERY_WORKER=false on those). With `--once`, sends what is due and
 * exits (e.g. from cron); otherwise runs until SIGINT/SIGTERM, finishing the
 * round in progress. Like serve, it records its release in `instance_heartbeat` while it runs and re-reads the
 * upgrade's state with each beat (docs/upgrading.md), so `tracking upgrade status` lists it and `finish` refuses
 * while an older one runs.
 */
export async function deliverCommand(database: Database, config: Config, options: { once?: boolean }, io: CommandIo): Promise<number> {
  // Logs on stderr: stdout carries only the command's results (one JSON line per carrier or round).
  const logger = createLogger(config.logLevel, io.stderr);
  return whileBeating(database.db, database.dialect, logger.log, () => deliver(database, config, options, io, logger));
}

async function deliver(
  database: Database,
  config: Config,
  options: { once?: boolean },
  io: CommandIo,
  logger: ReturnType<typeof createLogger>,
): Promise<number> {
  // No API requests share this process: nothing to pause for.
  // The worker's services and executor only: no HTTP app is built (docs/architecture.md, Floors: app).
  const app = await createWorkerServices({ config: { ...config, push: { ...config.push, maxLoopDelayMs: 0 } }, database, logger });
  try {
    if (options.once) {
      const total = { delivered: 0, retried: 0, failed: 0 };
      for (;;) {
        const round = await app.deliveries.runOnce();
        total.delivered += round.delivered;
        total.retried += round.retried;
        total.failed += round.failed;
        if (round.claimed === 0) break;
      }
      io.stdout.write(`${JSON.stringify(total)}\n`);
      return EXIT_OK;
    }
    app.deliveries.start();
    logger.log('info', 'delivery worker started', { owner: app.deliveries.owner });
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    logger.log('info', 'delivery worker stopping');
    return EXIT_OK;
  } finally {
    await app.close();
  }
}
