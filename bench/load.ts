import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
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
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A run's length: a duration, or a number of requests. */
export type Span = { seconds: number; amount?: undefined } | { amount: number; seconds?: undefined };

export interface LoadOptions {
  connections: number;
  seconds?: number;
  amount?: number;
  /** Requests per second in all (open loop); default as fast as answered. */
  rate?: number;
  /** Statuses besides 2xx that are the expected answer (e.g. 304 of a conditional poll). */
  expected?: number[];
  /**
   * A warm-up on the same connections, right before the measured part: its requests (from `warmup.next`,
   * default `next`) are sent but not counted. Measuring on connections that are already open is what a
   * polling client with keep-alive sees; a run that opens its connections while measuring counts, in its
   * first requests, the wait of a new connection at a saturated server (bench/README.md, "Connections").
   */
  warmup?: Span & { next?: () => RequestSpec };
  /** Called once, as the first measured request is sent (e.g. to read the server's counters). */
  onMeasureStart?: () => void;
}

export async function runLoad(baseUrl: string, next: () => RequestSpec, options: LoadOptions): Promise<LoadResult> {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') throw new Error(`refusing to load ${baseUrl}`);
  const warmup = options.warmup;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  // The measured requests' latencies, statuses and sizes, from the moment each was handed to its connection.
  const latencies: number[] = [];
  let measuredBytes = 0;
  let unexpected = 0;
  let sent = 0;
  let startedAt = 0;
  let measureFrom: number | undefined;
  let lastResponseAt = 0;
  const inWarmup = (): boolean => {
    if (!warmup) return false;
    if (warmup.amount !== undefined) return sent < warmup.amount;
    return performance.now() - startedAt < warmup.seconds * 1000;
  };
  const accepted = new Set(options.expected ?? []);
  const total =
    options.amount !== undefined
      ? { amount: options.amount + (warmup?.amount ?? 0) }
      : { duration: (options.seconds ?? 10) + (warmup?.seconds ?? 0) };
  if (warmup && (warmup.amount === undefined) !== (options.amount === undefined)) {
    throw new Error('a warm-up and its measured run both take a duration or both a number of requests');
  }
  startedAt = performance.now();
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    ...total,
    timeout: 30,
    ...(options.rate !== undefined ? { overallRate: options.rate } : {}),
    // autocannon notices the end of a run (and so measures its duration) on this tick; the
    // default of 1 s would round a short fixed-amount run up to whole seconds.
    sampleInt: 50,
    requests: [
      {
        setupRequest: (request, context) => {
          const warming = inWarmup();
          if (!warming && measureFrom === undefined) {
            measureFrom = performance.now();
            options.onMeasureStart?.();
          }
          sent++;
          const spec = warming ? (warmup?.next ?? next)() : next();
          context.measured = !warming;
          context.sentAt = performance.now();
          return {
            ...request,
            method: spec.method,
            path: spec.path,
            headers: { ...request.headers, ...spec.headers },
            ...(spec.body !== undefined ? { body: spec.body } : {}),
          };
        },
        onResponse: (status, body, context) => {
          if (!context.measured) return;
          const now = performance.now();
          lastResponseAt = now;
          latencies.push(now - (context.sentAt as number));
          measuredBytes += Buffer.byteLength(body ?? '');
          if ((status < 200 || status > 299) && !accepted.has(status)) unexpected++;
        },
      },
    ],
  });
  loop.disable();
  latencies.sort((a, b) => a - b);
  const responses = latencies.length;
  const at = (q: number) => (responses === 0 ? 0 : Math.round(latencies[Math.min(responses - 1, Math.floor(q * responses))] as number));
  // A timed run measures its whole measured span; a fixed amount ends with its last answer.
  const window =
    measureFrom === undefined
      ? 0
      : options.amount !== undefined
        ? (lastResponseAt - measureFrom) / 1000
        : Math.max(startedAt + result.duration * 1000 - measureFrom, 1) / 1000;
  return {
    requestsPerSecond: window > 0 ? responses / window : 0,
    mean: responses > 0 ? latencies.reduce((a, b) => a + b, 0) / responses : 0,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: responses > 0 ? Math.round(latencies[responses - 1] as number) : 0,
    // Socket errors and timeouts of the whole run (warm-up included: autocannon does not say which request).
    errors: unexpected + result.errors,
    responses,
    meanBytes: responses > 0 ? measuredBytes / responses : 0,
    clientLoopMaxMs: loop.max / 1e6,
  };
}
