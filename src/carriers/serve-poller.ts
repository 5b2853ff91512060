import { countIngestedBundle } from '../service/metrics.js';
import { countCarrierPoll } from './poll-metrics.js';
import { CarrierPoller } from './poller.js';
import type { CarrierPollerOptions } from './poller.js';

/**
 * The poller `serve` runs (TT_CARRIER_POLLER, default on): every instance
 * may run one, the lease keeps one poll per carrier at a time. Each
 * committed page is counted in the ingest metrics and wakes the webhook
 * delivery worker, as an HTTP ingest does.
 */
export function startCarrierPoller(
  services: Pick<CarrierPollerOptions, 'database' | 'carriers' | 'config' | 'log'> & { wake(): void },
): CarrierPoller {
  const poller = new CarrierPoller({
    database: services.database,
    carriers: services.carriers,
    config: services.config,
    log: services.log,
    onRun: countCarrierPoll,
    onPage: (_code, summary) => {
      if (!summary) return;
      countIngestedBundle(summary);
      services.wake();
    },
  });
  poller.start();
  return poller;
}
