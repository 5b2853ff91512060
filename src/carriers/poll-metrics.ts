import { Counter } from 'prom-client';
import { processRegistry } from '../observability/metrics.js';
import type { CarrierPollResult } from './poller.js';
import type { FetchResult } from './tracking-fetcher.js';

/**
 * Poller metrics, in the process registry of src/observability/metrics.ts (served on
 * /metrics by `serve`). The `carrier` label is bounded: only configured
 * carriers are polled.
 */
export const carrierPolls = new Counter({
  name: 'tt_carrier_polls_total',
  help: 'Carrier poll runs, by carrier and outcome (ok, failed)',
  labelNames: ['carrier', 'outcome'] as const,
  registers: [processRegistry],
});

export const carrierPolledEvents = new Counter({
  name: 'tt_carrier_polled_events_total',
  help: 'Events received by carrier polls, by carrier and result (stored, already_stored, rejected)',
  labelNames: ['carrier', 'result'] as const,
  registers: [processRegistry],
});

export function countCarrierPoll(result: CarrierPollResult): void {
  carrierPolls.inc({ carrier: result.carrierCode, outcome: result.error === null ? 'ok' : 'failed' });
  carrierPolledEvents.inc({ carrier: result.carrierCode, result: 'stored' }, result.eventsStored);
  carrierPolledEvents.inc({ carrier: result.carrierCode, result: 'already_stored' }, result.eventsAlreadyStored);
  carrierPolledEvents.inc({ carrier: result.carrierCode, result: 'rejected' }, result.eventsRejected);
}

export const trackingFetches = new Counter({
  name: 'tt_tracking_fetches_total',
  help: 'Fetches of tracked references, by carrier and outcome (found, unchanged, empty, refused, deferred)',
  labelNames: ['carrier', 'outcome'] as const,
  registers: [processRegistry],
});

export function countTrackingFetch(result: FetchResult): void {
  trackingFetches.inc({ carrier: result.carrierCode, outcome: result.outcome });
}
