import { countIngestedBundle } from '../observability/metrics.js';
import { countCarrierPoll, countTrackingFetch } from './poll-metrics.js';
import { CarrierPoller } from './poller.js';
import type { CarrierPollerOptions } from './poller.js';
import { TrackingFetcher, type TrackingFetcherOptions } from './tracking-fetcher.js';

/**
 * The poller `serve` runs (TT_CARRIER_POLLER, default on): every instance
 * may run one, the lease keeps one poll per carrier at a time. Each
 * committed page is counted in the ingest metrics and wakes the webhook
 * delivery worker, as an HTTP ingest does.
 */
export function startCarrierPoller(
  services: Pick<CarrierPollerOptions, 'database' | 'carriers' | 'config' | 'log' | 'fetch'> & { wake(): void },
): CarrierPoller {
  const poller = new CarrierPoller({
    database: services.database,
    carriers: services.carriers,
    config: services.config,
    log: services.log,
    ...(services.fetch ? { fetch: services.fetch } : {}),
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

/**
 * The tracking request fetcher `serve` runs (TT_TRACKING_FETCHER, default on; docs/tracking-requests.md): every
 * instance may run one, claims keep each reference to one fetch at a time. What it stores is counted and wakes the
 * delivery worker.
 */
export function startTrackingFetcher(
  services: Pick<TrackingFetcherOptions, 'database' | 'carriers' | 'config' | 'log' | 'fetch'> & { wake(): void },
): TrackingFetcher {
  const fetcher = new TrackingFetcher({
    database: services.database,
    carriers: services.carriers,
    config: services.config,
    log: services.log,
    ...(services.fetch ? { fetch: services.fetch } : {}),
    onFetch: countTrackingFetch,
    onIngested: (summary) => {
      countIngestedBundle(summary);
      services.wake();
    },
  });
  fetcher.start();
  return fetcher;
}
