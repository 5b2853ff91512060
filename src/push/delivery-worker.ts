import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { SecretBox } from '../auth/secret-box.js';
import type { Database } from '../db/connect.js';
import { DEFAULT_RETRY_POLICY, nextAttemptAt, retryAfterMs, type RetryPolicy } from '../domain/push/retry-policy.js';
import { SIGNATURE_HEADER, signatureHeader } from '../domain/push/webhook-signature.js';
import { findClientStatuses } from '../store/housekeeping/api-clients.js';
import { chunks } from '../store/batching/chunks.js';
import {
  claimDeliveries,
  confirmLeases,
  enqueueScheduled,
  type AttemptOutcome,
  type ClaimedDelivery,
} from '../store/push/delivery-queue.js';
import { disableSubscription } from '../store/push/webhook-subscriptions.js';
import { DCSA_KIND, markCallbackChecked } from '../store/push/dcsa-subscriptions.js';
import { signNotification } from '../domain/dcsa/dcsa-notification-signature.js';
import { DCSA_TNT_API_VERSION } from '../errors/tnt-responses.js';
import { LoopPressure } from './loop-pressure.js';
import { OutcomeRecorder } from './outcome-recorder.js';
import type { PushBody } from './transmission-bodies.js';
import type { WebhookRequest, WebhookResponse } from './webhook-sender.js';

/**
 * Sends the outbox (docs/architecture.md, Push): claims due deliveries (the oldest
 * pending one of each subscription), builds their bodies, signs and POSTs
 * them concurrently, and records each outcome:
 * - 2xx: DELIVERED;
 * - 410 Gone: the receiver wants no more: FAILED, and the subscription is
 *   disabled (its other pending deliveries are given up);
 * - anything else (other 4xx, 5xx, timeout, refused address): tried again
 *   with backoff and jitter, honouring Retry-After, for the retry period;
 *   then FAILED, visible in the delivery log (operators can retry it).
 * DCSA event subscriptions ride the same outbox: their notifications are signed with Notification-Signature
 * and go out only after the callback URL answered a HEAD (docs/dcsa-events.md: Consuming the service as a DCSA publisher).
 * At-least-once: a worker that dies mid-send leaves a lease that runs out,
 * and the delivery is sent again; receivers de-duplicate on the
 * Tracking-Delivery-ID header or the transmissionID.
 */

export interface DeliveryWorkerOptions {
  database: Database;
  secrets: SecretBox;
  /**
   * Each delivery's body, or a promise of it (bodies may stream: see transmission-bodies.ts); `pace` is
   * awaited before each render.
   */
  bodies(deliveries: readonly ClaimedDelivery[], pace: () => Promise<void>): Promise<Map<number, PushBody | Promise<PushBody>>>;
  send(request: WebhookRequest): Promise<WebhookResponse>;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void;
  now?: () => Date;
  /** Deliveries claimed per round. Default 200. */
  batchSize?: number;
  /** Requests in flight at once. Default 64. */
  concurrency?: number;
  /** How long a claim is held before another worker may take the delivery over, in ms. Default 60,000. */
  leaseMs?: number;
  /** Pause between rounds that found nothing to do, in ms. Default 500. */
  pollMs?: number;
  /**
   * Rounds in flight at once. With 2 (the default) one round claims and renders while another waits on
   * its receivers, so neither the database nor the network sits idle. Order per subscription holds at
   * any number: a subscription's next delivery is claimable only once its previous one is recorded.
   */
  lanes?: number;
  retry?: RetryPolicy;
  /** Subscribes to wake-ups from other processes (src/app/wake-channel.ts) when the worker starts. */
  wakeups?: (listener: () => void) => void;
  /** Called for each delivery delivered, with the time from its enqueueing (metrics). */
  onDelivered?(delivery: ClaimedDelivery, latencyMs: number): void;
  /** Called for each attempt that failed (metrics). */
  onAttemptFailed?(delivery: ClaimedDelivery, response: WebhookResponse, final: boolean): void;
  /**
   * Event-loop delay (p99 over 100 ms) above which rendering and sending pause briefly, so API requests in
   * the same process keep their latency (LoopPressure). 0 turns pacing off. Default 0.
   */
  maxLoopDelayMs?: number;
}

export interface RoundResult {
  claimed: number;
  delivered: number;
  retried: number;
  failed: number;
  scheduled: number;
}

const USER_AGENT = 'TrackAndTrace-Webhooks/1.0';
/** Opened signing secrets kept at most (about 100 bytes each). */
const MAX_OPENED_SECRETS = 10_000;

export class DeliveryWorker {
  readonly owner = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  readonly #o: Required<Omit<DeliveryWorkerOptions, 'onDelivered' | 'onAttemptFailed' | 'wakeups'>> &
    Pick<DeliveryWorkerOptions, 'onDelivered' | 'onAttemptFailed' | 'wakeups'>;
  #pressure: LoopPressure | null = null;
  #running: Promise<void> | null = null;
  #stopping = false;
  /** Each idle lane's wake-up (its pause between rounds ends at once). */
  readonly #wakes = new Set<() => void>();
  /** Opened signing secrets by their sealed form: a fan-out signs many deliveries with few secrets. */
  readonly #openedSecrets = new Map<string, string>();
  #subscribed = false;

  constructor(options: DeliveryWorkerOptions) {
    this.#o = {
      now: () => new Date(),
      batchSize: 200,
      concurrency: 64,
      leaseMs: 60_000,
      pollMs: 500,
      lanes: 2,
      retry: DEFAULT_RETRY_POLICY,
      maxLoopDelayMs: 0,
      ...options,
    };
  }

  /** Waits while the event loop is late (see maxLoopDelayMs). */
  readonly #pace = (): Promise<void> => this.#pressure?.pace() ?? Promise.resolve();

  /** Runs rounds until stopped: back to back while there is work, every pollMs otherwise (per lane). */
  start(): void {
    if (this.#running) return;
    this.#stopping = false;
    if (this.#o.maxLoopDelayMs > 0) this.#pressure ??= new LoopPressure(this.#o.maxLoopDelayMs);
    if (this.#o.wakeups && !this.#subscribed) {
      this.#subscribed = true;
      this.#o.wakeups(() => this.wake());
    }
    const lane = async () => {
      while (!this.#stopping) {
        let result: RoundResult | null = null;
        try {
          result = await this.runOnce();
        } catch (err) {
          this.#o.log('error', 'webhook delivery round failed', { error: err instanceof Error ? err.message : String(err) });
        }
        if (this.#stopping) break;
        // After a round that sent something, look again at once: a subscription's next delivery becomes
        // claimable only when its previous one is recorded, so a second change queued behind the first would
        // otherwise wait for the poll.
        if (result && result.claimed > 0) continue;
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            this.#wakes.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, this.#o.pollMs);
          this.#wakes.add(wake);
        });
      }
    };
    this.#running = Promise.all(Array.from({ length: Math.max(1, this.#o.lanes) }, lane)).then(() => undefined);
  }

  /** Starts the next round now (e.g. after an ingest in this process committed deliveries). */
  wake(): void {
    const wakes = [...this.#wakes];
    this.#wakes.clear();
    for (const wake of wakes) wake();
  }

  /** Stops after the round in progress; its sends finish and their outcomes are recorded. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.wake();
    await this.#running;
    this.#running = null;
    this.#openedSecrets.clear();
    this.#pressure?.stop();
    this.#pressure = null;
  }

  /** One round: enqueue due scheduled refreshes, claim, send, record. */
  async runOnce(): Promise<RoundResult> {
    const { database } = this.#o;
    const result: RoundResult = { claimed: 0, delivered: 0, retried: 0, failed: 0, scheduled: 0 };
    const t0 = performance.now();
    result.scheduled = await enqueueScheduled(database.db, this.#o.now());
    const claimed = await claimDeliveries(database.db, {
      owner: this.owner,
      limit: this.#o.batchSize,
      now: this.#o.now(),
      leaseMs: this.#o.leaseMs,
    });
    result.claimed = claimed.length;
    if (claimed.length === 0) return result;

    const t1 = performance.now();
    const active = await this.#dropDisabledClients(claimed);
    const bodies = await this.#o.bodies(active, this.#pace);
    // Still ours? A round that stalled past its lease (a frozen process, a long pause) may have lost
    // deliveries to another worker, which sends them: this one must not send them too.
    const live = await this.#stillHeld(active);
    const t2 = performance.now();
    const outcomes: AttemptOutcome[] = [];
    const recorder = new OutcomeRecorder(database.db, this.#o.now);
    let next = 0;
    const runner = async () => {
      for (let i = next++; i < live.length; i = next++) {
        const delivery = live[i] as ClaimedDelivery;
        const body = await bodies.get(delivery.id);
        await this.#pace();
        const outcome = await this.#attempt(delivery, body);
        outcomes.push(outcome);
        recorder.add(outcome);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#o.concurrency, live.length) }, runner));
    const t3 = performance.now();
    await recorder.close();
    const ms = (a: number, b: number) => Math.round(b - a);
    this.#o.log('debug', 'webhook delivery round', {
      claimed: claimed.length,
      claimMs: ms(t0, t1),
      prepareMs: ms(t1, t2),
      renderAndSendMs: ms(t2, t3),
      lastRecordMs: ms(t3, performance.now()),
    });
    for (const o of outcomes) {
      if (o.result.state === 'DELIVERED') result.delivered++;
      else if (o.result.state === 'RETRY') result.retried++;
      else result.failed++;
    }
    return result;
  }

  /** Subscriptions of a disabled client stop: disabled, their deliveries given up. */
  async #dropDisabledClients(claimed: readonly ClaimedDelivery[]): Promise<ClaimedDelivery[]> {
    const { db } = this.#o.database;
    const disabled = new Set<string>();
    for (const ids of chunks([...new Set(claimed.map((d) => d.clientId))])) {
      const rows = await findClientStatuses(db, ids);
      const active = new Set(rows.filter((r) => r.disabled_at === null).map((r) => r.client_id));
      for (const id of ids) if (!active.has(id)) disabled.add(id);
    }
    const live: ClaimedDelivery[] = [];
    for (const d of claimed) {
      if (!disabled.has(d.clientId)) live.push(d);
      else await disableSubscription(db, d.subscriptionId, 'the owning API client is disabled', this.#o.now());
    }
    return live;
  }

  /** The deliveries whose lease this worker still holds, renewed for the sending. */
  async #stillHeld(deliveries: readonly ClaimedDelivery[]): Promise<ClaimedDelivery[]> {
    const first = deliveries[0];
    if (!first) return [];
    const ids = deliveries.map((d) => d.id);
    const held = await confirmLeases(this.#o.database.db, first.lease, ids, this.#o.now(), this.#o.leaseMs);
    if (held.size < ids.length) {
      this.#o.log('warn', 'webhook deliveries taken over by another worker after this one outlasted its lease', {
        lost: ids.length - held.size,
      });
    }
    return deliveries.filter((d) => held.has(d.id));
  }

  async #attempt(delivery: ClaimedDelivery, body: PushBody | undefined): Promise<AttemptOutcome> {
    if (!body || !body.ok) {
      const reason = body?.reason ?? 'no body';
      const response: WebhookResponse = { status: null, retryAfter: null, error: reason };
      if (body?.permanent) {
        await disableSubscription(this.#o.database.db, delivery.subscriptionId, reason, this.#o.now(), delivery.id);
        this.#o.onAttemptFailed?.(delivery, response, true);
        return { id: delivery.id, lease: delivery.lease, status: null, error: reason, result: { state: 'FAILED' } };
      }
      if (body?.final) {
        this.#o.onAttemptFailed?.(delivery, response, true);
        return { id: delivery.id, lease: delivery.lease, status: null, error: reason, result: { state: 'FAILED' } };
      }
      return this.#retryOrGiveUp(delivery, response);
    }
    const now = this.#o.now();
    let response: WebhookResponse;
    if (delivery.kind === DCSA_KIND) {
      // DCSA: the callback URL answers a HEAD before its first notification (and after it changes).
      const check = delivery.callbackCheckedAt === null ? await this.#checkCallback(delivery) : null;
      response =
        check ?? (await this.#o.send({ url: delivery.callbackUrl, body: body.body, headers: this.#dcsaHeaders(delivery, body.body) }));
    } else {
      const timestamp = Math.floor(now.getTime() / 1000);
      response = await this.#o.send({
        url: delivery.callbackUrl,
        body: body.body,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': USER_AGENT,
          [SIGNATURE_HEADER]: signatureHeader(this.#signingSecrets(delivery, now), timestamp, body.body),
          'Tracking-Delivery-ID': delivery.deliveryId,
          'Tracking-Transmission-ID': delivery.transmissionId,
          'Tracking-Trigger-Type': delivery.triggerType,
        },
      });
    }
    if (response.status !== null && response.status >= 200 && response.status < 300) {
      this.#o.onDelivered?.(delivery, this.#o.now().getTime() - Date.parse(delivery.createdAt));
      return { id: delivery.id, lease: delivery.lease, status: response.status, error: null, result: { state: 'DELIVERED' } };
    }
    if (response.status === 410) {
      await disableSubscription(this.#o.database.db, delivery.subscriptionId, 'the receiver answered 410 Gone', this.#o.now(), delivery.id);
      this.#o.onAttemptFailed?.(delivery, response, true);
      this.#o.log('info', 'webhook subscription disabled: 410 Gone', { subscriptionId: delivery.subscriptionId });
      return { id: delivery.id, lease: delivery.lease, status: 410, error: response.error, result: { state: 'FAILED' } };
    }
    return this.#retryOrGiveUp(delivery, response);
  }

  #retryOrGiveUp(delivery: ClaimedDelivery, response: WebhookResponse): AttemptOutcome {
    const now = this.#o.now().getTime();
    const at = nextAttemptAt(this.#o.retry, {
      attempts: delivery.attempts + 1,
      now,
      enqueuedAt: Date.parse(delivery.createdAt),
      retryAfterMs: retryAfterMs(response.retryAfter, now),
    });
    this.#o.onAttemptFailed?.(delivery, response, at === null);
    this.#o.log(at === null ? 'warn' : 'debug', at === null ? 'webhook delivery failed for good' : 'webhook delivery attempt failed', {
      deliveryId: delivery.deliveryId,
      subscriptionId: delivery.subscriptionId,
      attempt: delivery.attempts + 1,
      status: response.status,
      error: response.error,
    });
    return {
      id: delivery.id,
      lease: delivery.lease,
      status: response.status,
      error: response.error,
      result: at === null ? { state: 'FAILED' } : { state: 'RETRY', nextAttemptAt: new Date(at) },
    };
  }

  /**
   * The HEAD check of a DCSA callback URL: null when it answered 2xx (recorded, so it is asked once), else the
   * answer that counts as this attempt's (a 410 stops the subscription, anything else is retried).
   */
  async #checkCallback(delivery: ClaimedDelivery): Promise<WebhookResponse | null> {
    const answer = await this.#o.send({ url: delivery.callbackUrl, body: '', method: 'HEAD', headers: { 'User-Agent': USER_AGENT } });
    if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
      await markCallbackChecked(this.#o.database.db, delivery.subscriptionId, delivery.callbackUrl, this.#o.now());
      return null;
    }
    return { ...answer, error: `the HEAD check of the callback URL failed: ${answer.error ?? `HTTP ${answer.status}`}` };
  }

  /** A DCSA 2.2 notification's headers: Notification-Signature (HMAC-SHA256 under the decoded secret), Subscription-ID, API-Version. */
  #dcsaHeaders(delivery: ClaimedDelivery, body: string): Record<string, string> {
    const key = Buffer.from(this.#open(delivery.secretCiphertext), 'base64');
    return {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'Notification-Signature': signNotification(body, key),
      'Subscription-ID': delivery.subscriptionId,
      'API-Version': DCSA_TNT_API_VERSION,
    };
  }

  /** The current secret, and during a rotation's overlap the previous one too. */
  #signingSecrets(delivery: ClaimedDelivery, now: Date): string[] {
    const secrets = [this.#open(delivery.secretCiphertext)];
    if (delivery.previousSecretCiphertext && delivery.previousSecretExpiresAt && delivery.previousSecretExpiresAt > now.toISOString()) {
      secrets.push(this.#open(delivery.previousSecretCiphertext));
    }
    return secrets;
  }

  /** A sealed secret opened, from a bounded memo (a rotated secret has a new sealed form, so no entry goes stale). */
  #open(sealed: string): string {
    let secret = this.#openedSecrets.get(sealed);
    if (secret === undefined) {
      if (this.#openedSecrets.size >= MAX_OPENED_SECRETS) this.#openedSecrets.clear();
      secret = this.#o.secrets.open(sealed);
      this.#openedSecrets.set(sealed, secret);
    }
    return secret;
  }
}
