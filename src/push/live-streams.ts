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
 *
 * A stream that asked for PREDICTED_ARRIVAL (docs/push.md, Predicted arrival) carries its own evaluation
 * (src/push/live-predicted-arrival.ts, its mark in memory): asked once as the stream starts (the starting point),
 * then again at each change of its shipment on the feed (whatever the trigger, and whether or not the stream takes that trigger) and every `evaluateMs`
 * (TT_EVALUATE_INTERVAL_SECONDS, as serve's webhook pass: the prediction moves with the clock and with a newly
 * trained model, without a change), never two at once; the timer is cleared when the stream ends.
 */

/** A change of the feed; a PREDICTED_ARRIVAL the stream's own evaluation decided; the last item of a stream whose access ended. */
export type StreamItem = { change: Change } | { predictedArrival: { shipmentId: number } } | { ended: AccessDenial };

/** A stream's own evaluation (PREDICTED_ARRIVAL): true when it is to be pushed now. */
export interface StreamEvaluation {
  evaluate(): Promise<boolean>;
}

export interface LiveStreamsOptions {
  maxPerClient: number;
  checkMs: number;
  log: (level: 'warn', message: string, fields?: Record<string, unknown>) => void;
  buffer?: number;
  /** How often a stream's own evaluation runs, in ms (TT_EVALUATE_INTERVAL_SECONDS); 0: only at changes of its shipment. */
  evaluateMs?: number;
}

export interface OpenStream {
  grant: TokenGrant;
  scope: string;
  shipmentId: number;
  accept: (change: Change) => boolean;
  /** PREDICTED_ARRIVAL's evaluation: its first run, as the stream starts, is the starting point. */
  evaluation?: StreamEvaluation;
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
    const { grant, scope, shipmentId, accept, evaluation } = stream;
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

    const enqueue = (item: StreamItem) => {
      if (queue.length >= max) queue.shift();
      queue.push(item);
      wake?.();
    };

    // PREDICTED_ARRIVAL: one evaluation at a time; one asked for meanwhile runs once after it.
    let evaluating = false;
    let evaluateAgain = false;
    const evaluate = () => {
      if (!evaluation || finished) return;
      if (evaluating) {
        evaluateAgain = true;
        return;
      }
      evaluating = true;
      evaluation
        .evaluate()
        .then((push) => {
          if (push && !finished) enqueue({ predictedArrival: { shipmentId } });
        })
        // A failed evaluation (the database is away) is tried again at the next change or tick; the stream goes on.
        .catch((err: unknown) =>
          this.#options.log('warn', 'live stream predicted arrival evaluation failed', {
            error: err instanceof Error ? err.message : String(err),
          }),
        )
        .finally(() => {
          evaluating = false;
          if (evaluateAgain) {
            evaluateAgain = false;
            evaluate();
          }
        });
    };

    const unfollow = this.#feed.follow(shipmentId, (change) => {
      if (finished) return;
      // Any change of the shipment may move its prediction, a trigger this stream does not take included.
      evaluate();
      if (accept(change)) enqueue({ change });
    });
    // The first evaluation, now (a stream refused by the cap above costs none): the starting point.
    evaluate();
    const evaluateMs = this.#options.evaluateMs ?? 0;
    const evaluator = evaluation && evaluateMs > 0 ? setInterval(evaluate, evaluateMs) : null;
    // As the access check's: the connection keeps the process alive, not this timer.
    evaluator?.unref();
    const release = () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      if (evaluator) clearInterval(evaluator);
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
