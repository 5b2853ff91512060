/**
 * Fixed-window counters in this process's memory, answered at once (no promise): the counters of the memory
 * store (src/quotas/rate-limit-store.ts). The rules are rate-limiter-flexible's RateLimiterMemory's (without
 * blocking or evening out, which the service uses nowhere), so a limit means the same on either store: a
 * key's window starts at its first point and lasts `durationSeconds`; its count is the points consumed in it;
 * a request is allowed while the count, its own points included, is at most `points`.
 *
 * Why not RateLimiterMemory itself: its every answer is a promise, and a promise per counter costs the hot
 * path of every request (a conditional poll counts one quota) far more than the count does (bench/README.md).
 *
 * A key is forgotten when its window ends (a timer per window that keeps no process alive), so keys an
 * attacker can mint (failed authentications per address) hold memory for one window at most.
 */
export interface WindowCount {
  /** Points consumed in the key's current window. */
  consumed: number;
  /** Milliseconds until the window ends. */
  msBeforeNext: number;
}

interface Window {
  count: number;
  endsAt: number;
  timer: ReturnType<typeof setTimeout>;
}

export class MemoryWindows {
  readonly #windows = new Map<string, Window>();
  readonly #durationMs: number;

  constructor(durationSeconds: number) {
    this.#durationMs = durationSeconds * 1000;
  }

  /** Adds `points` to the key's window (opening one when none runs) and returns its count. */
  consume(key: string, points: number): WindowCount {
    const now = Date.now();
    const open = this.#windows.get(key);
    if (open && open.endsAt > now) {
      open.count += points;
      return { consumed: open.count, msBeforeNext: open.endsAt - now };
    }
    if (open) clearTimeout(open.timer);
    const timer = setTimeout(() => this.#windows.delete(key), this.#durationMs);
    timer.unref();
    this.#windows.set(key, { count: points, endsAt: now + this.#durationMs, timer });
    return { consumed: points, msBeforeNext: this.#durationMs };
  }

  /** The key's window, without counting anything; null when none runs. */
  peek(key: string): WindowCount | null {
    const open = this.#windows.get(key);
    const now = Date.now();
    if (!open || open.endsAt <= now) return null;
    return { consumed: open.count, msBeforeNext: open.endsAt - now };
  }

  delete(key: string): void {
    const open = this.#windows.get(key);
    if (!open) return;
    clearTimeout(open.timer);
    this.#windows.delete(key);
  }
}
