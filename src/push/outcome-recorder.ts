import { recordAttempts, type AttemptOutcome } from '../store/push/delivery-queue.js';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';

/**
 * Records a round's attempt outcomes as they come in, in small batches,
 * instead of once the whole round is done. A subscription's next delivery is
 * claimable only once its previous one is recorded (order per subscription),
 * so recording at the end of the round made every subscription in it wait for
 * the round's slowest receiver: one receiver taking its 10 s timeout held up
 * the next delivery of every other one. Now a quick receiver's outcome is
 * recorded within `maxDelayMs`, and another lane (DeliveryWorker `lanes`)
 * claims its next delivery while the slow one is still waited on.
 *
 * Flushes run one at a time, in order. A failed flush is reported by close();
 * its deliveries keep their lease, which runs out, and they are sent again
 * (at-least-once, as after a crash).
 */
export class OutcomeRecorder {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #now: () => Date;
  readonly #maxBatch: number;
  readonly #maxDelayMs: number;
  #pending: AttemptOutcome[] = [];
  #timer: NodeJS.Timeout | null = null;
  #chain: Promise<void> = Promise.resolve();
  #error: unknown = null;

  constructor(db: Kysely<DatabaseSchema>, now: () => Date, options: { maxBatch?: number; maxDelayMs?: number } = {}) {
    this.#db = db;
    this.#now = now;
    this.#maxBatch = options.maxBatch ?? 50;
    this.#maxDelayMs = options.maxDelayMs ?? 20;
  }

  add(outcome: AttemptOutcome): void {
    this.#pending.push(outcome);
    if (this.#pending.length >= this.#maxBatch) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), this.#maxDelayMs);
  }

  /** Records what is left and waits for every flush; throws the first flush's error, if any. */
  async close(): Promise<void> {
    this.#flush();
    await this.#chain;
    if (this.#error) throw this.#error;
  }

  #flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    this.#chain = this.#chain.then(() =>
      recordAttempts(this.#db, batch, this.#now()).catch((err: unknown) => {
        this.#error ??= err;
      }),
    );
  }
}
