import { createLogger } from '../observability/logger.js';
import { countIngestedBundle } from '../observability/metrics.js';
import { CarrierStore } from '../carriers/carrier-store.js';
import { countCarrierPoll, countTrackingFetch } from '../carriers/poll-metrics.js';
import { TrackingFetcher } from '../carriers/tracking-fetcher.js';
import { CarrierPoller } from '../carriers/poller.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { whileBeating } from '../store/housekeeping/instance-heartbeats.js';
import { EXIT_OK, type CommandIo } from './cli-context.js';

/**
 * `tracking poll`: the carrier poller (and the tracking request fetcher) without the HTTP server, for operators
 * who run it apart from the API instances (set TT_CARRIER_POLLER=false on
 * those; any number may run, the lease keeps one per carrier). With
 * `--once`, polls every configured carrier now (due or not) to the end of its
 * feed, waiting out the retries of a page the carrier refused (429, 5xx), prints
 * one JSON line per carrier polled, then runs one round of the tracking fetcher
 * (every due tracking request's reference, docs/tracking-requests.md) and prints
 * its summary line, and exits: 0, or 1 when a carrier's poll failed (its retry
 * budget spent), a fetch was refused, or SIGTERM/SIGINT stopped it. Every clean
 * exit, a signal's included, releases the leases it held.
 *
 * Like serve, it records its release in `instance_heartbeat` while it runs, and re-reads the upgrade's state with
 * each beat (docs/upgrading.md): `tracking upgrade status` lists it, `finish` refuses while an older one runs,
 * and what it ingests takes the stored forms the database asks for.
 */

/** Resolves on the first SIGTERM or SIGINT; `off()` stops listening. */
function onStopSignal(): { signal: Promise<NodeJS.Signals>; off(): void } {
  let off = () => {};
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    const term = () => resolve('SIGTERM');
    const int = () => resolve('SIGINT');
    process.once('SIGTERM', term);
    process.once('SIGINT', int);
    off = () => {
      process.off('SIGTERM', term);
      process.off('SIGINT', int);
    };
  });
  return { signal, off: () => off() };
}
export async function pollCommand(
  database: Database,
  config: Config,
  options: { once?: boolean; carrier?: string },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  // Logs on stderr: stdout carries only the command's results (one JSON line per carrier or round).
  const logger = createLogger(config.logLevel, io.stderr);
  return whileBeating(database.db, database.dialect, logger.log, () => poll(database, config, options, io, logger));
}

async function poll(
  database: Database,
  config: Config,
  options: { once?: boolean; carrier?: string },
  io: CommandIo & { now: () => Date },
  logger: ReturnType<typeof createLogger>,
): Promise<number> {
  const poller = new CarrierPoller({
    database,
    carriers: await CarrierStore.open(database.db, config, io.now),
    config,
    now: io.now,
    log: logger.log,
    onRun: countCarrierPoll,
    onPage: (_code, summary) => {
      if (summary) countIngestedBundle(summary);
    },
  });
  // Tracking requests' fetches too (docs/tracking-requests.md), where serve runs with TT_TRACKING_FETCHER=false.
  const fetcher = new TrackingFetcher({
    database,
    carriers: await CarrierStore.open(database.db, config, io.now),
    config,
    now: io.now,
    log: logger.log,
    onFetch: countTrackingFetch,
    onIngested: countIngestedBundle,
  });
  const stop = onStopSignal();
  try {
    if (options.once) {
      void stop.signal.then(() => poller.stop());
      const only = options.carrier ? { carrier: options.carrier } : {};
      const results = await poller.runOnce({ ...only, force: true });
      for (const result of results) io.stdout.write(`${JSON.stringify(result)}\n`);
      if (results.length === 0) io.stderr.write('no carrier was polled: none has an events URL, or another poller holds it\n');
      // One round of the tracking fetcher: the references that are due (a stop skips it: what is due stays due).
      const fetched = poller.stopped ? [] : await fetcher.runOnce(only);
      const summary = TrackingFetcher.summary(fetched);
      if (!poller.stopped) io.stdout.write(`${JSON.stringify(summary)}\n`);
      return results.some((r) => r.error !== null) || summary.refused > 0 || poller.stopped ? 1 : EXIT_OK;
    }
    poller.start();
    fetcher.start();
    logger.log('info', 'carrier poller started', { owner: poller.owner });
    const signal = await stop.signal;
    logger.log('info', 'carrier poller stopping', { signal });
    await Promise.all([poller.stop(), fetcher.stop()]);
    return EXIT_OK;
  } finally {
    stop.off();
  }
}
