import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { TrackingFetchTable } from '../../db/tables/tracking.js';
import type { ReferenceKind } from '../../domain/tracking-reference.js';
import type { TrackingEvent } from '../../domain/types.js';
import { chunks } from '../batching/chunks.js';
import { claimToken } from '../push/delivery-queue.js';
import { retryTransaction } from '../../db/retry-transaction.js';
import { decodeEvent } from '../events/event-payload.js';

/**
 * Tracking requests and the fetch rows they share (migration 014; docs/tracking-requests.md).
 *
 * A fetch row is claimed for one fetch the way deliveries are (src/store/push/delivery-queue.ts): a plain read of
 * due rows, a conditional UPDATE that gives only free rows this claim's token, a read back by token. Never
 * SKIP LOCKED. Every later write is conditioned on the token, so a fetcher that stalled past its lease writes
 * nothing more.
 */

export type FetchStatus = 'PENDING' | 'TRACKING' | 'AWAITING_CARRIER_DATA' | 'FAILED' | 'STOPPED';
export type RequestStatus = FetchStatus;
export const LIVE_STATUSES: readonly FetchStatus[] = ['PENDING', 'TRACKING', 'AWAITING_CARRIER_DATA'];
export const REQUEST_STATUSES: readonly RequestStatus[] = ['PENDING', 'TRACKING', 'AWAITING_CARRIER_DATA', 'FAILED', 'STOPPED'];

export interface ReferenceKey {
  carrierCode: string;
  kind: ReferenceKind;
  reference: string;
}

/** A tracking request as its client sees it. */
export interface TrackingRequestView {
  trackingRequestID: string;
  status: RequestStatus;
  carrierCode: string;
  kind: ReferenceKind;
  reference: string;
  failureReason: string | null;
  stopReason: string | null;
  /** The shipment, once found (its lookup keys). */
  shipment: { carrierCode: string; carrierBookingReference: string; billOfLadingNumber: string | null } | null;
  eventsReceived: number;
  createdDateTime: string;
  updatedDateTime: string;
  statusChangedDateTime: string;
  trackingSinceDateTime: string | null;
  lastFetchedDateTime: string | null;
  nextFetchDateTime: string | null;
}

const ACTIVE = '-';

function viewQuery(db: Kysely<DatabaseSchema>) {
  return db
    .selectFrom('tracking_request as r')
    .innerJoin('tracking_fetch as f', 'f.id', 'r.fetch_id')
    .leftJoin('shipment as s', 's.id', 'f.shipment_id')
    .select([
      'r.id',
      'r.carrier_code',
      'r.reference_kind',
      'r.reference',
      'r.created_at',
      'r.updated_at',
      'r.stopped_at',
      'r.stop_reason as request_stop_reason',
      'f.status',
      'f.status_reason',
      'f.stop_reason',
      'f.status_changed_at',
      'f.found_at',
      'f.events_seen',
      'f.last_fetched_at',
      'f.next_fetch_at',
      's.carrier_code as s_carrier_code',
      's.carrier_booking_reference as s_booking',
      's.bill_of_lading_number as s_bill',
    ]);
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number];

function toView(row: ViewRow): TrackingRequestView {
  const stopped = row.stopped_at !== null;
  const status = (stopped ? 'STOPPED' : row.status) as RequestStatus;
  const statusChanged = stopped ? (row.stopped_at as string) : row.status_changed_at;
  const shipment =
    row.s_carrier_code && row.s_booking
      ? { carrierCode: row.s_carrier_code, carrierBookingReference: row.s_booking, billOfLadingNumber: row.s_bill ?? null }
      : null;
  return {
    trackingRequestID: row.id,
    status,
    carrierCode: row.carrier_code,
    kind: row.reference_kind as ReferenceKind,
    reference: row.reference,
    failureReason: status === 'FAILED' ? row.status_reason : null,
    stopReason: stopped ? row.request_stop_reason : status === 'STOPPED' ? row.stop_reason : null,
    shipment,
    eventsReceived: Number(row.events_seen),
    createdDateTime: row.created_at,
    statusChangedDateTime: statusChanged,
    updatedDateTime: statusChanged > row.updated_at ? statusChanged : row.updated_at,
    trackingSinceDateTime: row.found_at,
    lastFetchedDateTime: row.last_fetched_at,
    nextFetchDateTime: !stopped && LIVE_STATUSES.includes(row.status as FetchStatus) ? row.next_fetch_at : null,
  };
}

/** The fetch row of a reference, made or (when FAILED or STOPPED) started again; its id. */
async function liveFetch(db: Db, key: ReferenceKey, now: Date): Promise<number> {
  const at = now.toISOString();
  const find = () =>
    db
      .selectFrom('tracking_fetch')
      .select(['id', 'status'])
      .where('carrier_code', '=', key.carrierCode)
      .where('reference_kind', '=', key.kind)
      .where('reference', '=', key.reference)
      .executeTakeFirst();
  let row = await find();
  if (!row) {
    try {
      await db
        .insertInto('tracking_fetch')
        .values({
          carrier_code: key.carrierCode,
          reference_kind: key.kind,
          reference: key.reference,
          status: 'PENDING',
          status_reason: null,
          stop_reason: null,
          status_changed_at: at,
          shipment_id: null,
          watermark: null,
          requested_at: at,
          found_at: null,
          last_change_at: null,
          next_milestone_at: null,
          arrived_at: null,
          next_fetch_at: at,
          lease_owner: null,
          lease_until: at,
          last_fetched_at: null,
          last_error: null,
        })
        .execute();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    row = await find();
    if (!row) throw new Error('tracking fetch row was neither found nor created');
    return Number(row.id);
  }
  if (row.status === 'FAILED' || row.status === 'STOPPED') {
    await db
      .updateTable('tracking_fetch')
      .set({
        status: 'PENDING',
        status_reason: null,
        stop_reason: null,
        status_changed_at: at,
        requested_at: at,
        last_change_at: null,
        next_fetch_at: at,
        consecutive_failures: 0,
      })
      .where('id', '=', row.id)
      .where('status', 'in', ['FAILED', 'STOPPED'])
      .execute();
  }
  return Number(row.id);
}

export class RequestCapError extends Error {}

/**
 * A client's request for a reference: its active one when it has one (started again when FAILED or STOPPED by
 * the fetcher), else a new one, refused past `cap` live requests. `created` tells which.
 */
export async function createTrackingRequest(
  db: Kysely<DatabaseSchema>,
  input: ReferenceKey & { clientId: string; accountIds: readonly string[] },
  now: Date,
  cap: number,
): Promise<{ request: TrackingRequestView; created: boolean }> {
  const at = now.toISOString();
  const existing = () =>
    viewQuery(db)
      .where('r.client_id', '=', input.clientId)
      .where('r.carrier_code', '=', input.carrierCode)
      .where('r.reference_kind', '=', input.kind)
      .where('r.reference', '=', input.reference)
      .where('r.active_key', '=', ACTIVE)
      .executeTakeFirst();
  const found = await existing();
  if (found) {
    if (found.status === 'FAILED' || found.status === 'STOPPED') {
      await liveFetch(db, input, now);
      await db.updateTable('tracking_request').set({ updated_at: at }).where('id', '=', found.id).execute();
      return { request: toView((await existing()) as ViewRow), created: false };
    }
    return { request: toView(found), created: false };
  }
  if ((await countLiveRequests(db, input.clientId)) >= cap) {
    throw new RequestCapError(`a client may have at most ${cap} active tracking requests; delete some first`);
  }
  const fetchId = await liveFetch(db, input, now);
  const id = randomUUID();
  try {
    await db
      .insertInto('tracking_request')
      .values({
        id,
        client_id: input.clientId,
        account_ids: JSON.stringify([...input.accountIds]),
        fetch_id: fetchId,
        carrier_code: input.carrierCode,
        reference_kind: input.kind,
        reference: input.reference,
        active_key: ACTIVE,
        created_at: at,
        updated_at: at,
        stopped_at: null,
        stop_reason: null,
      })
      .execute();
  } catch (err) {
    // The same request made twice at once: the other one stands.
    if (!isUniqueViolation(err)) throw err;
    const other = await existing();
    if (other) return { request: toView(other), created: false };
    throw err;
  }
  // A reference already followed for another client: fetched soon, so this client's accounts get its shipment.
  await db
    .updateTable('tracking_fetch')
    .set({ next_fetch_at: at })
    .where('id', '=', fetchId)
    .where('status', '=', 'TRACKING')
    .where('next_fetch_at', '>', at)
    .execute();
  return { request: toView((await viewQuery(db).where('r.id', '=', id).executeTakeFirstOrThrow()) as ViewRow), created: true };
}

/** Live (not stopped, not failed) requests of a client: what its cap counts. */
export async function countLiveRequests(db: Kysely<DatabaseSchema>, clientId: string): Promise<number> {
  const row = await db
    .selectFrom('tracking_request as r')
    .innerJoin('tracking_fetch as f', 'f.id', 'r.fetch_id')
    .select((eb) => eb.fn.countAll<number | bigint>().as('n'))
    .where('r.client_id', '=', clientId)
    .where('r.active_key', '=', ACTIVE)
    .where('f.status', 'in', [...LIVE_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function getTrackingRequest(db: Kysely<DatabaseSchema>, clientId: string, id: string): Promise<TrackingRequestView | null> {
  const row = await viewQuery(db).where('r.id', '=', id).where('r.client_id', '=', clientId).executeTakeFirst();
  return row ? toView(row) : null;
}

/** A page of a client's requests, oldest first, after `after` (the last one of the previous page). */
export async function listTrackingRequests(
  db: Kysely<DatabaseSchema>,
  clientId: string,
  options: { after?: { createdAt: string; id: string }; limit: number },
): Promise<{ requests: TrackingRequestView[]; more: boolean }> {
  let query = viewQuery(db).where('r.client_id', '=', clientId);
  const after = options.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('r.created_at', '>', after.createdAt), eb.and([eb('r.created_at', '=', after.createdAt), eb('r.id', '>', after.id)])]),
    );
  }
  const rows = await query
    .orderBy('r.created_at')
    .orderBy('r.id')
    .limit(options.limit + 1)
    .execute();
  return { requests: rows.slice(0, options.limit).map(toView), more: rows.length > options.limit };
}

/**
 * Stops a client's request (DELETE). Its fetch row stops too when no other active request wants the
 * reference. False for another client's or an unknown request; true (and nothing changes) for one already stopped.
 */
export async function stopTrackingRequest(db: Kysely<DatabaseSchema>, clientId: string, id: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const row = await db
    .selectFrom('tracking_request')
    .select(['fetch_id', 'active_key'])
    .where('id', '=', id)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return false;
  if (row.active_key !== ACTIVE) return true;
  await db
    .updateTable('tracking_request')
    .set({ active_key: id, stopped_at: at, updated_at: at, stop_reason: 'DELETED' })
    .where('id', '=', id)
    .where('active_key', '=', ACTIVE)
    .execute();
  const others = await db
    .selectFrom('tracking_request')
    .select('id')
    .where('fetch_id', '=', row.fetch_id)
    .where('active_key', '=', ACTIVE)
    .limit(1)
    .executeTakeFirst();
  if (!others) {
    await db
      .updateTable('tracking_fetch')
      .set({ status: 'STOPPED', stop_reason: 'DELETED', status_changed_at: at })
      .where('id', '=', row.fetch_id)
      .where('status', 'in', [...LIVE_STATUSES])
      .execute();
  }
  return true;
}

export type FetchRow = Selectable<TrackingFetchTable>;
export interface ClaimedFetch {
  token: string;
  row: FetchRow;
}

/** Claims up to `limit` due fetch rows for one fetch each (see the module comment). */
export async function claimDueFetches(
  db: Kysely<DatabaseSchema>,
  options: { owner: string; now: Date; leaseMs: number; limit: number; carrierCode?: string },
): Promise<ClaimedFetch[]> {
  const at = options.now.toISOString();
  let due = db
    .selectFrom('tracking_fetch')
    .select('id')
    .where('status', 'in', [...LIVE_STATUSES])
    .where('next_fetch_at', '<=', at)
    // A lease until T ends at T: a row made, or freed (finishFetch), at T is claimable at T, not a millisecond on.
    .where('lease_until', '<=', at);
  if (options.carrierCode !== undefined) due = due.where('carrier_code', '=', options.carrierCode);
  const candidates = (await due.orderBy('next_fetch_at').limit(options.limit).execute()).map((r) => Number(r.id));
  if (candidates.length === 0) return [];
  const token = claimToken(options.owner);
  for (const batch of chunks(candidates)) {
    await retryTransaction(() =>
      db
        .updateTable('tracking_fetch')
        .set({ lease_owner: token, lease_until: new Date(options.now.getTime() + options.leaseMs).toISOString() })
        .where('id', 'in', batch)
        .where('status', 'in', [...LIVE_STATUSES])
        .where('next_fetch_at', '<=', at)
        .where('lease_until', '<=', at)
        .execute(),
    );
  }
  const rows = await db.selectFrom('tracking_fetch').selectAll().where('lease_owner', '=', token).execute();
  return rows.map((row) => ({ token, row: { ...row, id: Number(row.id) } }));
}

/** Extends a held claim; false when it was lost. */
export async function renewFetchLease(db: Db, id: number, token: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await retryTransaction(() =>
    db
      .updateTable('tracking_fetch')
      .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where('id', '=', id)
      .where('lease_owner', '=', token)
      .executeTakeFirst(),
  );
  return result.numUpdatedRows > 0n;
}

export type FetchOutcome = Partial<
  Pick<
    Updateable<TrackingFetchTable>,
    | 'status'
    | 'status_reason'
    | 'stop_reason'
    | 'status_changed_at'
    | 'shipment_id'
    | 'watermark'
    | 'events_seen'
    | 'found_at'
    | 'last_change_at'
    | 'next_milestone_at'
    | 'arrived_at'
    | 'consecutive_failures'
    | 'last_error'
  >
> & { next_fetch_at: string; last_fetched_at: string };

/** Ends a claimed fetch: frees the lease and records the outcome, while the claim is held. False when it was lost. */
export async function finishFetch(db: Db, id: number, token: string, now: Date, outcome: FetchOutcome): Promise<boolean> {
  const result = await retryTransaction(() =>
    db
      .updateTable('tracking_fetch')
      .set((eb) => ({ ...outcome, lease_owner: null, lease_until: now.toISOString(), fetches: eb('fetches', '+', 1) }))
      .where('id', '=', id)
      .where('lease_owner', '=', token)
      // Stopped meanwhile (its last request deleted): it stays stopped; a stopped row is never claimed, its lease is moot.
      .where('status', 'in', [...LIVE_STATUSES])
      .executeTakeFirst(),
  );
  return result.numUpdatedRows > 0n;
}

/** Every account of the active requests for a fetch row: whom its shipment is granted to. */
export async function accountsOfFetch(db: Db, fetchId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('tracking_request')
    .select('account_ids')
    .where('fetch_id', '=', fetchId)
    .where('active_key', '=', ACTIVE)
    .execute();
  const accounts = new Set<string>();
  for (const row of rows) for (const a of JSON.parse(row.account_ids) as string[]) accounts.add(a);
  return [...accounts].sort();
}

/** The stored shipment a reference names (its carrier's), most recent first; null when none. */
export async function shipmentOfReference(db: Db, key: ReferenceKey): Promise<{ id: number; carrierBookingReference: string } | null> {
  let query = db.selectFrom('shipment as s').select(['s.id', 's.carrier_booking_reference']).where('s.carrier_code', '=', key.carrierCode);
  if (key.kind === 'BKG') query = query.where('s.carrier_booking_reference', '=', key.reference);
  else if (key.kind === 'TRD') query = query.where('s.bill_of_lading_number', '=', key.reference);
  else query = query.innerJoin('shipment_container as c', 'c.shipment_id', 's.id').where('c.container_number', '=', key.reference);
  const row = await query.orderBy('s.id', 'desc').limit(1).executeTakeFirst();
  return row ? { id: Number(row.id), carrierBookingReference: row.carrier_booking_reference } : null;
}

/** The stored events of a reference (by its event references; a container by its equipment events), at most `limit`. */
export async function eventsOfReference(db: Db, key: ReferenceKey, limit = 5000): Promise<TrackingEvent[]> {
  const rows =
    key.kind === 'EQ'
      ? await db
          .selectFrom('event')
          .select(['payload', 'payload_json'])
          .where('carrier_code', '=', key.carrierCode)
          .where('equipment_reference', '=', key.reference)
          .orderBy('seq')
          .limit(limit)
          .execute()
      : await db
          .selectFrom('event_reference as er')
          .innerJoin('event as e', 'e.seq', 'er.event_seq')
          .select(['e.payload', 'e.payload_json'])
          .where('er.carrier_code', '=', key.carrierCode)
          .where('er.kind', '=', key.kind)
          .where('er.value', '=', key.reference)
          .orderBy('e.seq')
          .limit(limit)
          .execute();
  return rows.map(decodeEvent);
}

/** The events linked to a shipment (for its progress: next milestone, arrival), at most `limit`. */
export async function eventsOfShipment(db: Db, shipmentId: number, limit = 5000): Promise<TrackingEvent[]> {
  const rows = await db
    .selectFrom('shipment_event as se')
    .innerJoin('event as e', 'e.seq', 'se.event_seq')
    .select(['e.payload', 'e.payload_json'])
    .where('se.shipment_id', '=', shipmentId)
    .orderBy('e.seq')
    .limit(limit)
    .execute();
  return rows.map(decodeEvent);
}

/** The port of discharge of a shipment's master data. */
export async function portOfDischargeOf(db: Db, shipmentId: number): Promise<string | undefined> {
  const row = await db.selectFrom('shipment').select('master_json').where('id', '=', shipmentId).executeTakeFirst();
  if (!row) return undefined;
  return (JSON.parse(row.master_json) as { portOfDischarge?: { unLocationCode?: string } }).portOfDischarge?.unLocationCode;
}

/** Requests by served status (the tt_tracking_requests gauge). */
export async function countRequestsByStatus(db: Kysely<DatabaseSchema>): Promise<{ status: string; count: number }[]> {
  const rows = await db
    .selectFrom('tracking_request as r')
    .innerJoin('tracking_fetch as f', 'f.id', 'r.fetch_id')
    .select([
      sql<string>`case when ${sql.ref('r.active_key')} = ${ACTIVE} then ${sql.ref('f.status')} else 'STOPPED' end`.as('status'),
      (eb) => eb.fn.countAll<number | bigint>().as('n'),
    ])
    .groupBy(sql`case when ${sql.ref('r.active_key')} = ${ACTIVE} then ${sql.ref('f.status')} else 'STOPPED' end`)
    .execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.n) }));
}

/** Configured carriers with an events URL, and their reference prefixes (null: their carrier code). */
export async function trackableCarriers(
  db: Kysely<DatabaseSchema>,
): Promise<{ carrierCode: string; prefixes: string | null; eventsUrl: string | null; status: string }[]> {
  const rows = await db.selectFrom('carrier_source').select(['carrier_code', 'reference_prefixes', 'events_url', 'status']).execute();
  return rows.map((r) => ({ carrierCode: r.carrier_code, prefixes: r.reference_prefixes, eventsUrl: r.events_url, status: r.status }));
}

/** Whether some of `accounts` neither see the shipment nor were revoked from it (an operator's revocation stands). */
export async function missingAccounts(db: Db, shipmentId: number, accounts: readonly string[]): Promise<boolean> {
  if (accounts.length === 0) return false;
  const granted = await db
    .selectFrom('shipment_account')
    .select('account_id')
    .where('shipment_id', '=', shipmentId)
    .where('account_id', 'in', [...accounts])
    .execute();
  const revoked = await db
    .selectFrom('shipment_account_revocation')
    .select('account_id')
    .where('shipment_id', '=', shipmentId)
    .where('account_id', 'in', [...accounts])
    .execute();
  return new Set([...granted, ...revoked].map((r) => r.account_id)).size < accounts.length;
}
