import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SqlDialect } from '../../db/dialect.js';
import { insertReturns } from '../../db/dialect.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { matchesEventFilter, type EventFilter } from '../../domain/dcsa/dcsa-event-filter.js';
import type { EventFacts } from '../../domain/dcsa/dcsa-events.js';
import { chunks } from '../batching/chunks.js';
import { FACT_COLUMNS, factsOfColumns } from '../events/event-fact-columns.js';
import { DCSA_KIND, DCSA_NOTIFICATION } from './dcsa-subscriptions.js';

/**
 * DCSA notifications into the webhook outbox (docs/architecture.md, Push), written in the ingest transaction
 * that stored or linked the events, so a committed ingest has its notifications and a rolled-back one none.
 *
 * Each active DCSA subscription gets one notification per transaction (split past NOTIFICATION_MAX_EVENTS) with
 * the events, in storage order, that pass its filters and are linked to a shipment its account sees: a
 * subscriber receives an ingest as it was committed, so what it derives from them (its own snapshots) can match.
 * The delivery row is the webhook outbox's (leases, order per subscription, retries, delivery log); its events
 * are listed in dcsa_notification_event. The body is rendered when sent, as the owner, through the `events`
 * field (src/push/dcsa-notification-bodies.ts), so the tenant rule holds at every send.
 */

/** Events in one notification at most (a larger ingest is sent as several, in order). */
export const NOTIFICATION_MAX_EVENTS = 500;

export interface NotificationScope {
  /** Only the subscriptions of these accounts. */
  accountIds?: readonly string[];
  /** Leave out, per subscription, the events a notification of it already carries (pending or delivered). */
  once?: boolean;
}

export async function enqueueDcsaNotifications(
  db: Kysely<DatabaseSchema>,
  dialect: SqlDialect,
  eventSeqs: readonly number[],
  now: Date,
  scope: NotificationScope = {},
): Promise<number> {
  if (eventSeqs.length === 0) return 0;
  // Most ingests meet no DCSA subscription at all: one indexed read, and nothing else.
  const any = await db
    .selectFrom('webhook_subscription')
    .select('subscription_id')
    .where('kind', '=', DCSA_KIND)
    .where('status', '=', 'ACTIVE')
    .limit(1)
    .executeTakeFirst();
  if (!any) return 0;
  const seqs = [...new Set(eventSeqs)].sort((a, b) => a - b);
  const events = new Map<number, { carrierCode: string; facts: EventFacts }>();
  const links = new Map<number, { shipmentId: number; carrierBookingReference: string; billOfLadingNumber: string | null }[]>();
  for (const batch of chunks(seqs)) {
    const rows = await db
      .selectFrom('event')
      .select(['seq', 'carrier_code', 'event_type', ...FACT_COLUMNS])
      .where('seq', 'in', batch)
      .where('dcsa_publishable', '=', 1)
      .execute();
    for (const r of rows) {
      events.set(Number(r.seq), {
        carrierCode: r.carrier_code,
        facts: factsOfColumns(r.event_type, r, true),
      });
    }
    const linked = await db
      .selectFrom('shipment_event as se')
      .innerJoin('shipment as s', 's.id', 'se.shipment_id')
      .select(['se.event_seq', 'se.shipment_id', 's.carrier_booking_reference', 's.bill_of_lading_number'])
      .where('se.event_seq', 'in', batch)
      .execute();
    for (const l of linked) {
      const list = links.get(Number(l.event_seq)) ?? [];
      list.push({
        shipmentId: l.shipment_id,
        carrierBookingReference: l.carrier_booking_reference,
        billOfLadingNumber: l.bill_of_lading_number,
      });
      links.set(Number(l.event_seq), list);
    }
  }
  const shipmentIds = [...new Set([...links.values()].flat().map((l) => l.shipmentId))];
  if (events.size === 0 || shipmentIds.length === 0) return 0;
  const accountsOf = new Map<number, Set<string>>();
  for (const batch of chunks(shipmentIds)) {
    const rows = await db.selectFrom('shipment_account').select(['shipment_id', 'account_id']).where('shipment_id', 'in', batch).execute();
    for (const r of rows) accountsOf.set(r.shipment_id, (accountsOf.get(r.shipment_id) ?? new Set()).add(r.account_id));
  }
  const restricted = scope.accountIds ? new Set(scope.accountIds) : null;
  const accounts = [...new Set([...accountsOf.values()].flatMap((s) => [...s]))].filter((a) => !restricted || restricted.has(a));
  if (accounts.length === 0) return 0;
  const subscriptions = [];
  for (const batch of chunks(accounts)) {
    subscriptions.push(
      ...(await db
        .selectFrom('webhook_subscription')
        .select(['subscription_id', 'account_id', 'filters_json'])
        .where('kind', '=', DCSA_KIND)
        .where('status', '=', 'ACTIVE')
        .where('account_id', 'in', batch)
        .execute()),
    );
  }
  subscriptions.sort((a, b) => (a.subscription_id < b.subscription_id ? -1 : a.subscription_id > b.subscription_id ? 1 : 0));

  const at = now.toISOString();
  let enqueued = 0;
  for (const s of subscriptions) {
    const filter = JSON.parse(s.filters_json ?? '{}') as EventFilter;
    const matched: { seq: number; shipmentId: number }[] = [];
    const sent = scope.once ? await sentEventSeqs(db, s.subscription_id, seqs) : null;
    for (const seq of seqs) {
      if (sent?.has(seq)) continue;
      const event = events.get(seq);
      const visible = (links.get(seq) ?? []).filter((l) => accountsOf.get(l.shipmentId)?.has(s.account_id));
      if (!event || visible.length === 0) continue;
      if (!matchesEventFilter(filter, { ...event, shipments: visible })) continue;
      matched.push({ seq, shipmentId: (visible[0] as { shipmentId: number }).shipmentId });
    }
    for (const part of chunks(matched, NOTIFICATION_MAX_EVENTS)) {
      const insert = db.insertInto('webhook_delivery').values({
        delivery_id: randomUUID(),
        subscription_id: s.subscription_id,
        // The first event's shipment: for the delivery log; the body names every event.
        shipment_id: (part[0] as { shipmentId: number }).shipmentId,
        trigger_type: DCSA_NOTIFICATION,
        triggered_by_event: null,
        exception_id: null,
        status: 'PENDING',
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      });
      const id = insertReturns(dialect)
        ? Number((await insert.returning('id').executeTakeFirstOrThrow()).id)
        : Number((await insert.executeTakeFirstOrThrow()).insertId);
      await db
        .insertInto('dcsa_notification_event')
        .values(part.map((m, position) => ({ delivery_id: id, position, event_seq: m.seq })))
        .execute();
      enqueued++;
    }
  }
  return enqueued;
}

/**
 * A DCSA subscription whose account is given a shipment receives the shipment's past events that match its
 * filters, once, before its new ones (docs/dcsa-events.md): called in the transaction of the grant, before the
 * notification of the events that transaction stored or linked (`excluded`: those go to every subscriber
 * there). An event a notification of the subscription already carries (through another shipment, or an earlier
 * grant) is not sent again.
 */
export async function enqueueGrantedEvents(
  db: Kysely<DatabaseSchema>,
  dialect: SqlDialect,
  granted: readonly { shipmentId: number; accountId: string }[],
  excluded: readonly number[],
  now: Date,
): Promise<number> {
  if (granted.length === 0) return 0;
  const skip = new Set(excluded);
  const shipmentsOf = new Map<string, number[]>();
  for (const g of granted) shipmentsOf.set(g.accountId, [...(shipmentsOf.get(g.accountId) ?? []), g.shipmentId]);
  let enqueued = 0;
  for (const [accountId, shipmentIds] of [...shipmentsOf].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const seqs = (await linkedEventSeqs(db, shipmentIds)).filter((seq) => !skip.has(seq));
    enqueued += await enqueueDcsaNotifications(db, dialect, seqs, now, { accountIds: [accountId], once: true });
  }
  return enqueued;
}

/** Of `seqs`, the events a pending or delivered notification of the subscription carries. */
async function sentEventSeqs(db: Kysely<DatabaseSchema>, subscriptionId: string, seqs: readonly number[]): Promise<Set<number>> {
  const sent = new Set<number>();
  for (const batch of chunks([...seqs])) {
    const rows = await db
      .selectFrom('dcsa_notification_event as n')
      .innerJoin('webhook_delivery as d', 'd.id', 'n.delivery_id')
      .select('n.event_seq')
      .where('n.event_seq', 'in', batch)
      .where('d.subscription_id', '=', subscriptionId)
      .where('d.status', 'in', ['PENDING', 'DELIVERED'])
      .execute();
    for (const r of rows) sent.add(Number(r.event_seq));
  }
  return sent;
}

/** The eventIDs of each DCSA notification, in order. */
export async function notificationEventIds(db: Kysely<DatabaseSchema>, deliveryIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (const batch of chunks(deliveryIds)) {
    const rows = await db
      .selectFrom('dcsa_notification_event as n')
      .innerJoin('event as e', 'e.seq', 'n.event_seq')
      .select(['n.delivery_id', 'e.event_id'])
      .where('n.delivery_id', 'in', batch)
      .orderBy('n.delivery_id')
      .orderBy('n.position')
      .execute();
    for (const r of rows) {
      const id = Number(r.delivery_id);
      out.set(id, [...(out.get(id) ?? []), r.event_id]);
    }
  }
  return out;
}

/** The events linked to these shipments (a new shipment's events stored before it came, now visible with it). */
export async function linkedEventSeqs(db: Kysely<DatabaseSchema>, shipmentIds: readonly number[]): Promise<number[]> {
  const seqs: number[] = [];
  for (const batch of chunks(shipmentIds)) {
    const rows = await db.selectFrom('shipment_event').select('event_seq').where('shipment_id', 'in', batch).execute();
    seqs.push(...rows.map((r) => Number(r.event_seq)));
  }
  return seqs;
}
