import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import { orderedJoin, rowsPerInsert, skipDuplicateKeys, type SqlDialect } from '../../db/dialect.js';
import { chunks } from '../batching/chunks.js';

/**
 * Maintains shipment_event, the resolved links between shipments and events
 * (docs/architecture.md, Ingest bundle). A link exists exactly when an event reference matches
 * a shipment of the same carrier: BKG its carrier booking reference, TRD its
 * bill of lading number, EQ one of its container numbers. The relation is a
 * function of the stored data, so linking runs from both sides (new events
 * to stored shipments, new or changed shipments to stored events) and the
 * order of arrival does not matter.
 *
 * Matching is done in SQL (INSERT ... SELECT), so both directions compare
 * values under the same column collation.
 */

type Scope = { shipmentIds: readonly number[] } | { eventSeqs: readonly number[] };

/**
 * The matching pairs of one kind of reference within the scope. The join
 * order is fixed (STRAIGHT_JOIN on MySQL/MariaDB, CROSS JOIN on SQLite),
 * starting from the scoped side: the optimizers, without statistics for
 * rows inserted in this transaction, otherwise start from shipment and read
 * every event reference of every shipment once per statement, which makes
 * a large ingest quadratic.
 */
function linkSelect(dialect: SqlDialect, scope: Scope, kind: 'BKG' | 'TRD' | 'EQ'): RawBuilder<unknown> {
  const join = orderedJoin(dialect);
  const er = sql.table('event_reference');
  const s = sql.table('shipment');
  const sc = sql.table('shipment_container');
  const ref = (r: string) => sql.ref(r);
  const select = sql`select ${ref('s.id')} as ${sql.id('shipment_id')}, ${ref('er.event_seq')} as ${sql.id('event_seq')}`;
  if ('eventSeqs' in scope) {
    const where = sql`where ${ref('er.kind')} = ${kind} and ${ref('er.event_seq')} in (${sql.join(scope.eventSeqs)})`;
    if (kind === 'EQ') {
      return sql`${select} from ${er} as ${sql.id('er')}
        ${join} ${sc} as ${sql.id('sc')} on ${ref('sc.container_number')} = ${ref('er.value')}
        ${join} ${s} as ${sql.id('s')} on ${ref('s.id')} = ${ref('sc.shipment_id')} and ${ref('s.carrier_code')} = ${ref('er.carrier_code')}
        ${where}`;
    }
    const key = kind === 'BKG' ? ref('s.carrier_booking_reference') : ref('s.bill_of_lading_number');
    return sql`${select} from ${er} as ${sql.id('er')}
      ${join} ${s} as ${sql.id('s')} on ${ref('s.carrier_code')} = ${ref('er.carrier_code')} and ${key} = ${ref('er.value')}
      ${where}`;
  }
  const where = sql`where ${ref('s.id')} in (${sql.join(scope.shipmentIds)})`;
  if (kind === 'EQ') {
    return sql`${select} from ${s} as ${sql.id('s')}
      ${join} ${sc} as ${sql.id('sc')} on ${ref('sc.shipment_id')} = ${ref('s.id')}
      ${join} ${er} as ${sql.id('er')} on ${ref('er.carrier_code')} = ${ref('s.carrier_code')} and ${ref('er.kind')} = ${kind} and ${ref('er.value')} = ${ref('sc.container_number')}
      ${where}`;
  }
  const key = kind === 'BKG' ? ref('s.carrier_booking_reference') : ref('s.bill_of_lading_number');
  return sql`${select} from ${s} as ${sql.id('s')}
    ${join} ${er} as ${sql.id('er')} on ${ref('er.carrier_code')} = ${ref('s.carrier_code')} and ${ref('er.kind')} = ${kind} and ${ref('er.value')} = ${key}
    ${where}`;
}

/** Inserts every missing link within the scope, one statement per kind of reference. */
async function insertLinks(db: Db, dialect: SqlDialect, scope: Scope): Promise<void> {
  for (const kind of ['BKG', 'TRD', 'EQ'] as const) {
    // An event can match one shipment by several keys: the first statement
    // links it, the later ones skip the duplicate.
    await skipDuplicateKeys(
      dialect,
      db
        .insertInto('shipment_event')
        .columns(['shipment_id', 'event_seq'])
        .expression(linkSelect(dialect, scope, kind)),
    ).execute();
  }
}

/**
 * Links shipments to the events already stored: events that arrived before
 * their shipment, or that match a changed bill of lading or container list.
 * Call it before storing the bundle's own events, which linkNewEvents links.
 *
 * @param relinkIds shipments whose link keys changed: their links are
 *   recomputed from scratch, so a removed container or replaced bill of
 *   lading drops the links it made.
 */
export async function linkShipmentsToStoredEvents(
  db: Db,
  dialect: SqlDialect,
  shipmentIds: readonly number[],
  relinkIds: readonly number[],
): Promise<void> {
  const unlinkedBefore: number[] = [];
  for (const ids of chunks(relinkIds)) {
    const links = await db.selectFrom('shipment_event').select('event_seq').where('shipment_id', 'in', ids).execute();
    unlinkedBefore.push(...links.map((l) => l.event_seq));
    await db.deleteFrom('shipment_event').where('shipment_id', 'in', ids).execute();
  }
  for (const ids of chunks([...new Set([...shipmentIds, ...relinkIds])])) {
    await insertLinks(db, dialect, { shipmentIds: ids });
    // Events that waited for these shipments are linked now.
    await db
      .deleteFrom('unlinked_event')
      .where('event_seq', 'in', (eb) => eb.selectFrom('shipment_event').select('event_seq').where('shipment_id', 'in', ids))
      .execute();
  }
  // A replaced bill of lading or container list may leave events it linked with no shipment at all.
  await markUnlinked(db, dialect, [...new Set(unlinkedBefore)]);
}

/** Records those of the events that link to no shipment in unlinked_event (the metric and `tracking carrier unlinked`). */
async function markUnlinked(db: Db, dialect: SqlDialect, eventSeqs: readonly number[]): Promise<number> {
  let count = 0;
  for (const seqs of chunks(eventSeqs)) {
    const linked = new Set(
      (await db.selectFrom('shipment_event').select('event_seq').where('event_seq', 'in', seqs).execute()).map((l) => l.event_seq),
    );
    const lone = seqs.filter((seq) => !linked.has(seq));
    if (lone.length === 0) continue;
    count += lone.length;
    const rows = await db.selectFrom('event').select(['seq', 'carrier_code']).where('seq', 'in', lone).execute();
    await skipDuplicateKeys(
      dialect,
      db.insertInto('unlinked_event').values(rows.map((r) => ({ event_seq: r.seq, carrier_code: r.carrier_code }))),
    ).execute();
  }
  return count;
}

export interface NewEventLinks {
  /** Shipments that gained at least one of the new events. */
  shipmentIds: Set<number>;
  /** New events that match no shipment yet (kept; linked when the shipment comes). */
  unlinked: number;
}

/** Links newly stored events to the matching shipments of their carrier. */
export async function linkNewEvents(
  db: Db,
  dialect: SqlDialect,
  carrierCode: string,
  eventSeqs: readonly number[],
): Promise<NewEventLinks> {
  const shipmentIds = new Set<number>();
  let unlinked = 0;
  for (const seqs of chunks(eventSeqs)) {
    await insertLinks(db, dialect, { eventSeqs: seqs });
    const links = await db.selectFrom('shipment_event').select(['shipment_id', 'event_seq']).where('event_seq', 'in', seqs).execute();
    const linked = new Set<number>();
    for (const link of links) {
      shipmentIds.add(link.shipment_id);
      linked.add(link.event_seq);
    }
    const lone = seqs.filter((seq) => !linked.has(seq));
    unlinked += lone.length;
    for (const batch of chunks(lone, rowsPerInsert(2, 1000))) {
      await db
        .insertInto('unlinked_event')
        .values(batch.map((seq) => ({ event_seq: seq, carrier_code: carrierCode })))
        .execute();
    }
  }
  return { shipmentIds, unlinked };
}
