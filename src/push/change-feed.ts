import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';
import { ChangeCursorExpiredError } from '../domain/change-cursor.js';
import { CHANGE_RETENTION_MS, cursorNow, pruneChanges, readChanges, type Change } from '../store/changes/change-log.js';

export type { Change } from '../store/changes/change-log.js';

/**
 * The stream of push transitions for live GraphQL subscriptions (docs/architecture.md, Push). Every transition
 * is written to change_log in the transaction that caused it (src/store/push/push-outbox.ts), by whichever process
 * committed it: `serve`, another instance, or `tracking ingest`. Each instance reads the log after its cursor
 * (src/store/changes/change-log.ts: every change once, in commit order, even one whose transaction committed late),
 * every `pollMs` or at once when woken, and publishes to its own subscribers, so live updates need no shared
 * broker and reach subscribers of every instance. A wake-up channel (Redis, when configured) only shortens the
 * wait.
 *
 * Live subscriptions are best effort (a subscriber that reconnects gets what happens next, not what it
 * missed); webhooks are the durable path.
 */

const PAGE = 1000;

/**
 * Fan-out: one entry per followed shipment, holding the set of its followers, so a shipment followed by
 * 10,000 streams costs one map entry and a set, not 10,000 event listeners (no MaxListenersExceededWarning).
 */
export class ChangeFeed {
  readonly #followers = new Map<number, Set<(change: Change) => void>>();
  readonly #db: Kysely<DatabaseSchema>;
  readonly #pollMs: number;
  readonly #log: (level: 'warn', message: string, fields?: Record<string, unknown>) => void;
  readonly #wakeups: ((listener: () => void) => void) | undefined;
  #cursor: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #stopped = false;
  #lastPrune = 0;

  constructor(
    db: Kysely<DatabaseSchema>,
    options: {
      pollMs: number;
      log: (level: 'warn', message: string, fields?: Record<string, unknown>) => void;
      /** Subscribes to wake-ups from other processes (src/app/wake-channel.ts), once the feed starts. */
      wakeups?: (listener: () => void) => void;
    },
  ) {
    this.#db = db;
    this.#pollMs = options.pollMs;
    this.#log = options.log;
    this.#wakeups = options.wakeups;
  }

  /** Starts reading from now on (idempotent); called when the first live subscription opens. */
  async start(): Promise<void> {
    if (this.#cursor !== null || this.#stopped) return;
    const cursor = await cursorNow(this.#db);
    if (this.#cursor !== null) return;
    this.#cursor = cursor;
    this.#schedule();
    this.#wakeups?.(() => void this.poll().catch(() => {}));
  }

  /** Reads what is new now (a wake-up from another process, or a test); resolves to the cursor reached. */
  async poll(): Promise<string | null> {
    if (this.#cursor === null) return null;
    this.#running ??= this.#read().finally(() => (this.#running = null));
    await this.#running;
    return this.#cursor;
  }

  /** Calls `deliver` with each change of the shipment from now on, until the returned function is called. */
  follow(shipmentId: number, deliver: (change: Change) => void): () => void {
    let set = this.#followers.get(shipmentId);
    if (!set) this.#followers.set(shipmentId, (set = new Set()));
    set.add(deliver);
    return () => {
      set.delete(deliver);
      if (set.size === 0 && this.#followers.get(shipmentId) === set) this.#followers.delete(shipmentId);
    };
  }

  /** Hands a change to the followers of its shipment (what a read of the change log does for each change). */
  publish(change: Change): void {
    const set = this.#followers.get(change.shipmentId);
    if (!set) return;
    for (const deliver of [...set]) deliver(change);
  }

  /** How many shipments are followed (one entry each, however many streams follow one). */
  get followedShipments(): number {
    return this.#followers.size;
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
      let page;
      try {
        page = await readChanges(this.#db, { after: this.#cursor, limit: PAGE });
      } catch (err) {
        if (!(err instanceof ChangeCursorExpiredError)) throw err;
        // Asleep for longer than the log keeps changes: what was missed is gone; live updates go on from now.
        this.#log('warn', 'live update feed fell behind the change log retention; continuing from now');
        this.#cursor = await cursorNow(this.#db);
        return;
      }
      for (const change of page.changes) this.publish(change);
      this.#cursor = page.cursor;
      if (!page.more) break;
    }
    await this.#prune();
  }

  /** Drops changes past the retention, at most once an hour per instance. */
  async #prune(): Promise<void> {
    const now = Date.now();
    if (now - this.#lastPrune < 3_600_000) return;
    this.#lastPrune = now;
    await pruneChanges(this.#db, new Date(now - CHANGE_RETENTION_MS));
  }
}
