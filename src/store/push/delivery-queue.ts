import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { deliveryTransmissionId } from '../../domain/push/retry-policy.js';
import { chunks } from '../batching/chunks.js';
import { deliveryRow } from './push-outbox.js';
import { inTransaction, retryTransaction } from '../../db/retry-transaction.js';
import { DCSA_KIND } from './dcsa-subscriptions.js';

/**
 * The delivery side of the outbox (docs/architecture.md, Push). Workers claim due deliveries with a lease, send
 * them outside any transaction, and record the outcome. Only the oldest pending delivery of a subscription is
 * ever claimable, so each subscription receives its deliveries in order.
 *
 * Several workers (instances, `tracking deliver`, and the lanes of each) share the queue. A claim is a plain
 * read of candidates, then one conditional UPDATE that takes those whose lease is still free, writing a token
 * unique to this claim, then a read back by that token: of two workers racing for a delivery, the database lets
 * exactly one UPDATE match it (the second re-reads the row after the first committed and finds the lease
 * taken). No `FOR UPDATE SKIP LOCKED`: the same statements are correct on SQLite, MySQL, MariaDB and the
 * MySQL-compatible engines that lack or ignore SKIP LOCKED (Vitess rejects it; TiDB takes no lock). A claimed
 * row carries its lease: if its worker dies before recording the outcome, the lease runs out and another
 * worker sends it again (at-least-once; receivers de-duplicate on the delivery id and transmissionID). A worker
 * confirms it still holds its leases right before sending (confirmLeases) and records only what it holds, so a
 * worker that stalled past its lease neither sends what another worker took over nor overwrites its outcome.
 */

export interface ClaimedDelivery {
  id: number;
  /** The claim's token in lease_owner: what confirming and recording go by. */
  lease: string;
  deliveryId: string;
  transmissionId: string;
  subscriptionId: string;
  shipmentId: number;
  triggerType: string;
  triggeredByEvent: string | null;
  exceptionId: string | null;
  attempts: number;
  createdAt: string;
  clientId: string;
  accountId: string;
  callbackUrl: string;
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: string | null;
  /** The subscription's kind: WEBHOOK, or DCSA (a DCSA 2.2 notification: src/store/push/dcsa-outbox.ts). */
  kind: string;
  /** DCSA: when the callback URL answered the HEAD check; null until it has. */
  callbackCheckedAt: string | null;
  /** The subscription covers its whole account (docs/account-feed.md), not one shipment. */
  accountWide: boolean;
}

export interface ClaimOptions {
  /** The worker (its name goes into every claim's token). */
  owner: string;
  limit: number;
  now: Date;
  leaseMs: number;
}

/** Claims a round lets go of candidates others took, then looks again: at most this many looks. */
const CLAIM_LOOKS = 3;

/** lease_owner is varchar(64): the worker's name, shortened, and a random part unique to the claim. */
export function claimToken(owner: string): string {
  return `${owner.slice(0, 50)}#${randomBytes(9).toString('base64url')}`;
}

export async function claimDeliveries(db: Kysely<DatabaseSchema>, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const at = options.now.toISOString();
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const lease = claimToken(options.owner);
  const claimed: number[] = [];
  for (let look = 0; look < CLAIM_LOOKS && claimed.length < options.limit; look++) {
    const candidates = await dueDeliveries(db, at, options.limit - claimed.length);
    if (candidates.length === 0) break;
    let taken = 0;
    for (const batch of chunks(candidates)) {
      // The claim itself: only rows still pending, due and free get this claim's token.
      const result = await retryTransaction(() =>
        db
          .updateTable('webhook_delivery')
          .set({ lease_owner: lease, lease_until: leaseUntil })
          .where('id', 'in', batch)
          .where('status', '=', 'PENDING')
          .where('next_attempt_at', '<=', at)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
          .executeTakeFirst(),
      );
      taken += Number(result.numUpdatedRows);
    }
    // MySQL counts matched rows here (mysql2 connects with FOUND_ROWS), as SQLite does.
    const mine = taken === candidates.length ? candidates : await heldBy(db, lease, candidates);
    claimed.push(...mine);
    // All taken: that was the limit, or all there is. Some lost to another worker: they are leased now, so
    // the next look finds what comes after them.
    if (mine.length === candidates.length) break;
  }
  if (claimed.length === 0) return [];
  const out: ClaimedDelivery[] = [];
  for (const batch of chunks(claimed)) {
    const rows = await db
      .selectFrom('webhook_delivery as d')
      .innerJoin('webhook_subscription as s', 's.subscription_id', 'd.subscription_id')
      .select([
        'd.id',
        'd.delivery_id',
        'd.subscription_id',
        'd.shipment_id',
        'd.trigger_type',
        'd.triggered_by_event',
        'd.exception_id',
        'd.attempts',
        'd.created_at',
        's.client_id',
        's.account_id',
        's.callback_url',
        's.secret_ciphertext',
        's.previous_secret_ciphertext',
        's.previous_secret_expires_at',
        's.kind',
        's.callback_checked_at',
        's.shipment_id as subscription_shipment_id',
      ])
      .where('d.id', 'in', batch)
      .where('d.lease_owner', '=', lease)
      .execute();
    for (const r of rows) {
      const id = Number(r.id);
      out.push({
        id,
        lease,
        deliveryId: r.delivery_id,
        transmissionId: deliveryTransmissionId(id),
        subscriptionId: r.subscription_id,
        shipmentId: r.shipment_id,
        triggerType: r.trigger_type,
        triggeredByEvent: r.triggered_by_event,
        exceptionId: r.exception_id,
        attempts: Number(r.attempts),
        createdAt: r.created_at,
        clientId: r.client_id,
        accountId: r.account_id,
        callbackUrl: r.callback_url,
        secretCiphertext: r.secret_ciphertext,
        previousSecretCiphertext: r.previous_secret_ciphertext,
        previousSecretExpiresAt: r.previous_secret_expires_at,
        kind: r.kind,
        callbackCheckedAt: r.callback_checked_at,
        accountWide: r.kind === 'WEBHOOK' && r.subscription_shipment_id === 0,
      });
    }
  }
  return out.sort((a, b) => a.id - b.id);
}

/** Due deliveries that may be claimed now, oldest due first: a plain read, nothing locked. */
async function dueDeliveries(db: Kysely<DatabaseSchema>, at: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('webhook_delivery as d')
    .select('d.id')
    .where('d.status', '=', 'PENDING')
    .where('d.next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', at)]))
    // Head of line: no older pending delivery of the same subscription. (A subscription's delivery stays
    // PENDING while it is being sent, so the next one is not a candidate until the outcome is recorded.)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_delivery as p')
            .select('p.id')
            .whereRef('p.subscription_id', '=', 'd.subscription_id')
            .where('p.status', '=', 'PENDING')
            .whereRef('p.id', '<', 'd.id'),
        ),
      ),
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Which of `ids` carry the claim token `lease`. */
async function heldBy(db: Kysely<DatabaseSchema>, lease: string, ids: readonly number[]): Promise<number[]> {
  const held: number[] = [];
  for (const batch of chunks(ids)) {
    const rows = await db.selectFrom('webhook_delivery').select('id').where('id', 'in', batch).where('lease_owner', '=', lease).execute();
    held.push(...rows.map((r) => Number(r.id)));
  }
  return held;
}

/**
 * Renews the leases of a claim right before its deliveries are sent, and returns the ids still held: a worker
 * that stalled past its lease (and lost deliveries to another worker) sends only what is still its own.
 */
export async function confirmLeases(
  db: Kysely<DatabaseSchema>,
  lease: string,
  ids: readonly number[],
  now: Date,
  leaseMs: number,
): Promise<Set<number>> {
  const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
  let renewed = 0;
  for (const batch of chunks(ids)) {
    const result = await retryTransaction(() =>
      db
        .updateTable('webhook_delivery')
        .set({ lease_until: leaseUntil })
        .where('id', 'in', batch)
        .where('lease_owner', '=', lease)
        .where('status', '=', 'PENDING')
        .executeTakeFirst(),
    );
    renewed += Number(result.numUpdatedRows);
  }
  // All renewed (matched rows, as for the claim): nothing to read back.
  return new Set(renewed === ids.length ? ids : await heldBy(db, lease, ids));
}

export interface AttemptOutcome {
  id: number;
  /** The claim it was sent under: the outcome is recorded only while the claim still holds the delivery. */
  lease: string;
  /** HTTP status, or null when no answer came. */
  status: number | null;
  error: string | null;
  /** DELIVERED, FAILED (given up), or PENDING again with the next attempt's time. */
  result: { state: 'DELIVERED' } | { state: 'FAILED' } | { state: 'RETRY'; nextAttemptAt: Date };
}

/**
 * Records attempts' outcomes, releasing their leases (successes in one statement per claim). An outcome whose
 * delivery another worker took over in the meantime (or that was given up) writes nothing: the holder's word
 * counts.
 */
export async function recordAttempts(db: Kysely<DatabaseSchema>, outcomes: readonly AttemptOutcome[], now: Date): Promise<void> {
  const at = now.toISOString();
  // Successes are the bulk: one statement per claim and status code (nearly always 200 alone).
  const delivered = new Map<string, { lease: string; status: number | null; ids: number[] }>();
  for (const o of outcomes) {
    if (o.result.state !== 'DELIVERED') continue;
    const key = `${o.lease}\u0000${o.status}`;
    const group = delivered.get(key) ?? { lease: o.lease, status: o.status, ids: [] };
    group.ids.push(o.id);
    delivered.set(key, group);
  }
  for (const { lease, status, ids } of delivered.values()) {
    for (const batch of chunks(ids)) {
      await retryTransaction(() =>
        db
          .updateTable('webhook_delivery')
          .set((eb) => ({
            status: 'DELIVERED',
            attempts: eb('attempts', '+', 1),
            delivered_at: at,
            last_status: status,
            last_error: null,
            lease_owner: null,
            lease_until: null,
            updated_at: at,
          }))
          .where('id', 'in', batch)
          .where('lease_owner', '=', lease)
          .execute(),
      );
    }
  }
  for (const o of outcomes) {
    if (o.result.state === 'DELIVERED') continue;
    await retryTransaction(() =>
      db
        .updateTable('webhook_delivery')
        .set((eb) => ({
          status: o.result.state === 'FAILED' ? 'FAILED' : 'PENDING',
          attempts: eb('attempts', '+', 1),
          last_status: o.status,
          last_error: o.error?.slice(0, 500) ?? null,
          ...(o.result.state === 'RETRY' ? { next_attempt_at: o.result.nextAttemptAt.toISOString() } : {}),
          lease_owner: null,
          lease_until: null,
          updated_at: at,
        }))
        .where('id', '=', o.id)
        .where('lease_owner', '=', o.lease)
        .execute(),
    );
  }
}

/**
 * Enqueues the SCHEDULED_TRIGGER deliveries that are due: one per due
 * subscription, moving its next_scheduled_at by its interval in the same
 * statement's condition, so two workers never enqueue the same period twice.
 */
export async function enqueueScheduled(db: Kysely<DatabaseSchema>, now: Date, limit = 500): Promise<number> {
  const at = now.toISOString();
  const due = await db
    .selectFrom('webhook_subscription')
    .select(['subscription_id', 'shipment_id', 'scheduled_interval_seconds', 'next_scheduled_at'])
    .where('status', '=', 'ACTIVE')
    .where('next_scheduled_at', '<=', at)
    .limit(limit)
    .execute();
  let enqueued = 0;
  for (const s of due) {
    if (!s.scheduled_interval_seconds || !s.next_scheduled_at) continue;
    // The next period counts from now, not from the missed one: a worker down for a day sends one refresh, not 24.
    const next = new Date(now.getTime() + s.scheduled_interval_seconds * 1000).toISOString();
    const won = await inTransaction(db, async (trx) => {
      const result = await trx
        .updateTable('webhook_subscription')
        .set({ next_scheduled_at: next })
        .where('subscription_id', '=', s.subscription_id)
        .where('next_scheduled_at', '=', s.next_scheduled_at)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await trx
        .insertInto('webhook_delivery')
        .values(deliveryRow(s.subscription_id, s.shipment_id, { triggerType: 'SCHEDULED_TRIGGER', eventID: null, exceptionID: null }, at))
        .execute();
      return true;
    });
    if (won) enqueued++;
  }
  return enqueued;
}

/** A delivery as its log shows it (GET /v2/subscriptions/{id}/deliveries, `tracking delivery list`). */
export interface DeliveryLogEntry {
  deliveryID: string;
  subscriptionID: string;
  transmissionID: string;
  triggerType: string;
  triggeredByEvent: string | null;
  exceptionID: string | null;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptDateTime: string | null;
  createdDateTime: string;
  deliveredDateTime: string | null;
}

/**
 * Newest first; filtered by subscription (and its owner) and/or status, or one delivery by its id. `liveWebhook`
 * keeps only deliveries of webhook subscriptions not deleted: what `webhookDeliveries` shows (node(id:)).
 */
export async function listDeliveries(db: Kysely<DatabaseSchema>, filter: DeliveryLogFilter): Promise<DeliveryLogEntry[]> {
  return (await readDeliveryLog(db, filter)).map(({ entry }) => entry);
}

export interface DeliveryLogFilter {
  subscriptionId?: string;
  clientId?: string;
  status?: string;
  deliveryId?: string;
  liveWebhook?: boolean;
  liveDcsa?: boolean;
  /** Only deliveries older than this position in the log (a connection's `after`: see DeliveryLogPage). */
  beforePosition?: number;
  limit: number;
}

/** A page of a delivery log, newest first: each entry with its position (its row's sequence), and whether more follow. */
export interface DeliveryLogPage {
  entries: { entry: DeliveryLogEntry; position: number }[];
  more: boolean;
}

export async function pageOfDeliveryLog(db: Kysely<DatabaseSchema>, filter: DeliveryLogFilter): Promise<DeliveryLogPage> {
  const rows = await readDeliveryLog(db, { ...filter, limit: filter.limit + 1 });
  return { entries: rows.slice(0, filter.limit), more: rows.length > filter.limit };
}

async function readDeliveryLog(
  db: Kysely<DatabaseSchema>,
  filter: DeliveryLogFilter,
): Promise<{ entry: DeliveryLogEntry; position: number }[]> {
  let query = db
    .selectFrom('webhook_delivery as d')
    .innerJoin('webhook_subscription as s', 's.subscription_id', 'd.subscription_id')
    .select([
      'd.id',
      'd.delivery_id',
      'd.subscription_id',
      'd.trigger_type',
      'd.triggered_by_event',
      'd.exception_id',
      'd.status',
      'd.attempts',
      'd.last_status',
      'd.last_error',
      'd.next_attempt_at',
      'd.created_at',
      'd.delivered_at',
    ])
    .orderBy('d.id', 'desc')
    .limit(filter.limit);
  if (filter.subscriptionId) query = query.where('d.subscription_id', '=', filter.subscriptionId);
  if (filter.clientId) query = query.where('s.client_id', '=', filter.clientId);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  if (filter.deliveryId !== undefined) query = query.where('d.delivery_id', '=', filter.deliveryId);
  if (filter.liveWebhook) query = query.where('s.kind', '=', 'WEBHOOK').where('s.status', '!=', 'DELETED');
  if (filter.liveDcsa) query = query.where('s.kind', '=', DCSA_KIND).where('s.status', '!=', 'DELETED');
  if (filter.beforePosition !== undefined) query = query.where('d.id', '<', filter.beforePosition);
  const rows = await query.execute();
  return rows.map((r) => ({
    position: Number(r.id),
    entry: {
      deliveryID: r.delivery_id,
      subscriptionID: r.subscription_id,
      transmissionID: deliveryTransmissionId(Number(r.id)),
      triggerType: r.trigger_type,
      triggeredByEvent: r.triggered_by_event,
      exceptionID: r.exception_id,
      status: r.status as DeliveryLogEntry['status'],
      attempts: Number(r.attempts),
      lastStatus: r.last_status,
      lastError: r.last_error,
      nextAttemptDateTime: r.status === 'PENDING' ? r.next_attempt_at : null,
      createdDateTime: r.created_at,
      deliveredDateTime: r.delivered_at,
    },
  }));
}

/**
 * Operator retry of a FAILED delivery: PENDING again, due now, with a fresh
 * retry period. Its subscription must be active. Returns false when there is
 * no such failed delivery.
 */
export async function retryDelivery(db: Kysely<DatabaseSchema>, deliveryId: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const row = await db
    .selectFrom('webhook_delivery as d')
    .innerJoin('webhook_subscription as s', 's.subscription_id', 'd.subscription_id')
    .select(['d.id'])
    .where('d.delivery_id', '=', deliveryId)
    .where('d.status', '=', 'FAILED')
    .where('s.status', '=', 'ACTIVE')
    .executeTakeFirst();
  if (!row) return false;
  await db
    .updateTable('webhook_delivery')
    // created_at restarts the retry period; attempts keep counting (the backoff goes on from where it was).
    .set({ status: 'PENDING', next_attempt_at: at, created_at: at, last_error: null, updated_at: at })
    .where('id', '=', Number(row.id))
    .execute();
  return true;
}

/** One delivery of a subscription, by its delivery ID (the outbox row), or null. */
export async function findDelivery(db: Kysely<DatabaseSchema>, subscriptionId: string, deliveryId: string) {
  const row = await db
    .selectFrom('webhook_delivery')
    .select(['id', 'delivery_id', 'shipment_id', 'trigger_type', 'triggered_by_event', 'exception_id', 'status', 'attempts', 'created_at'])
    .where('subscription_id', '=', subscriptionId)
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id), attempts: Number(row.attempts) } : null;
}

/**
 * Records a redelivery (an attempt asked for by the subscription's owner) of a delivery that is not pending:
 * one more attempt with its answer; a 2xx makes a FAILED delivery DELIVERED. A pending delivery is the
 * worker's and is left alone (false).
 */
export async function recordRedelivery(
  db: Kysely<DatabaseSchema>,
  id: number,
  outcome: { status: number | null; error: string | null },
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const result = await db
    .updateTable('webhook_delivery')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_status: outcome.status,
      last_error: outcome.error === null ? null : outcome.error.slice(0, 500),
      updated_at: at,
      ...(delivered ? { status: 'DELIVERED', delivered_at: at } : {}),
    }))
    .where('id', '=', id)
    .where('status', '!=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
