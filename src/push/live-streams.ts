import type { AccessCheck, AccessDenial, TokenGrant } from '../auth/access-check.js';
import { liveStreamsEnded, liveStreamsOpen } from '../observability/metrics.js';
import type { Change, ChangeFeed } from './change-feed.js';

/**
 * Live streams (README "Live updates"): what a GraphQL subscription over SSE reads. Each stream
 *
 * - follows one shipment through the change feed's fan-out (src/push/change-feed.ts: one map entry per
 *   shipment, however many streams follow it);
 * - asks the access check (src/auth/access-check.ts) again every `checkMs` (half the 5 s within which a
 *   disabled client's tokens stop working on lookups), for facts at most `checkMs` old, so it sees access end
 *   within the same 5 s; when its holder may no longer see the shipment, it delivers a last item saying why
 *   and ends;
 * - counts toward its client's cap (`maxPerClient`, TT_STREAMS_PER_CLIENT_MAX), per process: each instance
 *   counts the streams it holds, so a client may hold up to the cap on each instance.
 *
 * A stream keeps at most `buffer` changes its reader has not taken yet (the oldest go first: live updates are
 * best effort, webhooks are the durable path).
 */

export type StreamItem = { change: Change } | { ended: AccessDenial };

export interface LiveStreamsOptions {
  maxPerClient: number;
  checkMs: number;
  log: (level: 'warn', message: string, fields?: Record<string, unknown>) => void;
  buffer?: number;
}

export interface OpenStream {
  grant: TokenGrant;
  scope: string;
  shipmentId: number;
  accept: (change: Change) => boolean;
}

export class LiveStreams {
  readonly #feed: ChangeFeed;
  readonly #access: AccessCheck;
  readonly #options: LiveStreamsOptions;
  readonly #perClient = new Map<string, number>();
  #open = 0;

  constructor(feed: ChangeFeed, access: AccessCheck, options: LiveStreamsOptions) {
    this.#feed = feed;
    this.#access = access;
    this.#options = options;
  }

  /** Streams open in this process. */
  get open(): number {
    return this.#open;
  }

  /** Streams `clientId` holds open in this process. */
  openOf(clientId: string): number {
    return this.#perClient.get(clientId) ?? 0;
  }

  get maxPerClient(): number {
    return this.#options.maxPerClient;
  }

  /** A new stream, or null when the client holds its cap of streams already (answer 429). */
  start(stream: OpenStream): AsyncIterableIterator<StreamItem> | null {
    const { grant, scope, shipmentId, accept } = stream;
    const clientId = grant.clientId;
    if (this.openOf(clientId) >= this.#options.maxPerClient) {
      liveStreamsEnded.inc({ code: 'RATE_LIMITED' });
      return null;
    }
    this.#perClient.set(clientId, this.openOf(clientId) + 1);
    this.#open += 1;
    liveStreamsOpen.inc();

    const max = this.#options.buffer ?? 100;
    const queue: StreamItem[] = [];
    let wake: (() => void) | null = null;
    let finished = false;
    let released = false;
    let checking = false;

    const unfollow = this.#feed.follow(shipmentId, (change) => {
      if (finished || !accept(change)) return;
      if (queue.length >= max) queue.shift();
      queue.push({ change });
      wake?.();
    });
    const release = () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      unfollow();
      const left = this.openOf(clientId) - 1;
      if (left > 0) this.#perClient.set(clientId, left);
      else this.#perClient.delete(clientId);
      this.#open -= 1;
      liveStreamsOpen.dec();
    };
    const end = (denial: AccessDenial) => {
      if (finished) return;
      // What was queued is not delivered: its reader may no longer see it.
      queue.length = 0;
      queue.push({ ended: denial });
      finished = true;
      liveStreamsEnded.inc({ code: denial.code });
      release();
      wake?.();
    };
    const timer = setInterval(() => {
      if (checking || finished) return;
      checking = true;
      this.#access
        // Facts at most one cadence old: access that ended is seen within two cadences of the change.
        .mayStillSee(grant, scope, shipmentId, this.#options.checkMs)
        .then((denial) => {
          if (denial) end(denial);
        })
        // A check that fails (the database is away) is tried again at the next tick; the stream goes on meanwhile.
        .catch((err: unknown) =>
          this.#options.log('warn', 'live stream access check failed', { error: err instanceof Error ? err.message : String(err) }),
        )
        .finally(() => (checking = false));
    }, this.#options.checkMs);
    // The connection the stream is written to keeps the process alive, not this timer.
    timer.unref();

    const iterator: AsyncIterableIterator<StreamItem> = {
      [Symbol.asyncIterator]() {
        return iterator;
      },
      async next() {
        for (;;) {
          const item = queue.shift();
          if (item) return { value: item, done: false };
          if (finished) {
            release();
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
      },
      async return() {
        finished = true;
        queue.length = 0;
        release();
        wake?.();
        return { value: undefined, done: true };
      },
    };
    return iterator;
  }
}
