import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/**
 * Back-pressure for background work that shares the event loop with API
 * requests (webhook delivery in `serve`): while the loop runs late (its
 * delay's p99 over the last 100 ms above `thresholdMs`), `pace()` waits a
 * little before the next piece of work starts, so a fan-out of thousands
 * of deliveries slows down instead of making lookups wait. Each wait is
 * bounded, so background work always progresses.
 */
export class LoopPressure {
  readonly #histogram: IntervalHistogram;
  readonly #timer: NodeJS.Timeout;
  readonly #thresholdNs: number;
  #late = false;

  constructor(thresholdMs: number) {
    this.#thresholdNs = thresholdMs * 1e6;
    this.#histogram = monitorEventLoopDelay({ resolution: 10 });
    this.#histogram.enable();
    this.#timer = setInterval(() => {
      this.#late = this.#histogram.percentile(99) > this.#thresholdNs;
      this.#histogram.reset();
    }, 100);
    this.#timer.unref();
  }

  /** Resolves at once while the loop keeps time; otherwise after up to 200 ms of waiting for it to. */
  async pace(): Promise<void> {
    for (let waited = 0; this.#late && waited < 200; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#histogram.disable();
  }
}
