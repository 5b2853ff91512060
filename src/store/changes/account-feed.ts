import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { decodeCursor, encodeCursor, type ChangePosition } from '../../domain/change-cursor.js';
import { decodeFeedCursor, encodeFeedCursor } from '../../domain/feed-cursor.js';
import type { ChangeTriggerType } from '../../domain/push/push-triggers.js';
import { cursorNow, readChanges } from './change-log.js';
import { chunks } from '../batching/chunks.js';
import type { ShipmentRow } from '../shipments/shipment-lookup.js';

/**
 * An account's change feed and its shipments (docs/account-feed.md), read by the `accountChanges` and
 * `shipments` GraphQL fields and, through them, GET /v2/changes.
 *
 * The feed without a cursor first lists every shipment the caller's accounts see, each once, at its current
 * version, in id order (the listing); its last page hands out a cursor at the change-log position taken when
 * the listing began, so what changed while the client listed comes next. From a changes cursor it reads the
 * change log (src/store/changes/change-log.ts: every change exactly once, in commit order, from any saved cursor, on
 * any instance), keeps the changes of shipments the accounts see as they are when read, and groups a page's
 * changes by shipment. Visibility is the lookup's tenant rule: shipment_account holds one of the accounts.
 * The accounts' own access changes (GRANTED, REVOKED) come in their place in commit order; an entry of a
 * shipment the accounts no longer see carries its identifiers and those changes only.
 */

export interface FeedChange {
  triggerType: ChangeTriggerType;
  triggeredByEvent: string | null;
  exceptionID: string | null;
  /** The exception's type for exception triggers; null otherwise. */
  exceptionType: string | null;
  /** When the change was committed (ISO 8601). */
  changedAt: string;
}

/** A visible shipment as the feed and the connection name it. */
export interface AccountShipment {
  row: ShipmentRow;
  billOfLadingNumber: string | null;
  /** When the shipment last changed (its version moved). */
  updatedAt: string;
}

export interface FeedEntry extends AccountShipment {
  /** When it changed last in this page (the listing: when the shipment last changed). */
  changedAt: string;
  /**
   * The accounts see the shipment now. False only for an entry of its access changes (REVOKED, or GRANTED then
   * REVOKED) after it was taken back: then it shows identifiers only, never its version or snapshot.
   */
  visible: boolean;
  /** This page's changes of the shipment, in commit order; empty in the listing. */
  changes: FeedChange[];
  /**
   * Where a read resumes after this entry (a connection's edge cursor): nothing of a later entry is skipped. In
   * the changes an entry stands at its shipment's last change of the page, so a later entry's earlier changes
   * would come before it: the cursor stops short of the first of those, and they are read again (at least once).
   */
  cursor: string;
}

export interface FeedPage {
  entries: FeedEntry[];
  /** Where the next read starts. */
  next: string;
  /** More may follow at once; false: caught up (poll `next` later). */
  hasMore: boolean;
  /** Whether this page lists shipments (no cursor yet) or follows changes. */
  phase: 'listing' | 'changes';
}

export const DEFAULT_FEED_LIMIT = 100;
export const MAX_FEED_LIMIT = 1000;

/** Reads the feed after `after` (null: from the listing). Throws InvalidFeedCursorError, ChangeCursorExpiredError. */
export async function readAccountFeed(
  db: Kysely<DatabaseSchema>,
  options: { accountIds: readonly string[]; after: string | null; limit: number },
): Promise<FeedPage> {
  const { accountIds, limit } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FEED_LIMIT) throw new RangeError(`limit must be 1 to ${MAX_FEED_LIMIT}`);
  const cursor = options.after === null ? null : decodeFeedCursor(options.after);
  if (cursor === null || cursor.phase === 'listing') {
    const start = cursor?.start ?? decodeCursor(await cursorNow(db));
    return readListing(db, accountIds, start, cursor?.lastShipmentId ?? 0, limit);
  }
  return readFeedChanges(db, accountIds, cursor.position, limit);
}

async function readListing(
  db: Kysely<DatabaseSchema>,
  accountIds: readonly string[],
  start: ChangePosition,
  afterId: number,
  limit: number,
): Promise<FeedPage> {
  const { shipments, more } = await visibleShipments(db, accountIds, { afterId, limit });
  const last = shipments.at(-1);
  const entries = shipments.map((s) => ({
    ...s,
    changedAt: s.updatedAt,
    visible: true,
    changes: [],
    cursor:
      s === last && !more
        ? encodeFeedCursor({ phase: 'changes', position: start })
        : encodeFeedCursor({ phase: 'listing', start, lastShipmentId: s.row.id }),
  }));
  if (more && last) {
    return { entries, next: encodeFeedCursor({ phase: 'listing', start, lastShipmentId: last.row.id }), hasMore: true, phase: 'listing' };
  }
  return { entries, next: encodeFeedCursor({ phase: 'changes', position: start }), hasMore: false, phase: 'listing' };
}

/** The feed cursor that resumes after a change (its change-log cursor). */
function feedCursorAt(changeCursor: string): string {
  return encodeFeedCursor({ phase: 'changes', position: decodeCursor(changeCursor) });
}

async function readFeedChanges(
  db: Kysely<DatabaseSchema>,
  accountIds: readonly string[],
  position: ChangePosition,
  limit: number,
): Promise<FeedPage> {
  const page = await readChanges(db, { after: encodeCursor(position), limit, accountIds });
  const next = encodeFeedCursor({ phase: 'changes', position: decodeCursor(page.cursor) });
  if (page.changes.length === 0) return { entries: [], next, hasMore: page.more, phase: 'changes' };
  const shipmentIds = [...new Set(page.changes.map((c) => c.shipmentId))];
  const rows = await shipmentsById(db, shipmentIds);
  const visible = await visibleAmong(db, accountIds, shipmentIds);
  const types = await exceptionTypes(db, [...new Set(page.changes.flatMap((c) => (c.exceptionId ? [c.exceptionId] : [])))]);
  const byShipment = new Map<number, FeedChange[]>();
  for (const c of page.changes) {
    const list = byShipment.get(c.shipmentId) ?? [];
    list.push({
      triggerType: c.triggerType,
      triggeredByEvent: c.triggeredByEvent,
      exceptionID: c.exceptionId,
      exceptionType: c.exceptionId ? (types.get(c.exceptionId) ?? null) : null,
      changedAt: c.createdAt,
    });
    byShipment.set(c.shipmentId, list);
  }
  // Ordered by each shipment's last change in the page: what changed most recently comes last.
  const lastIndex = new Map<number, number>();
  page.changes.forEach((c, i) => lastIndex.set(c.shipmentId, i));
  const firstIndex = new Map<number, number>();
  page.changes.forEach((c, i) => firstIndex.has(c.shipmentId) || firstIndex.set(c.shipmentId, i));
  const order = [...lastIndex.keys()].sort((a, b) => (lastIndex.get(a) as number) - (lastIndex.get(b) as number));
  // Resume after entry k: just before the earliest change of the entries after it (the page's end for the last).
  const resume: string[] = new Array<string>(order.length);
  let earliest = page.changes.length;
  for (let k = order.length - 1; k >= 0; k--) {
    const at = earliest === page.changes.length ? null : earliest - 1;
    resume[k] = at === null ? next : at < 0 ? encodeFeedCursor({ phase: 'changes', position }) : feedCursorAt(page.changes[at]!.cursor);
    earliest = Math.min(earliest, firstIndex.get(order[k] as number) as number);
  }
  const entries: FeedEntry[] = [];
  order.forEach((id, k) => {
    const shipment = rows.get(id);
    const changes = byShipment.get(id) ?? [];
    if (!shipment) return;
    entries.push({
      ...shipment,
      changedAt: (changes.at(-1) as FeedChange).changedAt,
      visible: visible.has(id),
      changes,
      cursor: resume[k] as string,
    });
  });
  return { entries, next, hasMore: page.more, phase: 'changes' };
}

export interface ShipmentFilter {
  /** After this shipment (a connection cursor), or 0. */
  afterId: number;
  limit: number;
  carrierCode?: string;
  /** Only shipments with an open (DETECTED) exception of this type. */
  openExceptionType?: string;
  /** Only shipments that changed at or after this time (ISO 8601). */
  updatedSince?: string;
}

/** The shipments the accounts see, in id order, filtered; `more` when others follow. */
export async function visibleShipments(
  db: Kysely<DatabaseSchema>,
  accountIds: readonly string[],
  filter: ShipmentFilter,
): Promise<{ shipments: AccountShipment[]; more: boolean }> {
  if (accountIds.length === 0) return { shipments: [], more: false };
  let query = db
    .selectFrom('shipment_account as sa')
    .innerJoin('shipment as s', 's.id', 'sa.shipment_id')
    .select(SHIPMENT_COLUMNS)
    .where('sa.account_id', 'in', accountIds)
    .where('sa.shipment_id', '>', filter.afterId);
  if (filter.carrierCode !== undefined) query = query.where('s.carrier_code', '=', filter.carrierCode);
  if (filter.updatedSince !== undefined) query = query.where('s.updated_at', '>=', filter.updatedSince);
  if (filter.openExceptionType !== undefined) {
    const type = filter.openExceptionType;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('tracking_exception as e')
          .select('e.exception_id')
          .whereRef('e.shipment_id', '=', 'sa.shipment_id')
          .where('e.status', '=', 'DETECTED')
          .where('e.exception_type', '=', type),
      ),
    );
  }
  // One more than asked: whether others follow. A shipment two of the accounts see comes twice: kept once.
  const rows = await query
    .orderBy('sa.shipment_id')
    .limit(filter.limit * accountIds.length + 1)
    .execute();
  const seen = new Set<number>();
  const shipments: AccountShipment[] = [];
  for (const r of rows) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    shipments.push(toAccountShipment(r));
  }
  const more = shipments.length > filter.limit;
  return { shipments: shipments.slice(0, filter.limit), more };
}

const SHIPMENT_COLUMNS = [
  's.id',
  's.carrier_code',
  's.carrier_booking_reference',
  's.bill_of_lading_number',
  's.master_json',
  's.etd',
  's.eta',
  's.version',
  's.updated_at',
] as const;

function toAccountShipment(r: {
  id: number;
  carrier_code: string;
  carrier_booking_reference: string;
  bill_of_lading_number: string | null;
  master_json: string;
  etd: string | null;
  eta: string | null;
  version: number;
  updated_at: string;
}): AccountShipment {
  const { bill_of_lading_number, updated_at, ...row } = r;
  return { row: { ...row, version: Number(row.version) }, billOfLadingNumber: bill_of_lading_number, updatedAt: updated_at };
}

async function shipmentsById(db: Kysely<DatabaseSchema>, ids: readonly number[]): Promise<Map<number, AccountShipment>> {
  const out = new Map<number, AccountShipment>();
  for (const batch of chunks([...ids])) {
    const rows = await db.selectFrom('shipment as s').select(SHIPMENT_COLUMNS).where('s.id', 'in', batch).execute();
    for (const r of rows) out.set(r.id, toAccountShipment(r));
  }
  return out;
}

/** Of `shipmentIds`, those one of the accounts sees now. */
async function visibleAmong(
  db: Kysely<DatabaseSchema>,
  accountIds: readonly string[],
  shipmentIds: readonly number[],
): Promise<Set<number>> {
  const out = new Set<number>();
  if (accountIds.length === 0) return out;
  for (const batch of chunks([...shipmentIds])) {
    const rows = await db
      .selectFrom('shipment_account')
      .select('shipment_id')
      .where('shipment_id', 'in', batch)
      .where('account_id', 'in', [...accountIds])
      .execute();
    for (const r of rows) out.add(r.shipment_id);
  }
  return out;
}

async function exceptionTypes(db: Kysely<DatabaseSchema>, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const batch of chunks([...ids])) {
    const rows = await db
      .selectFrom('tracking_exception')
      .select(['exception_id', 'exception_type'])
      .where('exception_id', 'in', batch)
      .execute();
    for (const r of rows) out.set(r.exception_id, r.exception_type);
  }
  return out;
}

/** The visible shipment that changed last (what an account-wide subscription's test delivery shows), or null. */
export async function latestVisibleShipmentId(db: Kysely<DatabaseSchema>, accountIds: readonly string[]): Promise<number | null> {
  if (accountIds.length === 0) return null;
  const row = await db
    .selectFrom('shipment_account as sa')
    .innerJoin('shipment as s', 's.id', 'sa.shipment_id')
    .select('s.id')
    .where('sa.account_id', 'in', accountIds)
    .orderBy('s.updated_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}
