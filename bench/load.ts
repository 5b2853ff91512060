import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';

/**
 * One load run with autocannon against 127.0.0.1: a fixed number of
 * connections for a fixed duration, each request built fresh (random keys).
 */

export interface LoadResult {
  requestsPerSecond: number;
  /** Latencies in ms. */
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Non-2xx responses plus socket errors and timeouts. */
  errors: number;
  /** Responses received (any status). */
  responses: number;
  /** Mean response size in bytes. */
  meanBytes: number;
  /** The longest the load generator's own event loop was late (ms): a stall here is the client's, not the server's. */
  clientLoopMaxMs: number;
}

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export async function runLoad(
  baseUrl: string,
  next: () => RequestSpec,
  options: {
    connections: number;
    seconds?: number;
    amount?: number;
    /** Requests per second in all (open loop); default as fast as answered. */
    rate?: number;
    /** Statuses besides 2xx that are the expected answer (e.g. 304 of a conditional poll). */
    expected?: number[];
  },
): Promise<LoadResult> {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') throw new Error(`refusing to load ${baseUrl}`);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? 10 }),
    timeout: 30,
    ...(options.rate !== undefined ? { overallRate: options.rate } : {}),
    // autocannon notices the end of a run (and so measures its duration) on this tick; the
    // default of 1 s would round a short fixed-amount run up to whole seconds.
    sampleInt: 50,
    requests: [
      {
        setupRequest: (request) => {
          const spec = next();
          return {
            ...request,
            method: spec.method,
            path: spec.path,
            headers: { ...request.headers, ...spec.headers },
            ...(spec.body !== undefined ? { body: spec.body } : {}),
          };
        },
      },
    ],
  });
  loop.disable();
  const responses = result.requests.total;
  const expectedCount = (options.expected ?? []).reduce((n, status) => n + (result.statusCodeStats[String(status)]?.count ?? 0), 0);
  return {
    requestsPerSecond: responses / result.duration,
    mean: result.latency.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.non2xx - expectedCount + result.errors,
    responses,
    meanBytes: responses > 0 ? result.throughput.total / responses : 0,
    clientLoopMaxMs: loop.max / 1e6,
  };
}
