import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { Plugin } from 'graphql-yoga';
import type { ServerAdapterPlugin } from '@whatwg-node/server';
import { COUNT_QUERIES, executedStatements } from '../db/query-count.js';
import { jsonResponse } from '../http-messages/json-response.js';
import type { SnapshotCache } from '../store/shipments/snapshot-cache.js';

/**
 * `GET /internal/stats`, for the benchmark (bench/README.md): the SQL
 * statements this process has sent and the requests it has received (but
 * these), so round trips per request can be reported; the snapshot cache's
 * size; and the heap in use just after the last full garbage collection, the
 * measure of live memory (RSS follows the collector's sawtooth).
 *
 * Mounted only when TT_COUNT_QUERIES=1 (see src/db/query-count.ts);
 * otherwise the route, the counters and the GC observer do not exist.
 * `counting` goes into the plugins both pipelines share (REST requests count
 * too), `endpoint` into Yoga's.
 */
export function useInternalStats(snapshots: SnapshotCache): { counting: ServerAdapterPlugin[]; endpoint: Plugin[] } {
  if (!COUNT_QUERIES) return { counting: [], endpoint: [] };
  let requests = 0;
  const heap = { majorCollections: 0, usedAfterLastMajor: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as unknown as { detail?: { kind?: number } };
      if (detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      heap.majorCollections++;
      // Observed right after the collection, before much new allocation.
      heap.usedAfterLastMajor = getHeapStatistics().used_heap_size;
    }
  }).observe({ entryTypes: ['gc'] });

  const counting: ServerAdapterPlugin = {
    onRequest({ url }) {
      if (url.pathname !== '/internal/stats') requests++;
    },
  };
  const endpoint: Plugin = {
    onRequest({ url, endResponse }) {
      if (url.pathname !== '/internal/stats') return;
      const body = {
        statements: executedStatements(),
        requests,
        snapshotCache: { entries: snapshots.size, bytes: snapshots.bytes },
        heap,
      };
      endResponse(jsonResponse(body, 200, { 'Cache-Control': 'no-store' }));
    },
  };
  return { counting: [counting], endpoint: [endpoint] };
}
