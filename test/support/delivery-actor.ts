/**
 * A delivery worker process for test/delivery-kill.test.ts, run with `node --import tsx` on DATABASE_URL: the
 * worker of `tracking deliver` (createWorkerServices), with a quick retry policy, that stops dead right after
 * one step of one attempt, so that the test kills it there with SIGKILL:
 *
 *   STOP_AT: claimed (the claim's UPDATE committed) | read back (the claimed rows read by the claim's token) |
 *            confirmed (the leases renewed right before sending) | answered (the receiver's answer read, the
 *            outcome not recorded) | recorded (the outcome's UPDATE committed)
 *   STOP_ATTEMPT: which attempt (1 = the first; each step happens once per attempt of the one delivery due)
 *   RETRY_BASE_MS, RETRY_MAX_MS: the backoff (the first delay, doubled per attempt, and its bound)
 *
 * "Stops dead": it prints `stopped <step>` and blocks its thread (Atomics.wait), so nothing after the step runs,
 * not even a timer, until the kill. TT_DELIVERY_LEASE_SECONDS and TT_DELIVERY_POLL_MS come from the environment.
 */
import { writeSync } from 'node:fs';
import { createWorkerServices } from '../../src/app/workers.js';
import { loadConfig } from '../../src/config/config.js';
import { connectDatabase } from '../../src/db/connect.js';
import { createLogger } from '../../src/observability/logger.js';
import { WebhookSender, type WebhookRequest } from '../../src/push/webhook-sender.js';

/** The test's backoff: RETRY_BASE_MS doubled per attempt, at most RETRY_MAX_MS. */
const retry = { baseDelayMs: Number(process.env.RETRY_BASE_MS), maxDelayMs: Number(process.env.RETRY_MAX_MS), retryPeriodMs: 3_600_000 };

/** The statement that ends each step, as Kysely logs it once it has run (committed: each is its own transaction). */
const STATEMENTS: Record<string, RegExp> = {
  claimed: /^update [`"]webhook_delivery[`"] set [`"]lease_owner[`"]/i,
  'read back': /^select .* from [`"]webhook_delivery[`"] as [`"]d[`"] inner join [`"]webhook_subscription[`"]/i,
  confirmed: /^update [`"]webhook_delivery[`"] set [`"]lease_until[`"]/i,
  recorded: /^update [`"]webhook_delivery[`"] set [`"]status[`"]/i,
};

const step = process.env.STOP_AT ?? '';
const attempt = Number(process.env.STOP_ATTEMPT ?? '1');
/** Receivers' answers read so far: attempt k's steps before the send come after the (k-1)th answer. */
let answers = 0;

function reached(name: string): void {
  // (Of two lanes racing for the delivery, the first claim statement is the one that took it: the other's runs
  // after it committed and finds it leased.)
  const answered = name === 'answered' || name === 'recorded' ? attempt : attempt - 1;
  if (name !== step || answers !== answered) return;
  writeSync(1, `stopped ${name}\n`);
  // Nothing more of this process runs: the state it leaves is the one a kill right after the step leaves.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

const config = loadConfig(process.env);
const database = connectDatabase(config.databaseUrl, {
  poolSize: 2,
  log: (event) => {
    if (event.level !== 'query') return;
    for (const [name, pattern] of Object.entries(STATEMENTS)) if (pattern.test(event.query.sql)) reached(name);
  },
});
const sender = new WebhookSender({ environment: config.environment, timeoutMs: 5_000 });
const worker = await createWorkerServices({
  config,
  database,
  logger: createLogger('warn', process.stderr),
  webhooks: {
    retry,
    send: async (request: WebhookRequest) => {
      const response = await sender.send(request);
      answers++;
      reached('answered');
      return response;
    },
  },
});
worker.deliveries.start();
writeSync(1, 'started\n');
