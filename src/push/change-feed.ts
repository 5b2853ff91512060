import { createPubSub } from 'graphql-yoga';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';
import { lastChangeId, pruneChanges, readChangesAfter } from '../store/change-log.js';
import type { PushTriggerType } from '../domain/push/push-triggers.js';

/**
 * The stream of push transitions for live GraphQL subscriptions (docs/architecture.md,
 * Push). Every transition is written to change_log in the transaction
 * that caused it (src/store/push-outbox.ts), by whichever process committed
 * it: `serve`, another instance, or `tracking ingest`. Each instance tails
 * the table (an indexed range read by id, every `pollMs`, or at once when
 * woken) and publishes to its own subscribers, so live updates need no
 * shared broker and reach subscribers of every instance. A wake-up channel
 * (Redis, when configured) only shortens the wait.
 *
 * Live subscriptions are best effort (a subscriber that reconnects gets
 * what happens next, not what it missed); webhooks are the durable path.
 */

export interface Change {
  id: number;
  shipmentId: number;
  triggerType: PushTriggerType;
  triggeredByEvent: string | null;
  exceptionId: string | null;
}

type Topics = { shipment: [shipmentId: number, change: Change] };

/** How long change_log keeps a row: long enough for any tail to catch up, short enough to stay small. */
const RETENTION_MS = 7 * 24 * 3_600_000;

export class ChangeFeed {
  readonly pubsub = createPubSub<Topics>();
  readonly #db: Kysely<DatabaseSchema>;
  readonly #pollMs: number;
  readonly #log: (level: 'warn', message: string, fields?: Record<string, unknown>) => void;
  #last: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #stopped = false;
  #lastPrune = 0;

  constructor(
    db: Kysely<DatabaseSchema>,
    options: { pollMs: number; log: (level: 'warn', message: string, fields?: Record<string, unknown>) => void },
  ) {
    this.#db = db;
    this.#pollMs = options.pollMs;
    this.#log = options.log;
  }

  /** Starts tailing from now on (idempotent); called when the first live subscription opens. */
  async start(): Promise<void> {
    if (this.#last !== null || this.#stopped) return;
    const last = await lastChangeId(this.#db);
    this.#last ??= last;
    this.#schedule();
  }

  /** Reads what is new now (a wake-up from another process, or a test). */
  async poll(): Promise<number> {
    if (this.#last === null) return 0;
    this.#running ??= this.#read().finally(() => (this.#running = null));
    await this.#running;
    return this.#last;
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.poll()
        .catch((err: unknown) =>
          this.#log('warn', 'live update feed read failed', { error: err instanceof Error ? err.message : String(err) }),
        )
        .finally(() => this.#schedule());
    }, this.#pollMs);
    this.#timer.unref();
  }

  async #read(): Promise<void> {
    for (;;) {
      const rows = await readChangesAfter(this.#db, this.#last ?? 0, 1000);
      for (const r of rows) {
        const change: Change = {
          id: Number(r.id),
          shipmentId: r.shipment_id,
          triggerType: r.trigger_type as PushTriggerType,
          triggeredByEvent: r.triggered_by_event,
          exceptionId: r.exception_id,
        };
        this.#last = change.id;
        this.pubsub.publish('shipment', change.shipmentId, change);
      }
      if (rows.length < 1000) break;
    }
    await this.#prune();
  }

  /** Drops rows past the retention, at most once an hour per instance. */
  async #prune(): Promise<void> {
    const now = Date.now();
    if (now - this.#lastPrune < 3_600_000) return;
    this.#lastPrune = now;
    await pruneChanges(this.#db, new Date(now - RETENTION_MS));
  }
}
