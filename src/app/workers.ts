import type { Plugin } from '@envelop/core';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../domain/push/retry-policy.js';
import type { Executor } from '../executor/executor.js';
import type { AppServices } from '../graphql/context.js';
import { SCHEMA_VERSION } from '../graphql/schema/transmission.js';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../push/delivery-worker.js';
import { createPushBodies } from '../push/transmission-bodies.js';
import { withDcsaNotifications } from '../push/dcsa-notification-bodies.js';
import { WebhookSender, type WebhookRequest } from '../push/webhook-sender.js';
import type { Logger } from '../observability/logger.js';
import type { WakeChannel } from './wake-channel.js';
import { countExceptionTransitions, countWebhookAttemptFailed, countWebhookDelivered } from '../observability/metrics.js';
import { evaluateTimeRules } from '../store/shipment-writes/time-rules.js';
import { createAppExecutor } from './executor.js';
import { createServices, type ServicesOptions } from './services.js';

/**
 * What runs beside requests, built from the services and the executor alone (docs/architecture.md, Floors:
 * app): the webhook delivery worker, the time-based exception evaluator. The carrier poller is
 * src/carriers/serve-poller.ts. `serve` runs them next to the HTTP app; `tracking deliver` runs the delivery
 * worker with no HTTP layer at all (createWorkerServices).
 */

export interface DeliveryWorkerOverrides {
  /** The HTTP send (tests). */
  send?: DeliveryWorkerOptions['send'];
  retry?: RetryPolicy;
}

/** A delivery worker over the executor; it wakes when this process commits a change (services.push.wake). */
export function createDeliveryWorker(
  services: AppServices,
  executor: Executor,
  options: { log: Logger['log']; now?: () => Date; overrides?: DeliveryWorkerOverrides; wakeChannel?: WakeChannel },
): { worker: DeliveryWorker; close(): Promise<void> } {
  const { config, database } = services;
  const sender = new WebhookSender({ environment: config.environment, timeoutMs: config.push.timeoutSeconds * 1000 });
  const send = options.overrides?.send ?? ((request: WebhookRequest) => sender.send(request));
  const pushBodies = createPushBodies(executor, database.db, {
    senderId: config.senderId,
    schemaVersion: SCHEMA_VERSION,
    now: options.now ?? services.now,
  });
  const worker = new DeliveryWorker({
    database,
    secrets: services.push.secrets,
    bodies: withDcsaNotifications(pushBodies, executor, database.db),
    send,
    log: options.log,
    now: options.now ?? services.now,
    concurrency: config.push.concurrency,
    lanes: config.push.lanes,
    maxLoopDelayMs: config.push.maxLoopDelayMs,
    pollMs: config.push.pollMs,
    leaseMs: config.push.leaseSeconds * 1000,
    retry: options.overrides?.retry ?? { ...DEFAULT_RETRY_POLICY, retryPeriodMs: config.push.retryHours * 3_600_000 },
    wakeups: options.wakeChannel ? (listener) => options.wakeChannel?.subscribe(listener) : undefined,
    onDelivered: (_delivery, latencyMs) => countWebhookDelivered(latencyMs),
    onAttemptFailed: (_delivery, response, final) => countWebhookAttemptFailed(response.status, final),
  });
  // A commit here wakes this worker at once, and the workers of other processes through the wake channel.
  services.push.wake = () => {
    worker.wake();
    options.wakeChannel?.publish();
  };
  // Test deliveries and redeliveries render and send as the worker does (src/push/webhook-trial.ts).
  services.push.trials = { bodies: (deliveries) => pushBodies(deliveries), send };
  return {
    worker,
    close: async () => {
      await worker.stop();
      sender.close();
    },
  };
}

/**
 * The services, executor and delivery worker of a process that serves no HTTP (`tracking deliver`).
 * `close()` stops the worker and the services (not the database).
 */
export async function createWorkerServices(
  options: Omit<ServicesOptions, 'logger'> & { logger: Logger; plugins?: Plugin<any>[]; webhooks?: DeliveryWorkerOverrides },
): Promise<{ services: AppServices; executor: Executor; deliveries: DeliveryWorker; close(): Promise<void> }> {
  const set = await createServices(options);
  const executor = createAppExecutor(set, { logger: options.logger, plugins: options.plugins });
  const delivery = createDeliveryWorker(set.services, executor, {
    log: options.logger.log,
    now: options.now,
    overrides: options.webhooks,
    wakeChannel: set.wakeChannel,
  });
  return {
    services: set.services,
    executor,
    deliveries: delivery.worker,
    close: async () => {
      await delivery.close();
      await set.close();
    },
  };
}

/**
 * Re-runs the time-based exception rules every TT_EVALUATE_INTERVAL_SECONDS (0: never). `stop()` clears the
 * timer and resolves once a run in progress has finished, so the pool can close after it.
 */
export function startEvaluator(config: Config, database: Database, logger: Logger): { stop(): Promise<void> } {
  if (config.evaluateIntervalSeconds <= 0) return { stop: () => Promise.resolve() };
  let evaluating: Promise<void> | undefined;
  const evaluate = async () => {
    try {
      const { transitions, ...result } = await evaluateTimeRules(database, config.thresholds, new Date());
      countExceptionTransitions(transitions);
      if (result.changed > 0) logger.log('info', 'time-based exception rules re-evaluated', { ...result, transitions: transitions.length });
    } catch (err) {
      logger.log('error', 'evaluate failed', { error: err instanceof Error ? err.message : String(err) });
    }
  };
  const tick = () => {
    evaluating ??= evaluate().finally(() => (evaluating = undefined));
  };
  const timer = setInterval(tick, config.evaluateIntervalSeconds * 1000);
  timer.unref();
  tick();
  return {
    stop: async () => {
      clearInterval(timer);
      await evaluating;
    },
  };
}
