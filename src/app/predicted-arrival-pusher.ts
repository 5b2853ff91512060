import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { Logger } from '../observability/logger.js';
import { evaluatePredictedArrivals } from '../push/predicted-arrival-pass.js';
import type { PredictedArrivals } from '../store/eta/predicted-arrivals.js';

/**
 * The predicted arrival's push in the background of `serve` (docs/push.md, Predicted arrival): a pass
 * (src/push/predicted-arrival-pass.ts) every TT_EVALUATE_INTERVAL_SECONDS, as the time-based exception rules (a
 * prediction moves with the clock, even without new events), and soon after this process commits an ingest or a
 * training run writes a new model (`nudge()`). Commits of other processes are seen by the next timed pass. Passes
 * never overlap in a process; across processes the stored marks keep each crossing to one delivery.
 */
export function startPredictedArrivalPusher(
  config: Config,
  database: Database,
  predictions: PredictedArrivals,
  logger: Logger,
  options: { now?: () => Date; onPushed?: () => void } = {},
): { nudge(): void; stop(): Promise<void> } {
  if (config.evaluateIntervalSeconds <= 0) return { nudge: () => undefined, stop: () => Promise.resolve() };
  const now = options.now ?? (() => new Date());
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let soon: NodeJS.Timeout | undefined;
  const pass = async () => {
    try {
      const result = await evaluatePredictedArrivals(database, predictions, now());
      if (result.pushed > 0) {
        logger.log('info', 'predicted arrival pushed', { ...result });
        options.onPushed?.();
      }
    } catch (err) {
      logger.log('error', 'predicted arrival push failed', { error: err instanceof Error ? err.message : String(err) });
    }
  };
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        tick();
      }
    });
  };
  const timer = setInterval(tick, config.evaluateIntervalSeconds * 1000);
  timer.unref();
  tick();
  return {
    nudge: () => {
      // Several commits in a moment make one pass.
      if (soon || stopped) return;
      soon = setTimeout(() => {
        soon = undefined;
        tick();
      }, 250);
      soon.unref();
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (soon) clearTimeout(soon);
      await running;
    },
  };
}
