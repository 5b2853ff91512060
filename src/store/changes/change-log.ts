import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import {
  afterBatch,
  ChangeCursorExpiredError,
  comparePositions,
  decodeCursor,
  encodeCursor,
  InvalidChangeCursorError,
  laterPosition,
  ORIGIN,
  type ChangePosition,
} from '../../domain/change-cursor.js';
import type { ChangeTriggerType } from '../../domain/push/push-triggers.js';
import { changeShipmentId, storedShipmentIdsOf } from '../encoding/change-log-forms.js';
import { orderCommittedChanges } from './change-order.js';

/**
 * The change log as its readers see it (docs/architecture.md, Change log): every push transition committed by
 * any process, in commit order, after any cursor the service handed out. The one way to read change_log for
 * anything that keeps a position in it: live GraphQL subscriptions (src/push/change-feed.ts), an account's
 * change feed, event subscriptions.
 *
 * A reader is promised: every change exactly once, in commit order per shipment (and in one global order that
 * every reader shares), from any saved cursor, whatever process or instance reads, before or after a restart.
 * Cursors stay valid while the changes after them are kept (CHANGE_RETENTION_MS); an older one is refused with
 * ChangeCursorExpiredError, never silently moved forward.
 *
 * Each read first numbers what committed since the last read (src/store/changes/change-order.ts), so a reader sees
 * every change committed before its call.
 *
 * A change of an account's access (GRANTED, REVOKED: src/store/access/access-changes.ts) is that account's alone: a
 * reader filtered by accounts gets those of its accounts, a reader without an account filter (live updates of
 * a shipment) none.
 */

export interface Change {
  /** Resume after this change: pass it as `after` to read what follows. */
  cursor: string;
  /** The change's own id: stable, unique, not ordered. */
  changeId: number;
  shipmentId: number;
  triggerType: ChangeTriggerType;
  /** GRANTED and REVOKED: the account whose access changed (only its readers get the change); null otherwise. */
  accountId: string | null;
  triggeredByEvent: string | null;
  exceptionId: string | null;
  /** When the writing transaction recorded it (its clock, ISO 8601). */
  createdAt: string;
}

export interface ChangePage {
  /** In commit order. */
  changes: Change[];
  /** Where the next read starts: after the last change, or after everything examined when the page is not full. */
  cursor: string;
  /**
   * More may follow at once: the page is full, or the read examined as many changes as one read does
   * (MAX_EXAMINED_PER_READ) and kept fewer than asked (a filtered read: maybe none).
   */
  more: boolean;
}

export interface ReadChangesOptions {
  /** Read after this cursor; null: from the oldest change still kept. */
  after: string | null;
  /** At most this many changes (1 to MAX_CHANGES_PER_PAGE). */
  limit: number;
  /** Only changes of these shipments (at most MAX_FILTER_SHIPMENTS ids). */
  shipmentIds?: readonly number[];
  /**
   * Only changes of shipments this account may see (shipment_account), as they are when read, and the changes of
   * its own access (GRANTED, REVOKED: a REVOKED although the account no longer sees the shipment).
   */
  accountId?: string;
  /** As `accountId`, for several accounts (a client's accounts: the lookup's tenant rule). */
  accountIds?: readonly string[];
}

export const MAX_CHANGES_PER_PAGE = 1000;
export const MAX_FILTER_SHIPMENTS = 1000;
/** Changes one read examines at most (see windowEnd): a page may hold fewer than asked and still say more follow. */
export const MAX_EXAMINED_PER_READ = 10_000;
/** How long a change is kept, so how long a cursor stays good: 7 days. */
export const CHANGE_RETENTION_MS = 7 * 24 * 3_600_000;

/** A cursor after everything committed so far: a new reader starts here to get what happens next. */
export async function cursorNow(db: Kysely<DatabaseSchema>): Promise<string> {
  await orderCommittedChanges(db);
  const { lastSeq } = await readSequence(db);
  return encodeCursor(afterBatch(lastSeq));
}

/**
 * The changes after `after`, in commit order, filtered by shipments or account. Throws
 * InvalidChangeCursorError for a cursor the service did not hand out and ChangeCursorExpiredError for one
 * older than what is kept.
 */
export async function readChanges(db: Kysely<DatabaseSchema>, options: ReadChangesOptions): Promise<ChangePage> {
  const { limit, shipmentIds, accountId, accountIds } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CHANGES_PER_PAGE) {
    throw new RangeError(`limit must be 1 to ${MAX_CHANGES_PER_PAGE}`);
  }
  if (shipmentIds && shipmentIds.length > MAX_FILTER_SHIPMENTS) {
    throw new RangeError(`at most ${MAX_FILTER_SHIPMENTS} shipments per read`);
  }
  const after = options.after === null ? ORIGIN : decodeCursor(options.after);
  await orderCommittedChanges(db);
  // The head first: every batch up to it is committed and complete, so the rows read next, bounded by it, are
  // exactly what the log holds up to there.
  const { lastSeq } = await readSequence(db);
  const head = afterBatch(lastSeq);
  if (comparePositions(after, head) > 0) throw new InvalidChangeCursorError('not a cursor of this service');
  const none = shipmentIds?.length === 0 || accountIds?.length === 0;
  // A filtered read examines at most MAX_EXAMINED_PER_READ changes: `end` is the last of them (null when fewer
  // follow). An unfiltered read keeps every change it examines, so its limit bounds it already: no window.
  const filtered = shipmentIds !== undefined || accountIds !== undefined || accountId !== undefined;
  const end = none || !filtered ? null : await windowEnd(db, after, lastSeq);
  const rows = none ? [] : await readRows(db, after, end, lastSeq, limit, shipmentIds, accountId === undefined ? accountIds : [accountId]);
  // The pruned position last: rows deleted before the read above show in it.
  if (options.after !== null) {
    const { pruned } = await readSequence(db);
    if (comparePositions(after, pruned) < 0) throw new ChangeCursorExpiredError('changes after this cursor are no longer kept');
  }
  const changes = rows.map(toChange);
  const full = rows.length === limit;
  const last = rows.at(-1);
  // Not full: everything up to the window's end (or the head) was examined, so the next read may start there,
  // filtered or not; past a window's end more may follow at once.
  const next = full && last ? positionOf(last) : (end ?? laterPosition(after, head));
  return { changes, cursor: encodeCursor(next), more: full || end !== null };
}

/** Deletes changes older than `before`, whole batches at a time, and records up to where. */
export async function pruneChanges(db: Kysely<DatabaseSchema>, before: Date): Promise<number> {
  await orderCommittedChanges(db);
  const cutoff = before.toISOString();
  // The first batch still holding a change young enough to keep: every batch below it is old throughout.
  const young = await db
    .selectFrom('change_log')
    .select((eb) => eb.fn.min('commit_seq').as('seq'))
    .where('commit_seq', 'is not', null)
    .where('created_at', '>=', cutoff)
    .executeTakeFirst();
  const { lastSeq, pruned } = await readSequence(db);
  const keepFrom = young?.seq == null ? lastSeq + 1 : Number(young.seq);
  const through = keepFrom - 1;
  if (through > pruned.seq) {
    const lastOfBatch = await db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('commit_seq', '=', through)
      .executeTakeFirst();
    // Recorded before any row goes, so a reader that misses a deleted row also finds its cursor expired.
    await db
      .updateTable('change_sequence')
      .set({ pruned_seq: through, pruned_id: Number(lastOfBatch?.id ?? 0) })
      .where('id', '=', 1)
      .where('pruned_seq', '<', through)
      .execute();
  }
  const upTo = Math.max(through, pruned.seq);
  let deleted = 0;
  for (;;) {
    const ids = await db.selectFrom('change_log').select('id').where('commit_seq', '<=', upTo).limit(1000).execute();
    if (ids.length === 0) return deleted;
    const result = await db
      .deleteFrom('change_log')
      .where(
        'id',
        'in',
        ids.map((r) => Number(r.id)),
      )
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
}

type ChangeRow = Awaited<ReturnType<typeof readRows>>[number];

/**
 * The MAX_EXAMINED_PER_READ-th change after `after` up to batch `lastSeq`, or null when fewer follow: where a
 * read's window ends. One range of the commit-order index, read in the index alone (it holds commit_seq and id).
 *
 * Why a window: a reader filtered by accounts or shipments keeps only the changes it may see, and an account
 * that sees few of the log's shipments would otherwise have the read walk the whole log after its cursor (a
 * week of every account's changes) to find one page: 14 s on a log of 1.1 million changes (docs/account-feed.md,
 * Cost), a pool connection held all along. Bounded, a page holds what the window had, possibly nothing, and
 * says more follows; the reader goes on from the window's end. Every change still comes exactly once.
 */
async function windowEnd(db: Kysely<DatabaseSchema>, after: ChangePosition, lastSeq: number): Promise<ChangePosition | null> {
  const row = await db
    .selectFrom('change_log as c')
    .select(['c.commit_seq', 'c.id'])
    .where((eb) => eb.or([eb('c.commit_seq', '>', after.seq), eb.and([eb('c.commit_seq', '=', after.seq), eb('c.id', '>', after.id)])]))
    .where('c.commit_seq', '<=', lastSeq)
    .orderBy('c.commit_seq')
    .orderBy('c.id')
    .limit(1)
    .offset(MAX_EXAMINED_PER_READ - 1)
    .executeTakeFirst();
  return row ? { seq: Number(row.commit_seq), id: Number(row.id) } : null;
}

async function readRows(
  db: Kysely<DatabaseSchema>,
  after: ChangePosition,
  end: ChangePosition | null,
  lastSeq: number,
  limit: number,
  shipmentIds: readonly number[] | undefined,
  accountIds: readonly string[] | undefined,
) {
  let query = db
    .selectFrom('change_log as c')
    .select([
      'c.id',
      'c.commit_seq',
      'c.shipment_id',
      'c.trigger_type',
      'c.triggered_by_event',
      'c.exception_id',
      'c.created_at',
      'c.account_id',
    ])
    .where((eb) => eb.or([eb('c.commit_seq', '>', after.seq), eb.and([eb('c.commit_seq', '=', after.seq), eb('c.id', '>', after.id)])]))
    .where('c.commit_seq', '<=', lastSeq)
    .orderBy('c.commit_seq')
    .orderBy('c.id')
    .limit(limit);
  if (end) {
    query = query.where((eb) =>
      eb.or([eb('c.commit_seq', '<', end.seq), eb.and([eb('c.commit_seq', '=', end.seq), eb('c.id', '<=', end.id)])]),
    );
  }
  // Plain or held (src/store/encoding/change-log-forms.ts).
  if (shipmentIds) query = query.where('c.shipment_id', 'in', storedShipmentIdsOf(shipmentIds));
  if (accountIds !== undefined) {
    // A change of the shipment while one of the accounts sees it; a change of one of the accounts' own access.
    //
    // "Sees it" is a count of the shipment's grants to the accounts (a probe of shipment_account's primary key
    // per change examined), not an EXISTS: MariaDB turns an EXISTS under this OR into an IN subquery and
    // materializes it, i.e. copies every shipment the accounts see into a temporary table on every page. That
    // was the feed's cost at scale (docs/account-feed.md, Cost): 19 s a page for an account of a million
    // shipments against 0.2 s with the probe, the same 100 rows. A scalar subquery is never materialized on
    // SQLite, MariaDB or MySQL; the commit-order index drives and the page stops at its limit.
    query = query.where(({ and, or, eb, selectFrom }) =>
      or([
        and([
          eb('c.account_id', 'is', null),
          eb(
            selectFrom('shipment_account as a')
              .select((s) => s.fn.countAll().as('grants'))
              // abs(): a held change (a SHIPMENT_MERGED before the finish) names its shipment negated.
              .where('a.shipment_id', '=', (e) => e.fn<number>('abs', ['c.shipment_id']))
              .where('a.account_id', 'in', accountIds),
            '>',
            0,
          ),
        ]),
        eb('c.account_id', 'in', accountIds),
      ]),
    );
  } else {
    query = query.where('c.account_id', 'is', null);
  }
  return query.execute();
}

function positionOf(row: ChangeRow): ChangePosition {
  return { seq: Number(row.commit_seq), id: Number(row.id) };
}

function toChange(row: ChangeRow): Change {
  return {
    cursor: encodeCursor(positionOf(row)),
    changeId: Number(row.id),
    shipmentId: changeShipmentId(row.shipment_id),
    triggerType: row.trigger_type as ChangeTriggerType,
    accountId: row.account_id,
    triggeredByEvent: row.triggered_by_event,
    exceptionId: row.exception_id,
    createdAt: row.created_at,
  };
}

async function readSequence(db: Kysely<DatabaseSchema>): Promise<{ lastSeq: number; pruned: ChangePosition }> {
  const row = await db
    .selectFrom('change_sequence')
    .select(['last_seq', 'pruned_seq', 'pruned_id'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { lastSeq: Number(row.last_seq), pruned: { seq: Number(row.pruned_seq), id: Number(row.pruned_id) } };
}
